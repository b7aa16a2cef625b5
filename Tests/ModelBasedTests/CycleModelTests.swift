import DIContainer
import DITestSupport
import Dispatch
import Foundation
import Testing

// Random graphs of at most seven components that may loop, through initializer parameters,
// property and method injections (`cycle: true` or not), optionals, `Lazy` and `Provider`,
// with `.prototype`, `.objectGraph`, `.perContainer(.single)` and `.scoped` components.
//
// The model follows SPEC.md:
// - `.objectGraph`: "one instance within one `resolve` call"; `.perContainer`: one per
//   container; `.scoped`: one per request scope; `.prototype`: "a new instance at every
//   request" (every need).
// - `.injection(cycle: true, …)` "breaks a cycle: done after the graph is built"; an
//   initializer parameter is needed before its object exists; `Lazy`/`Provider` create
//   only at `.value` and "keep the object graph they were made in".
// - So a loop of initializer parameters cannot be built whatever the lifetimes (the object
//   is needed before it exists), and a loop of `.prototype` components only cannot be
//   built either (every need makes a new object, without end). Every other loop is built by
//   postponing the `cycle: true` injections. "A cycle that cannot be built is an error
//   naming the loop once, never a stack overflow, and never confused with depth."
// - `postInit` runs "after every injection, cyclic ones included".
// - Validation finds "cycles that cannot be built (by exactly the rule resolution follows)".
//
// Left out, as the SPEC does not say: a loop through an injection without `cycle: true`
// (such an edge is only generated between components that are not on a common loop), and
// whether a `Lazy` whose target cannot be built fails where it is injected (requests that
// reach such a `Lazy` are not made).

// MARK: - Nodes

/// What a node received for one dependency.
enum RMDependency {
  case object(any RMAnyCycleNode)
  /// An optional dependency that was nil.
  case none
  case delayed(RMDelayed)
}

/// A `Lazy` or `Provider` a node received.
struct RMDelayed {
  let isLazy: Bool
  let read: () -> Result<any RMAnyCycleNode, DIError>
  /// `lazy.clear()` (nothing for a `Provider`).
  var clear: () -> Void = {}
}

/// A node of a random graph, whatever its type.
protocol RMAnyCycleNode: AnyObject {
  /// The node's number in the graph.
  var index: Int { get }
  /// What it received for its dependency on node `target`, if anything.
  func dependency(on target: Int) -> RMDependency?
  /// How many times its `postInit` ran.
  var postInitCalls: Int { get }
  /// Whether every dependency was there when `postInit` ran.
  var postInitSawAll: Bool { get }
}

/// Node `D` of a random graph; `c0`…`c9` are the properties that key-path injections set.
final class RMNode<D: RMDigit>: RMAnyCycleNode {
  var c0: RMNode<RMD0>?
  var c1: RMNode<RMD1>?
  var c2: RMNode<RMD2>?
  var c3: RMNode<RMD3>?
  var c4: RMNode<RMD4>?
  var c5: RMNode<RMD5>?
  var c6: RMNode<RMD6>?
  var c7: RMNode<RMD7>?
  var c8: RMNode<RMD8>?
  var c9: RMNode<RMD9>?
  private var received: [Int: RMDependency]
  private(set) var postInitCalls = 0
  private(set) var postInitSawAll = true

  init(received: [Int: RMDependency] = [:]) { self.received = received }

  var index: Int { D.value }

  func receive(_ target: Int, _ dependency: RMDependency) { received[target] = dependency }

  func dependency(on target: Int) -> RMDependency? {
    if let dependency = received[target] { return dependency }
    return slot(target).map { .object($0) }
  }

  private func slot(_ target: Int) -> (any RMAnyCycleNode)? {
    switch target {
    case 0: c0
    case 1: c1
    case 2: c2
    case 3: c3
    case 4: c4
    case 5: c5
    case 6: c6
    case 7: c7
    case 8: c8
    case 9: c9
    default: nil
    }
  }

  func notePostInit(expecting targets: [Int]) {
    postInitCalls += 1
    if !targets.allSatisfy({ dependency(on: $0) != nil }) { postInitSawAll = false }
  }
}

/// A parameter type the resolver fills: a node, an optional node, a `Lazy` or a `Provider`.
protocol RMEdgeValue: SendableMetatype {
  var rmDependency: RMDependency { get }
}

extension RMNode: RMEdgeValue {
  var rmDependency: RMDependency { .object(self) }
}

extension Optional: RMEdgeValue where Wrapped: RMAnyCycleNode & RMEdgeValue {
  var rmDependency: RMDependency { map { .object($0) } ?? .none }
}

extension Lazy: RMEdgeValue where T: RMAnyCycleNode {
  var rmDependency: RMDependency {
    .delayed(
      RMDelayed(
        isLazy: true,
        read: {
          do throws(DIError) {
            return .success(try self.tryValue())
          } catch {
            return .failure(error)
          }
        }, clear: { self.clear() }))
  }
}

extension Provider: RMEdgeValue where T: RMAnyCycleNode {
  var rmDependency: RMDependency {
    .delayed(
      RMDelayed(isLazy: false) {
        do throws(DIError) {
          return .success(try self.tryValue())
        } catch {
          return .failure(error)
        }
      })
  }
}

