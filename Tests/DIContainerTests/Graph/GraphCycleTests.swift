import DIContainer
import Testing

@Suite struct GraphCycleTests {
  typealias G = GraphFixtures

  @Test func findCyclesListsEachLoopOnce() {
    let container = DIContainer()
    container.register(G.Parent.init).lifetime(.objectGraph).injection(cycle: true, \.child)
    container.register(G.Child.init).lifetime(.objectGraph)
    container.register(G.Store.init)
    let graph = container.makeGraph()
    #expect(graph.findCycles().map { $0.map(\.name) } == [["Parent", "Child"]])
    #expect(graph.findProblems().isEmpty)
  }

  @Test func findCyclesFindsSelfLoopsAndSeparateLoops() {
    let container = DIContainer()
    CycleShape.register(
      CycleNodeA.self, needs: CycleNodeA.self, by: .injection, as: .single, in: container)
    CycleShape.register(
      CycleNodeB.self, needs: CycleNodeC.self, by: .initializer, as: .graph, in: container)
    CycleShape.register(
      CycleNodeC.self, needs: CycleNodeB.self, by: .injection, as: .graph, in: container)
    let cycles = container.makeGraph().findCycles()
    #expect(cycles.map { $0.map(\.id) } == [[0], [1, 2]])
  }

  @Test func delayedDependenciesDoNotFormCycles() throws {
    let container = DIContainer()
    container.register { (sibling: Later<G.Sibling>) in G.Holder(sibling: sibling) }
    container.register { (holder: G.Holder) in G.Sibling(holder: holder) }
    let graph = container.makeGraph()
    #expect(graph.edges(from: 0).first?.modifiers == [.delayed])
    #expect(graph.edges(from: 0).first?.targets == [1])
    #expect(graph.findCycles().isEmpty)
    try graph.validate()
    let holder: G.Holder = try container.tryResolve()
    let sibling = try #require(holder.sibling).make()
    #expect(sibling.holder !== holder)  // a prototype Holder, made by a later request
  }

  @Test func prototypeCycleIsAnErrorNamingItsPathAndRegistrations() throws {
    let container = DIContainer()
    container.register(G.Parent.init).injection(cycle: true, \.child)
    container.register(G.Child.init)
    let problems = container.makeGraph().findProblems()
    #expect(problems.map(\.kind) == [.cycle])
    #expect(problems[0].components == [0, 1])
    let message = problems[0].message
    #expect(message.hasPrefix("the cycle Parent → Child → Parent cannot be built: every"))
    #expect(message.contains("Parent (DIContainerTests/GraphCycleTests.swift:"))
    #expect(message.contains("Child (DIContainerTests/GraphCycleTests.swift:"))
    #expect(throws: DIError.self) { let _: G.Parent = try container.tryResolve() }
  }

  @Test func cachedComponentAskedForDuringItsInitializerIsAnError() throws {
    let container = DIContainer()
    container.register(G.Parent.init).lifetime(.perContainer(.single)).injection(\.child)
    container.register(G.Child.init).lifetime(.perContainer(.single))
    let problems = container.makeGraph().findProblems()
    #expect(problems.map(\.kind) == [.cycle])
    #expect(problems[0].message.hasPrefix("the cycle Child → Parent → Child cannot be built:"))
    #expect(problems[0].message.contains("the cached Child is asked for again"))
  }

  @Test func longChainHasNoStackOverflow() {
    let container = DIContainer()
    for _ in 0..<5_000 {
      container.register { (store: Later<G.Store>) in G.Holder(store: store) }
    }
    container.register(G.Store.init)
    let graph = container.makeGraph()
    #expect(graph.findCycles().isEmpty)
    #expect(graph.findProblems().isEmpty)
    let chain = ChainGraph(length: 20_000)
    #expect(chain.cycles == [Array(0..<20_000)])
  }

  @Test(arguments: CycleShape.selfLoops)
  func validatorAgreesWithResolutionOnSelfLoops(_ shape: CycleShape) {
    #expect(shape.validates == shape.resolvesFromEveryEntry, "\(shape)")
  }

  @Test(arguments: CycleShape.twoNodeLoops)
  func validatorAgreesWithResolutionOnTwoNodeLoops(_ shape: CycleShape) {
    #expect(shape.validates == shape.resolvesFromEveryEntry, "\(shape)")
  }

  @Test(arguments: CycleShape.threeNodeLoops)
  func validatorAgreesWithResolutionOnThreeNodeLoops(_ shape: CycleShape) {
    #expect(shape.validates == shape.resolvesFromEveryEntry, "\(shape)")
  }

  @Test func someShapesBuildAndSomeDoNot() {
    // Guards the agreement tests against a validator and a resolver that both refuse all.
    let verdicts = CycleShape.twoNodeLoops.map(\.validates)
    #expect(verdicts.contains(true) && verdicts.contains(false))
  }
}

