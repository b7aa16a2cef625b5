import DIContainer
import DITestSupport
import Testing

/// A node of a random graph, whatever its type.
protocol SCAnyNode: AnyObject, SendableMetatype {
  /// The node's number in the graph.
  var index: Int { get }
  /// The dependencies it received, by their node number.
  var deps: [Int: any SCAnyNode] { get }
  func attach(_ dependency: any SCAnyNode)
}

/// Node `10 * T + O` of a random graph: a hundred distinct types from one class.
final class SCNode<T: SCDigit, O: SCDigit>: SCAnyNode {
  private(set) var deps: [Int: any SCAnyNode] = [:]
  var index: Int { T.value * 10 + O.value }
  func attach(_ dependency: any SCAnyNode) { deps[dependency.index] = dependency }
}

enum SCNodeLifetime: CaseIterable {
  case prototype, objectGraph, perContainer

  var lifetime: DILifetime {
    switch self {
    case .prototype: .prototype
    case .objectGraph: .objectGraph
    case .perContainer: .perContainer(.single)
    }
  }
}

/// A random acyclic graph (edges only go to higher node numbers), its registration and a
/// model of what resolving it must give.
struct SCRandomGraph {
  let lifetimes: [SCNodeLifetime]
  /// `edges[i]`: the nodes node `i` needs (method injections), each higher than `i`.
  let edges: [[Int]]
  /// The nodes to resolve, in order, one request each.
  let requests: [Int]

  init(lifetimes: [SCNodeLifetime], edges: [[Int]], requests: [Int]) {
    self.lifetimes = lifetimes
    self.edges = edges
    self.requests = requests
  }

  init(seed: UInt64) {
    var random = SeededRandom(seed: seed)
    let count = Int.random(in: 20...60, using: &random)
    lifetimes = (0..<count).map { _ in SCNodeLifetime.allCases.randomElement(using: &random)! }
    edges = (0..<count).map { node in
      let later = Array((node + 1)..<count)
      let wanted = min(later.count, Int.random(in: 0...3, using: &random))
      return Array(later.shuffled(using: &random).prefix(wanted)).sorted()
    }
    var requests = (0..<8).map { _ in Int.random(in: 0..<(count / 2), using: &random) }
    requests.append(requests[0])  // at least one node is asked for twice
    self.requests = requests
  }

  func register(in container: DIContainer) {
    for node in lifetimes.indices {
      Self.register(
        scDigit(node / 10), scDigit(node % 10), lifetime: lifetimes[node].lifetime,
        needs: edges[node], in: container)
    }
  }

  private static func register<T: SCDigit, O: SCDigit>(
    _: T.Type, _: O.Type, lifetime: DILifetime, needs: [Int], in container: DIContainer
  ) {
    var builder = container.register { SCNode<T, O>() }.lifetime(lifetime)
    for dependency in needs {
      builder = addEdge(builder, scDigit(dependency / 10), scDigit(dependency % 10))
    }
  }

  private static func addEdge<Node: SCAnyNode, DT: SCDigit, DO: SCDigit>(
    _ builder: DIComponentBuilder<Node>, _: DT.Type, _: DO.Type
  ) -> DIComponentBuilder<Node> {
    builder.injection { (node: Node, dependency: SCNode<DT, DO>) in node.attach(dependency) }
  }

  static func resolve(_ node: Int, from container: DIContainer) throws(DIError) -> any SCAnyNode {
    try resolve(scDigit(node / 10), scDigit(node % 10), from: container)
  }

  private static func resolve<T: SCDigit, O: SCDigit>(
    _: T.Type, _: O.Type, from container: DIContainer
  ) throws(DIError) -> any SCAnyNode {
    let node: SCNode<T, O> = try container.tryResolve()
    return node
  }
}

/// The instances resolving the graph must make: `.perContainer` once per container,
/// `.objectGraph` once per request, `.prototype` at every need.
struct SCGraphModel {
  struct Instance {
    let node: Int
    var deps: [Int: Int] = [:]
  }

  let graph: SCRandomGraph
  private(set) var instances: [Instance] = []
  private var cached: [Int: Int] = [:]

  init(_ graph: SCRandomGraph) { self.graph = graph }

  /// One request for `node`: the model instance it returns.
  mutating func resolve(_ node: Int) -> Int {
    var requestGraph: [Int: Int] = [:]
    return make(node, &requestGraph)
  }

  private mutating func make(_ node: Int, _ requestGraph: inout [Int: Int]) -> Int {
    switch graph.lifetimes[node] {
    case .perContainer: if let id = cached[node] { return id }
    case .objectGraph: if let id = requestGraph[node] { return id }
    case .prototype: break
    }
    let id = instances.count
    instances.append(Instance(node: node))
    switch graph.lifetimes[node] {
    case .perContainer: cached[node] = id
    case .objectGraph: requestGraph[node] = id
    case .prototype: break
    }
    for dependency in graph.edges[node] {
      instances[id].deps[dependency] = make(dependency, &requestGraph)
    }
    return id
  }
}