// MARK: - Graph

enum RMCycleLifetime: CaseIterable, CustomStringConvertible {
  case prototype, objectGraph, perContainer, scoped

  var lifetime: DILifetime {
    switch self {
    case .prototype: .prototype
    case .objectGraph: .objectGraph
    case .perContainer: .perContainer(.single)
    case .scoped: .scoped
    }
  }

  var description: String {
    switch self {
    case .prototype: "P"
    case .objectGraph: "G"
    case .perContainer: "C"
    case .scoped: "S"
    }
  }
}

/// One dependency of a node.
struct RMEdge: CustomStringConvertible {
  enum Position {
    /// An initializer parameter.
    case initializer
    /// An injection without `cycle: true`.
    case injection
    /// An injection with `cycle: true`.
    case cycleInjection
  }

  enum Form {
    case plain, optional, lazy, provider
  }

  let target: Int
  var position: Position
  let form: Form
  /// A key-path injection (`c0`…`c9`, optional properties) rather than a method one.
  let byKeyPath: Bool

  /// Followed while the request builds its graph (not a `Lazy` or `Provider`).
  var isEager: Bool { form == .plain || form == .optional }

  var description: String {
    let position =
      switch position {
      case .initializer: "init"
      case .injection: byKeyPath ? "kp" : "inj"
      case .cycleInjection: byKeyPath ? "kp(cycle)" : "inj(cycle)"
      }
    let form =
      switch form {
      case .plain: ""
      case .optional: "?"
      case .lazy: " Lazy"
      case .provider: " Provider"
      }
    return "\(position)\(form)→\(target)"
  }
}

/// What a request for a node must give.
enum RMCycleExpectation: Equatable {
  case succeeds
  /// A loop that cannot be built is reached while the graph is built.
  case failsWithCycle
  /// Only a `Lazy`/`Provider` leads to such a loop: the SPEC does not say when that fails.
  case unspecified
}

/// A random graph that may loop.
struct RMCycleGraph: CustomStringConvertible {
  let lifetimes: [RMCycleLifetime]
  let edges: [[RMEdge]]

  var count: Int { lifetimes.count }

  init(lifetimes: [RMCycleLifetime], edges: [[RMEdge]]) {
    self.lifetimes = lifetimes
    var edges = edges
    // An injection without `cycle: true` on a loop: the SPEC does not say when it runs.
    let components = Self.stronglyConnected(
      count: lifetimes.count, edges.map { $0.filter(\.isEager).map(\.target) })
    for node in edges.indices {
      for index in edges[node].indices
      where edges[node][index].position == .injection && edges[node][index].isEager
        && components[node] == components[edges[node][index].target]
      {
        edges[node][index].position = .cycleInjection
      }
    }
    self.edges = edges
  }

  init(seed: UInt64) {
    var random = SeededRandom(seed: seed)
    let count = random.int(2...7)
    let lifetimes = (0..<count).map { _ -> RMCycleLifetime in
      let roll = random.int(0...99)
      return roll < 35 ? .prototype : roll < 65 ? .objectGraph : roll < 85 ? .perContainer : .scoped
    }
    let edges = (0..<count).map { node -> [RMEdge] in
      var targets = Array(0..<count).shuffled(using: &random)
      if !random.chance(0.15) { targets.removeAll { $0 == node } }
      return targets.prefix(random.int(0...3)).map { target in
        let roll = random.int(0...99)
        switch roll {
        case 0..<30:
          return RMEdge(target: target, position: .initializer, form: .plain, byKeyPath: false)
        case 30..<40:
          return RMEdge(target: target, position: .initializer, form: .optional, byKeyPath: false)
        case 40..<46:
          return RMEdge(target: target, position: .initializer, form: .lazy, byKeyPath: false)
        case 46..<52:
          return RMEdge(target: target, position: .initializer, form: .provider, byKeyPath: false)
        case 52..<67:
          let form: RMEdge.Form = random.pick([.plain, .plain, .optional, .lazy])
          return RMEdge(target: target, position: .cycleInjection, form: form, byKeyPath: false)
        case 67..<79:
          return RMEdge(
            target: target, position: .cycleInjection, form: .optional, byKeyPath: true)
        case 79..<91:
          let form: RMEdge.Form = random.pick([.plain, .optional, .lazy, .provider])
          return RMEdge(target: target, position: .injection, form: form, byKeyPath: false)
        default:
          return RMEdge(target: target, position: .injection, form: .optional, byKeyPath: true)
        }
      }
    }
    self.init(lifetimes: lifetimes, edges: edges)
  }

  var description: String {
    (0..<count).map {
      "\($0)\(lifetimes[$0])[\(edges[$0].map(\.description).joined(separator: ","))]"
    }
    .joined(separator: " ")
  }

  // MARK: Analysis