/// A small loop of components: each needs the next, by a link kind, with a lifetime.
struct CycleShape: Sendable, CustomTestStringConvertible {
  enum Link: Sendable, CaseIterable {
    case initializer, injection, cycleBreak
  }
  enum Lifetime: Sendable, CaseIterable {
    case prototype, graph, single

    var lifetime: DILifetime {
      switch self {
      case .prototype: .prototype
      case .graph: .objectGraph
      case .single: .perContainer(.single)
      }
    }
  }

  /// Node i needs node (i + 1) % count by `links[i]`.
  let lifetimes: [Lifetime]
  let links: [Link]

  var testDescription: String {
    zip(lifetimes, links).map { "\($0)-\($1)->" }.joined(separator: " ") + " (back)"
  }

  static var selfLoops: [Self] {
    Lifetime.allCases.flatMap { lifetime in
      Link.allCases.map { Self(lifetimes: [lifetime], links: [$0]) }
    }
  }

  static var twoNodeLoops: [Self] { loops(of: 2) }
  static var threeNodeLoops: [Self] { loops(of: 3) }

  private static func loops(of count: Int) -> [Self] {
    var shapes: [Self] = [Self(lifetimes: [], links: [])]
    for _ in 0..<count {
      shapes = shapes.flatMap { shape in
        Lifetime.allCases.flatMap { lifetime in
          Link.allCases.map {
            Self(lifetimes: shape.lifetimes + [lifetime], links: shape.links + [$0])
          }
        }
      }
    }
    return shapes
  }

  /// A fresh container with the loop registered.
  func container() -> DIContainer {
    let container = DIContainer()
    let nodes: [any CycleNode.Type] = [CycleNodeA.self, CycleNodeB.self, CycleNodeC.self]
    for index in lifetimes.indices {
      let next = nodes[(index + 1) % lifetimes.count]
      Self.register(
        nodes[index], needs: next, by: links[index], as: lifetimes[index], in: container)
    }
    return container
  }

  /// Whether the validator finds no error.
  var validates: Bool {
    !container().makeGraph().findProblems().contains { $0.severity == .error }
  }

  /// Whether resolving each node first, in a fresh container, succeeds.
  var resolvesFromEveryEntry: Bool {
    let nodes: [any CycleNode.Type] = [CycleNodeA.self, CycleNodeB.self, CycleNodeC.self]
    return nodes.prefix(lifetimes.count).allSatisfy { node in
      (try? Self.resolve(node, from: container())) != nil
    }
  }

  private static func resolve<Node: CycleNode>(
    _ node: Node.Type, from container: DIContainer
  ) throws(DIError) -> Node {
    try container.tryResolve()
  }

  static func register<From: CycleNode, To: CycleNode>(
    _ from: From.Type, needs to: To.Type, by link: Link, as lifetime: Lifetime,
    in container: DIContainer
  ) {
    switch link {
    case .initializer:
      container.register { (next: To) -> From in
        let node = From()
        node.next = next
        return node
      }
      .lifetime(lifetime.lifetime)
    case .injection:
      container.register { From() }.lifetime(lifetime.lifetime)
        .injection { (node: From, next: To) in node.next = next }
    case .cycleBreak:
      container.register { From() }.lifetime(lifetime.lifetime)
        .injection(cycle: true) { (node: From, next: To) in node.next = next }
    }
  }
}

protocol CycleNode: AnyObject, SendableMetatype {
  init()
  var next: AnyObject? { get set }
}

final class CycleNodeA: CycleNode {
  var next: AnyObject?
  init() {}
}

final class CycleNodeB: CycleNode {
  var next: AnyObject?
  init() {}
}

final class CycleNodeC: CycleNode {
  var next: AnyObject?
  init() {}
}

/// The cycle search on a loop of `length` nodes, each needing the next by an initializer
/// parameter: far deeper than any recursion could go.
struct ChainGraph {
  let cycles: [[Int]]

  init(length: Int) {
    let arcs = DependencyArcs(
      starts: Array(0...length), targets: Array(1..<length) + [0],
      kinds: Array(repeating: .initializer, count: length))
    cycles = arcs.stronglyConnected(includes: { _ in true }, follows: { _, _ in true }).cycles
  }
}

/// A minimal delayed dependency for these tests (`Lazy`/`Provider` come with their own
/// feature): resolved when `make()` is called.
struct Later<T>: DIParameterModifier {
  let make: () throws(DIError) -> T

  static func describe(_ request: inout DIRequest) {
    request.isDelayed = true
    request.describe(wrapped: T.self)
  }

  static func resolve(in context: inout DIResolutionContext, tag: Any.Type?) throws(DIError) -> Self
  {
    let container = context.container
    let requester = context.requester
    return Later { () throws(DIError) -> T in
      try container.resolve(T.self, from: requester, arguments: nil)
    }
  }
}