/// Matches real objects with model instances one to one.
struct SCGraphMatcher {
  let model: SCGraphModel
  private var modelOf: [ObjectIdentifier: Int] = [:]
  private var objectOf: [Int: ObjectIdentifier] = [:]
  private(set) var problems: [String] = []

  init(model: SCGraphModel) { self.model = model }

  mutating func match(_ object: any SCAnyNode, _ id: Int, request: Int) {
    let key = ObjectIdentifier(object)
    let expected = model.instances[id]
    let lifetime = model.graph.lifetimes[expected.node]
    if let known = modelOf[key] {
      if known != id {
        problems.append(
          "request \(request): one node \(expected.node) object (\(lifetime)) is shared where the model makes two"
        )
      }
      return
    }
    if objectOf[id] != nil {
      problems.append(
        "request \(request): node \(expected.node) (\(lifetime)) should be one instance, got two")
      return
    }
    modelOf[key] = id
    objectOf[id] = key
    guard object.index == expected.node else {
      problems.append(
        "request \(request): node \(expected.node) is an object of node \(object.index)")
      return
    }
    let got = Set(object.deps.keys)
    guard got == Set(expected.deps.keys) else {
      problems.append(
        "request \(request): node \(expected.node) got dependencies \(got.sorted()), expected \(expected.deps.keys.sorted())"
      )
      return
    }
    for (dependency, dependencyID) in expected.deps {
      match(object.deps[dependency]!, dependencyID, request: request)
    }
  }
}

@Suite struct RandomGraphTests {
  @Test(arguments: [1, 2, 3, 42, 1_234, 9_001, 31_337, 65_536] as [UInt64])
  func randomAcyclicGraphResolvesAsTheLifetimeModelSays(seed: UInt64) async throws {
    let graph = SCRandomGraph(seed: seed)
    let (validation, problems) = try await Self.check(graph, "seed \(seed)")
    #expect(
      validation == nil, "seed \(seed): validation rejected an acyclic graph: \(validation ?? "")")
    #expect(
      problems.isEmpty,
      "seed \(seed) (\(graph.lifetimes.count) nodes): \(problems.count) problems, first: \(problems.prefix(3))"
    )
  }

  @Test func objectGraphInstanceIsSharedWithinARequestButNotWithACachedOneFromAnEarlierRequest()
    async throws
  {
    // 0 (prototype) needs 1 (objectGraph) and 2 (perContainer); 2 needs 1.
    let graph = SCRandomGraph(
      lifetimes: [.prototype, .objectGraph, .perContainer], edges: [[1, 2], [], [1]],
      requests: [0, 0])
    let (validation, problems) = try await Self.check(graph, "fixed graph")
    #expect(validation == nil)
    #expect(problems.isEmpty, "\(problems)")

    let container = DIContainer()
    graph.register(in: container)
    let first = try SCRandomGraph.resolve(0, from: container)
    let second = try SCRandomGraph.resolve(0, from: container)
    let firstShared = try #require(first.deps[1])
    let firstCached = try #require(first.deps[2])
    let secondShared = try #require(second.deps[1])
    let secondCached = try #require(second.deps[2])
    #expect(first !== second, "a prototype was shared")
    #expect(firstCached === secondCached, "a per-container instance was made twice")
    #expect(firstCached.deps[1] === firstShared, "one request made two objectGraph instances")
    #expect(secondShared !== firstShared, "two requests shared an objectGraph instance")
    #expect(secondCached.deps[1] === firstShared, "the cached instance lost its dependency")
  }

  /// Registers `graph`, validates it and resolves its requests on an 8 MiB thread; returns
  /// the validation report (nil when valid) and every difference from the model.
  static func check(_ graph: SCRandomGraph, _ name: String) async throws
    -> (validation: String?, problems: [String])
  {
    let found = LockedValue<(validation: String?, problems: [String])?>(nil)
    let finished = await runOnThread(timeout: TestEnvironment.limit(10)) {
      let container = DIContainer()
      graph.register(in: container)
      var validation: String?
      do throws(DIGraphValidationError) {
        try container.makeGraph().validate()
      } catch {
        validation = error.description
      }
      var model = SCGraphModel(graph)
      var results: [(object: any SCAnyNode, model: Int)] = []
      var problems: [String] = []
      for (number, node) in graph.requests.enumerated() {
        let expected = model.resolve(node)
        do throws(DIError) {
          results.append((try SCRandomGraph.resolve(node, from: container), expected))
        } catch {
          problems.append("request \(number) for node \(node) failed: \(scBrief(error))")
        }
      }
      var matcher = SCGraphMatcher(model: model)
      for (number, result) in results.enumerated() {
        matcher.match(result.object, result.model, request: number)
      }
      problems += matcher.problems
      found.withLock { $0 = (validation, problems) }
    }
    try #require(finished, "\(name): resolving a random acyclic graph did not finish")
    return try #require(found.current)
  }
}