  /// The strongly connected component of every node (Tarjan's algorithm; small graphs).
  static func stronglyConnected(count: Int, _ adjacency: [[Int]]) -> [Int] {
    var index = 0
    var indices = [Int?](repeating: nil, count: count)
    var lowLinks = [Int](repeating: 0, count: count)
    var onStack = [Bool](repeating: false, count: count)
    var stack: [Int] = []
    var component = [Int](repeating: -1, count: count)
    var components = 0
    func visit(_ node: Int) {
      indices[node] = index
      lowLinks[node] = index
      index += 1
      stack.append(node)
      onStack[node] = true
      for next in adjacency[node] {
        if indices[next] == nil {
          visit(next)
          lowLinks[node] = min(lowLinks[node], lowLinks[next])
        } else if onStack[next] {
          lowLinks[node] = min(lowLinks[node], indices[next]!)
        }
      }
      if lowLinks[node] == indices[node] {
        while let top = stack.popLast() {
          onStack[top] = false
          component[top] = components
          if top == node { break }
        }
        components += 1
      }
    }
    for node in 0..<count where indices[node] == nil { visit(node) }
    return component
  }

  /// The nodes on a loop of `adjacency` (restricted to `allowed`).
  static func nodesOnLoops(count: Int, _ adjacency: [[Int]], allowed: (Int) -> Bool) -> Set<Int> {
    let restricted = (0..<count).map { node in
      allowed(node) ? adjacency[node].filter(allowed) : []
    }
    let component = stronglyConnected(count: count, restricted)
    var sizes: [Int: Int] = [:]
    for node in 0..<count { sizes[component[node], default: 0] += 1 }
    return Set(
      (0..<count).filter { node in
        allowed(node) && (sizes[component[node]]! > 1 || restricted[node].contains(node))
      })
  }

  /// Eager initializer edges: needed before the object exists.
  var initializerAdjacency: [[Int]] {
    edges.map { $0.filter { $0.isEager && $0.position == .initializer }.map(\.target) }
  }

  /// Every edge followed while a request builds its graph.
  var eagerAdjacency: [[Int]] { edges.map { $0.filter(\.isEager).map(\.target) } }

  var allAdjacency: [[Int]] { edges.map { $0.map(\.target) } }

  /// The nodes on a loop that cannot be built: a loop of initializer parameters, or a loop
  /// of `.prototype` components only.
  var unbuildable: Set<Int> {
    Self.nodesOnLoops(count: count, initializerAdjacency) { _ in true }.union(
      Self.nodesOnLoops(count: count, eagerAdjacency) { lifetimes[$0] == .prototype })
  }

  func reach(from node: Int, _ adjacency: [[Int]]) -> Set<Int> {
    var seen: Set<Int> = [node]
    var work = [node]
    while let next = work.popLast() {
      for target in adjacency[next] where seen.insert(target).inserted { work.append(target) }
    }
    return seen
  }

  func expectation(for node: Int) -> RMCycleExpectation {
    let bad = unbuildable
    if !reach(from: node, eagerAdjacency).isDisjoint(with: bad) { return .failsWithCycle }
    if !reach(from: node, allAdjacency).isDisjoint(with: bad) { return .unspecified }
    return .succeeds
  }

  /// Whether resolving `node` (or reading a `Lazy`/`Provider` it holds) makes a `.scoped`
  /// instance, so it must be asked in a request scope.
  func needsScope(_ node: Int) -> Bool {
    reach(from: node, allAdjacency).contains { lifetimes[$0] == .scoped }
  }

  /// The loops that cannot be built and that a request for `node` reaches, each as its
  /// nodes.
  func unbuildableLoops(from node: Int) -> [[Int]] {
    let reached = reach(from: node, eagerAdjacency)
    return Self.simpleLoops(initializerAdjacency, within: reached)
      + Self.simpleLoops(eagerAdjacency, within: reached.filter { lifetimes[$0] == .prototype })
  }

  /// The elementary loops of `adjacency` among `nodes` (each once, from its lowest node).
  static func simpleLoops(_ adjacency: [[Int]], within nodes: Set<Int>) -> [[Int]] {
    var loops: [[Int]] = []
    for start in nodes.sorted() {
      var path = [start]
      func walk(_ node: Int) {
        guard loops.count < 200 else { return }
        for next in adjacency[node] where nodes.contains(next) && next >= start {
          if next == start {
            loops.append(path)
          } else if !path.contains(next) {
            path.append(next)
            walk(next)
            path.removeLast()
          }
        }
      }
      walk(start)
    }
    return loops
  }

  // MARK: Registration

  static func name(_ node: Int) -> String {
    String(describing: RMNodeName.type(node))
  }

  func register(in container: DIContainer) {
    for node in 0..<count { register(rmDigit(node), node: node, in: container) }
  }

  private func register<D: RMDigit>(_: D.Type, node: Int, in container: DIContainer) {
    let parameters = edges[node].filter { $0.position == .initializer }
    let types = parameters.map { rmEdgeType($0.form, to: $0.target) }
    let targets = parameters.map(\.target)
    var builder: DIComponentBuilder<RMNode<D>>
    switch types.count {
    case 0: builder = container.register { RMNode<D>() }
    case 1: builder = Self.register(D.self, types[0], targets, in: container)
    case 2: builder = Self.register(D.self, types[0], types[1], targets, in: container)
    default: builder = Self.register(D.self, types[0], types[1], types[2], targets, in: container)
    }
    builder = builder.lifetime(lifetimes[node].lifetime)
    for edge in edges[node] where edge.position != .initializer {
      let cycle = edge.position == .cycleInjection
      if edge.byKeyPath {
        builder = Self.injectProperty(builder, edge.target, cycle: cycle)
      } else {
        builder = Self.injectMethod(
          builder, rmEdgeType(edge.form, to: edge.target), edge.target, cycle: cycle)
      }
    }
    let all = edges[node].map(\.target)
    builder.postInit { $0.notePostInit(expecting: all) }
  }

  private static func register<D: RMDigit, P1: RMEdgeValue>(
    _: D.Type, _: P1.Type, _ targets: [Int], in container: DIContainer
  ) -> DIComponentBuilder<RMNode<D>> {
    container.register { (p1: P1) in RMNode<D>(received: [targets[0]: p1.rmDependency]) }
  }

  private static func register<D: RMDigit, P1: RMEdgeValue, P2: RMEdgeValue>(
    _: D.Type, _: P1.Type, _: P2.Type, _ targets: [Int], in container: DIContainer
  ) -> DIComponentBuilder<RMNode<D>> {
    container.register { (p1: P1, p2: P2) in
      RMNode<D>(received: [targets[0]: p1.rmDependency, targets[1]: p2.rmDependency])
    }
  }

  private static func register<D: RMDigit, P1: RMEdgeValue, P2: RMEdgeValue, P3: RMEdgeValue>(
    _: D.Type, _: P1.Type, _: P2.Type, _: P3.Type, _ targets: [Int], in container: DIContainer
  ) -> DIComponentBuilder<RMNode<D>> {
    container.register { (p1: P1, p2: P2, p3: P3) in
      RMNode<D>(received: [
        targets[0]: p1.rmDependency, targets[1]: p2.rmDependency, targets[2]: p3.rmDependency,
      ])
    }
  }

  private static func injectMethod<D: RMDigit, P: RMEdgeValue>(
    _ builder: DIComponentBuilder<RMNode<D>>, _: P.Type, _ target: Int, cycle: Bool
  ) -> DIComponentBuilder<RMNode<D>> {
    builder.injection(cycle: cycle) { (node: RMNode<D>, value: P) in
      node.receive(target, value.rmDependency)
    }
  }

  private static func injectProperty<D: RMDigit>(
    _ builder: DIComponentBuilder<RMNode<D>>, _ target: Int, cycle: Bool
  ) -> DIComponentBuilder<RMNode<D>> {
    switch target {
    case 0: builder.injection(cycle: cycle, \.c0)
    case 1: builder.injection(cycle: cycle, \.c1)
    case 2: builder.injection(cycle: cycle, \.c2)
    case 3: builder.injection(cycle: cycle, \.c3)
    case 4: builder.injection(cycle: cycle, \.c4)
    case 5: builder.injection(cycle: cycle, \.c5)
    case 6: builder.injection(cycle: cycle, \.c6)
    case 7: builder.injection(cycle: cycle, \.c7)
    case 8: builder.injection(cycle: cycle, \.c8)
    default: builder.injection(cycle: cycle, \.c9)
    }
  }

  /// Resolves node `node` from `resolver`, plainly or as an optional.
  static func resolve(_ node: Int, from resolver: any DIResolver, optional: Bool)
    -> Result<(any RMAnyCycleNode)?, DIError>
  {
    resolve(rmDigit(node), from: resolver, optional: optional)
  }

  private static func resolve<D: RMDigit>(
    _: D.Type, from resolver: any DIResolver, optional: Bool
  ) -> Result<(any RMAnyCycleNode)?, DIError> {
    do throws(DIError) {
      if optional {
        let node: RMNode<D>? = try resolver.tryResolve()
        return .success(node)
      }
      let node: RMNode<D> = try resolver.tryResolve()
      return .success(node)
    } catch {
      return .failure(error)
    }
  }
}

/// The type of node `node`, for names.
enum RMNodeName {
  static func type(_ node: Int) -> any RMAnyCycleNode.Type {
    func open<D: RMDigit>(_: D.Type) -> any RMAnyCycleNode.Type { RMNode<D>.self }
    return open(rmDigit(node))
  }
}

/// The parameter type of an edge of form `form` to node `target`.
func rmEdgeType(_ form: RMEdge.Form, to target: Int) -> any RMEdgeValue.Type {
  func open<X: RMDigit>(_: X.Type) -> any RMEdgeValue.Type {
    switch form {
    case .plain: RMNode<X>.self
    case .optional: RMNode<X>?.self
    case .lazy: Lazy<RMNode<X>>.self
    case .provider: Provider<RMNode<X>>.self
    }
  }
  return open(rmDigit(target))
}

/// The loop of the minimized tests: `.prototype` head and tail, closed by the head's
/// `cycle: true` property injection.
final class RMLoopHead {
  var tail: RMLoopTail?
}

final class RMLoopTail {
  let head: RMLoopHead
  init(head: RMLoopHead) { self.head = head }
}

/// A `.prototype` component whose `cycle: true` injection needs itself, and one that needs it.
final class RMSelfLoop {
  var next: RMSelfLoop?
}

final class RMLoopOwner {
  let loop: RMSelfLoop
  init(loop: RMSelfLoop) { self.loop = loop }
}

// MARK: - Model

/// The instances the requests must make, per the SPEC's lifetimes.
struct RMCycleModel {
  enum Dependency {
    case instance(Int)
    case delayed(Delayed)
  }

  struct Delayed {
    let isLazy: Bool
    let graph: Int
    let scope: Int?
    let target: Int
    /// A `Lazy`'s value, once read.
    var value: Int?
  }

  struct Instance {
    let node: Int
    var dependencies: [Int: Dependency] = [:]
  }

  let graph: RMCycleGraph
  private(set) var instances: [Instance] = []
  private var perContainer: [Int: Int] = [:]
  private var scoped: [Int: [Int: Int]] = [:]
  /// The `.objectGraph` instances of every request (a `Lazy` reads in its own).
  private var graphs: [[Int: Int]] = []
  /// Nodes whose initializer runs (a model check: such a node is never needed again).
  private var underConstruction: Set<Int> = []
  private(set) var broken: String?

  init(_ graph: RMCycleGraph) { self.graph = graph }

  /// One request for `node` in scope `scope` (nil: the container): the instance it returns.
  mutating func request(_ node: Int, scope: Int?) -> Int {
    graphs.append([:])
    return build(node, graph: graphs.count - 1, scope: scope)
  }

  /// Reads the `Lazy` or `Provider` instance `holder` got for `target`: the instance given.
  mutating func read(_ holder: Int, _ target: Int) -> Int {
    guard case .delayed(var delayed) = instances[holder].dependencies[target] else {
      preconditionFailure("not a delayed dependency")
    }
    if let value = delayed.value { return value }
    let value = build(target, graph: delayed.graph, scope: delayed.scope)
    if delayed.isLazy {
      delayed.value = value
      instances[holder].dependencies[target] = .delayed(delayed)
    }
    return value
  }

  /// `lazy.clear()` on the `Lazy` instance `holder` got for `target`: the next read asks
  /// again.
  mutating func clear(_ holder: Int, _ target: Int) {
    guard case .delayed(var delayed) = instances[holder].dependencies[target] else { return }
    delayed.value = nil
    instances[holder].dependencies[target] = .delayed(delayed)
  }

  /// Makes `node` and then runs the postponed (`cycle: true`) injections, as one request.
  private mutating func build(_ node: Int, graph: Int, scope: Int?) -> Int {
    var postponed: [(instance: Int, edge: RMEdge)] = []
    let made = make(node, graph: graph, scope: scope, postponed: &postponed)
    while !postponed.isEmpty {
      let (instance, edge) = postponed.removeFirst()
      let target = make(edge.target, graph: graph, scope: scope, postponed: &postponed)
      instances[instance].dependencies[edge.target] = .instance(target)
      if instances.count > 5_000 {
        broken = broken ?? "the model made more than 5,000 instances"
        break
      }
    }
    return made
  }

  private mutating func cached(_ node: Int, graph: Int, scope: Int?) -> Int? {
    switch self.graph.lifetimes[node] {
    case .prototype: nil
    case .objectGraph: graphs[graph][node]
    case .perContainer: perContainer[node]
    case .scoped: scope.flatMap { scoped[$0]?[node] }
    }
  }

  private mutating func make(
    _ node: Int, graph: Int, scope: Int?, postponed: inout [(instance: Int, edge: RMEdge)]
  ) -> Int {
    if let id = cached(node, graph: graph, scope: scope) { return id }
    guard broken == nil, instances.count <= 5_000 else {
      broken = broken ?? "the model made more than 5,000 instances"
      return 0
    }
    if !underConstruction.insert(node).inserted, self.graph.lifetimes[node] != .prototype {
      broken = broken ?? "node \(node) is needed while its initializer runs"
    }
    var dependencies: [Int: Dependency] = [:]
    let edges = self.graph.edges[node]
    for edge in edges where edge.position == .initializer {
      dependencies[edge.target] = dependency(edge, graph: graph, scope: scope, &postponed)
    }
    underConstruction.remove(node)
    let id = instances.count
    instances.append(Instance(node: node, dependencies: dependencies))
    switch self.graph.lifetimes[node] {
    case .prototype: break
    case .objectGraph: graphs[graph][node] = id
    case .perContainer: perContainer[node] = id
    case .scoped: scoped[scope ?? -1, default: [:]][node] = id
    }
    for edge in edges where edge.position == .injection {
      instances[id].dependencies[edge.target] = dependency(
        edge, graph: graph, scope: scope, &postponed)
    }
    for edge in edges where edge.position == .cycleInjection {
      if edge.isEager {
        postponed.append((id, edge))
      } else {
        instances[id].dependencies[edge.target] = dependency(
          edge, graph: graph, scope: scope, &postponed)
      }
    }
    return id
  }

  private mutating func dependency(
    _ edge: RMEdge, graph: Int, scope: Int?, _ postponed: inout [(instance: Int, edge: RMEdge)]
  ) -> Dependency {
    if edge.isEager {
      return .instance(make(edge.target, graph: graph, scope: scope, postponed: &postponed))
    }
    return .delayed(
      Delayed(
        isLazy: edge.form == .lazy, graph: graph, scope: scope, target: edge.target, value: nil))
  }
}

/// Matches real objects with model instances one to one.
struct RMCycleMatcher {
  private var pairing = RMPairing()
  private(set) var objectOf: [Int: any RMAnyCycleNode] = [:]
  private(set) var problems: [String] = []

  mutating func match(
    _ object: any RMAnyCycleNode, _ id: Int, in model: RMCycleModel, _ context: String
  ) {
    let expected = model.instances[id]
    let lifetime = model.graph.lifetimes[expected.node]
    guard
      pairing.pairsNow(
        object, with: id, node: expected.node, described: "\(lifetime)", context,
        problems: &problems)
    else { return }
    objectOf[id] = object
    guard object.index == expected.node else {
      problems.append("\(context): node \(expected.node) is an object of node \(object.index)")
      return
    }
    for (target, dependency) in expected.dependencies.sorted(by: { $0.key < $1.key }) {
      let got = object.dependency(on: target)
      switch (dependency, got) {
      case (.instance(let targetID), .object(let targetObject)?):
        match(targetObject, targetID, in: model, context)
      case (.delayed(let delayed), .delayed(let real)?):
        if delayed.isLazy != real.isLazy {
          problems.append("\(context): node \(expected.node) got the wrong delayed kind")
        }
      case (_, nil):
        problems.append(
          "\(context): node \(expected.node) has no dependency on \(target) (not injected)")
      case (_, .none?):
        problems.append(
          "\(context): node \(expected.node) got nil for its dependency on \(target), which"
            + " can be built")
      default:
        problems.append(
          "\(context): node \(expected.node) got the wrong kind of dependency on \(target)")
      }
    }
  }
}

// MARK: - Tests

@Suite struct CycleModelTests {
  /// Seeds of cases to run again (add the seed a failure printed).
  static let replaySeeds: [UInt64] = [0x5EED]

  /// What a request must give, which `Lazy`/`Provider` values, which instances (identity,
  /// dependencies, `postInit`), which error code; and what validation must find.
  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func randomLoopsResolveOrFailAsTheLifetimeModelSays() async {
    await rmRunCases("cycles", base: 0xC1C1_E5, cases: TestEnvironment.rounds(300)) {
      Self.check(seed: $0, errorText: false)
    }
  }

  /// The text of the error of a loop that cannot be built names what was asked and the loop.
  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func randomUnbuildableLoopsAreReportedNamingTheRequestAndTheLoop() async {
    await rmRunCases("cycle errors", base: 0xC1C1_E5, cases: TestEnvironment.rounds(300)) {
      Self.check(seed: $0, errorText: true)
    }
  }

  /// Two threads resolve nodes of one graph at once: each succeeds (a loop is detected
  /// exactly, "on any thread"), unless the two wait for each other's cached instances, which
  /// the SPEC makes a `DIError` ("a loop between tasks is a `DIError`"); no deadlock, no
  /// other error, and the two share the `.perContainer` and `.scoped` instances.
  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func randomLoopsResolvedOnTwoThreadsAtOnceShareCachedInstances() async {
    await rmRunCases(
      "cycles on two threads", base: 0x2C1C, cases: TestEnvironment.rounds(150), seconds: 120
    ) { Self.checkTwoThreads(seed: $0) }
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)), arguments: replaySeeds)
  func replayedCase(seed: UInt64) async {
    let problems = await resultOnThread(20) {
      Self.check(seed: seed, errorText: false) + Self.check(seed: seed, errorText: true)
    }
    #expect(problems == [], "\(rmSeed(seed))")
  }

  /// Registers the graph of `seed`, validates it, makes the requests the model says succeed
  /// in one container (and reads their `Lazy`/`Provider` values), and those it says fail in
  /// fresh containers; returns every difference from the model. With `errorText`, makes
  /// only the failing requests, and checks their errors' text.
  static func check(seed: UInt64, errorText: Bool) -> [String] {
    let graph = RMCycleGraph(seed: seed)
    var random = SeededRandom(seed: seed ^ 0xA5A5)
    var problems: [String] = []
    let label = "graph \(graph)"

    // Validation and resolution follow one rule.
    if !errorText {
      let container = DIContainer()
      graph.register(in: container)
      let found = container.makeGraph().findProblems().contains {
        $0.kind == .cycle && $0.severity == .error
      }
      if found != !graph.unbuildable.isEmpty {
        problems.append(
          "\(label): validation \(found ? "reports" : "does not report") a cycle that cannot be"
            + " built; the model says unbuildable nodes are \(graph.unbuildable.sorted())")
      }
    }

    let nodes = Array(0..<graph.count)
    let good = nodes.filter { graph.expectation(for: $0) == .succeeds }
    let bad = nodes.filter { graph.expectation(for: $0) == .failsWithCycle }

    // The requests that succeed, in one container, two scopes.
    if !good.isEmpty, !errorText {
      let container = DIContainer()
      graph.register(in: container)
      let scopes = [container.makeScope(), container.makeScope()]
      var model = RMCycleModel(graph)
      var matcher = RMCycleMatcher()
      var kept: [any RMAnyCycleNode] = []
      for number in 0..<6 {
        let node = random.pick(good)
        let scope: Int? = graph.needsScope(node) ? random.int(0...1) : random.pick([nil, 0, 1])
        let resolver: any DIResolver = scope.map { scopes[$0] } ?? container
        let optional = random.chance(0.3)
        let context =
          "\(label), request \(number) for \(node)\(optional ? "?" : "") in "
          + (scope.map { "scope \($0)" } ?? "the container")
        let first = model.instances.count
        let expected = model.request(node, scope: scope)
        if let broken = model.broken {
          problems.append("\(context): model inconsistency: \(broken)")
          return problems
        }
        switch RMCycleGraph.resolve(node, from: resolver, optional: optional) {
        case .failure(let error):
          problems.append("\(context): failed: \(rmBrief(error))")
          continue
        case .success(nil):
          problems.append("\(context): nil, but it can be built")
          continue
        case .success(let object?):
          kept.append(object)
          matcher.match(object, expected, in: model, context)
        }
        // Read the `Lazy`/`Provider` values of the instances this request made, twice each.
        for holder in first..<model.instances.count {
          for (target, dependency) in model.instances[holder].dependencies.sorted(by: {
            $0.key < $1.key
          }) {
            guard case .delayed(let delayed) = dependency, !graph.needsScope(target),
              let real = matcher.objectOf[holder],
              case .delayed(let handle)? = real.dependency(on: target)
            else { continue }
            let readContext =
              "\(context), \(delayed.isLazy ? "Lazy" : "Provider") of \(holder)→\(target)"
            var values: [any RMAnyCycleNode] = []
            for _ in 0..<2 {
              let expectedValue = model.read(holder, target)
              switch handle.read() {
              case .failure(let error):
                problems.append("\(readContext): value failed: \(rmBrief(error))")
              case .success(let value):
                values.append(value)
                kept.append(value)
                matcher.match(value, expectedValue, in: model, readContext)
              }
            }
            if delayed.isLazy, values.count == 2, values[0] !== values[1] {
              problems.append("\(readContext): a Lazy gave two objects")
            }
            // `lazy.clear()` "makes the next `.value` ask again (a cached lifetime still
            // answers with its cached instance)".
            if delayed.isLazy, random.chance(0.5) {
              handle.clear()
              model.clear(holder, target)
              let expectedValue = model.read(holder, target)
              switch handle.read() {
              case .failure(let error):
                problems.append("\(readContext): value after clear() failed: \(rmBrief(error))")
              case .success(let value):
                kept.append(value)
                matcher.match(value, expectedValue, in: model, readContext + " after clear()")
              }
            }
          }
        }
      }
      problems += matcher.problems
      for (id, object) in matcher.objectOf.sorted(by: { $0.key < $1.key }) {
        if object.postInitCalls != 1 {
          problems.append(
            "\(label): postInit of node \(object.index) (instance \(id)) ran"
              + " \(object.postInitCalls) times")
        } else if !object.postInitSawAll {
          problems.append(
            "\(label): postInit of node \(object.index) ran before all its injections")
        }
      }
      withExtendedLifetime(kept) {}
      for scope in scopes { scope.close() }
    }

    // The requests that fail: each in a fresh container, so nothing is cached before.
    for node in bad.shuffled(using: &random).prefix(3) {
      let container = DIContainer()
      graph.register(in: container)
      let scope = graph.needsScope(node) ? container.makeScope() : nil
      let optional = random.chance(0.3)
      let context = "\(label), failing request for \(node)\(optional ? "?" : "")"
      switch RMCycleGraph.resolve(node, from: scope ?? container, optional: optional) {
      case .success(nil):
        problems.append("\(context): nil (a loop that cannot be built is an error)")
      case .success:
        problems.append("\(context): resolved, but the model says it cannot be built")
      case .failure(let error) where error.code != .cycle:
        problems.append(
          "\(context): expected a .cycle error, got .\(error.code): \(rmBrief(error))")
      case .failure(let error):
        if errorText {
          problems += Self.checkCycleErrorText(error, node: node, graph: graph, context)
        }
      }
      scope?.close()
    }
    return problems
  }

  // MARK: Minimized from the random cases

  /// A loop of `.prototype` components closed by a `cycle: true` injection cannot be built
  /// (every turn makes new objects): an error "naming the loop", whose text gives "what was
  /// asked, the path of the resolution". Asked for the tail, the error must name the tail;
  /// either way it must name both components of the loop. Minimized from
  /// `randomUnbuildableLoopsAreReportedNamingTheRequestAndTheLoop`, seed 0xc39e8872ecbb96de
  /// (graph `0P[kp(cycle)?→3,…] 3P[init→0,…]`).
  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)), arguments: [false, true])
  func unbuildableLoopThroughACycleInjectionIsReportedNamingTheRequestAndTheLoop(
    askTail: Bool
  ) {
    let container = DIContainer()
    container.register(RMLoopHead.init).injection(cycle: true, \.tail)
    container.register(RMLoopTail.init)
    let asked = askTail ? "RMLoopTail" : "RMLoopHead"
    do throws(DIError) {
      if askTail {
        let _: RMLoopTail = try container.tryResolve()
      } else {
        let _: RMLoopHead = try container.tryResolve()
      }
      Issue.record("an unbuildable loop resolved")
    } catch {
      #expect(error.code == .cycle)
      let text = rmUnqualified(error.description)
      #expect(text.contains("Cannot resolve \(asked)"), "what was asked: \(text)")
      #expect(
        text.contains("RMLoopHead") && text.contains("RMLoopTail"), "the loop: \(text)")
    }
  }

  /// The same loop below the component asked for: the error's path starts at what was
  /// asked. Minimized from seed 0x73c04676ce631ab4 (graph `… 3P[kp(cycle)?→3] 4P[init→3,…]`).
  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func unbuildableLoopBelowTheRequestIsReportedWithThePathFromTheRequest() {
    let container = DIContainer()
    container.register(RMLoopOwner.init)
    container.register(RMSelfLoop.init).injection(cycle: true, \.next)
    do throws(DIError) {
      let _: RMLoopOwner = try container.tryResolve()
      Issue.record("an unbuildable loop resolved")
    } catch {
      #expect(error.code == .cycle)
      let text = rmUnqualified(error.description)
      #expect(text.contains("Cannot resolve RMLoopOwner"), "what was asked: \(text)")
      #expect(text.contains("RMLoopOwner → RMSelfLoop"), "the path: \(text)")
    }
  }

  static func checkTwoThreads(seed: UInt64) -> [String] {
    let graph = RMCycleGraph(seed: seed)
    var random = SeededRandom(seed: seed ^ 0x7777)
    let good = (0..<graph.count).filter { graph.expectation(for: $0) == .succeeds }
    guard !good.isEmpty else { return [] }
    let nodes = [random.pick(good), random.pick(good)]
    let container = DIContainer()
    graph.register(in: container)
    let scope = container.makeScope()
    defer { scope.close() }
    let resolver: any DIResolver = nodes.contains(where: graph.needsScope) ? scope : container
    let label = "graph \(graph), \(nodes) on two threads"
    let results = LockedValue<[Int: Result<(any RMAnyCycleNode)?, DIError>]>([:])
    let start = DispatchSemaphore(value: 0)
    let done = DispatchSemaphore(value: 0)
    for worker in 0..<2 {
      let thread = Thread {
        start.wait()
        let result = RMCycleGraph.resolve(nodes[worker], from: resolver, optional: false)
        results.withLock { $0[worker] = result }
        done.signal()
      }
      thread.stackSize = 8 << 20
      thread.start()
    }
    start.signal()
    start.signal()
    for _ in 0..<2 {
      if done.wait(timeout: .now() + TestEnvironment.limit(10)) == .timedOut {
        return ["\(label): the requests did not finish (a deadlock?)"]
      }
    }
    var problems: [String] = []
    var roots: [any RMAnyCycleNode] = []
    for (worker, result) in results.current.sorted(by: { $0.key < $1.key }) {
      switch result {
      case .success(let node?): roots.append(node)
      case .success(nil): problems.append("\(label): thread \(worker) got nil")
      case .failure(let error) where rmIsWaitLoop(error):
        // "A loop between tasks is a `DIError`": each request made a cached instance the
        // other one's postponed work needs, and neither may take a half-built one.
        continue
      case .failure(let error):
        problems.append("\(label): thread \(worker) failed: \(rmBrief(error))")
      }
    }
    // Every object the two graphs hold, each once.
    var objects: [ObjectIdentifier: any RMAnyCycleNode] = [:]
    var work = roots
    while let object = work.popLast() {
      guard objects.updateValue(object, forKey: ObjectIdentifier(object)) == nil else { continue }
      for edge in graph.edges[object.index] {
        if case .object(let next)? = object.dependency(on: edge.target) { work.append(next) }
      }
    }
    var cached: [Int: ObjectIdentifier] = [:]
    for (key, object) in objects.sorted(by: { $0.key.hashValue < $1.key.hashValue }) {
      if object.postInitCalls != 1 || !object.postInitSawAll {
        problems.append(
          "\(label): node \(object.index): postInit ran \(object.postInitCalls) times,"
            + " \(object.postInitSawAll ? "after" : "not after") every injection")
      }
      let lifetime = graph.lifetimes[object.index]
      guard lifetime == .perContainer || lifetime == .scoped else { continue }
      if let other = cached.updateValue(key, forKey: object.index), other != key {
        problems.append("\(label): two objects of cached node \(object.index) (\(lifetime))")
      }
    }
    return problems
  }

  /// The text of the error of a loop that cannot be built: it names what was asked and
  /// every component of one such loop.
  static func checkCycleErrorText(
    _ error: DIError, node: Int, graph: RMCycleGraph, _ context: String
  ) -> [String] {
    let text = rmUnqualified(error.description)
    var problems: [String] = []
    if !text.contains(RMCycleGraph.name(node)) {
      problems.append("\(context): the error does not name what was asked: \(rmBrief(error))")
    }
    let loops = graph.unbuildableLoops(from: node)
    if !loops.contains(where: { $0.allSatisfy { text.contains(RMCycleGraph.name($0)) } }) {
      problems.append(
        "\(context): the error names none of the loops \(loops): \(rmBrief(error))")
    }
    return problems
  }
}

/// Whether `error` is the SPEC's "loop between tasks": two requests each waiting for an
/// instance the other one is making (a `.cycle` error that says so).
func rmIsWaitLoop(_ error: DIError) -> Bool {
  error.code == .cycle && error.description.contains("is being made by another thread's request")
}
