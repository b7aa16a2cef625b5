/// The dependency graph of a container: its components and what each of their
/// initializer parameters and injections asks for.
///
/// Made by ``DIContainer/makeGraph()`` from the registrations at that moment; later
/// registrations do not change it. Check it at boot or in a unit test, before the first
/// request finds a missing piece:
///
/// ```swift
/// let graph = container.makeGraph()
/// try graph.validate()              // throws a report listing every problem
/// print(graph.dot())                // Graphviz text; frameworks as clusters
/// ```
///
/// Candidates are chosen as resolution chooses them, with the component's framework as
/// the requester, so a graph that validates resolves.
public struct DIGraph: Sendable {
  /// Every component, in registration order; a component's ``Component/id`` is its index.
  public let components: [Component]
  /// Every parameter and injection dependency, grouped by the component that asks, in
  /// registration order, then parameter order (initializer first, then injections).
  public let edges: [Edge]
  /// `edges[edgeStarts[i]..<edgeStarts[i + 1]]` are the edges of component `i`.
  let edgeStarts: [Int]

  init(components: [Component], edges: [Edge], edgeStarts: [Int]) {
    self.components = components
    self.edges = edges
    self.edgeStarts = edgeStarts
  }

  /// The edges of the component with `id`: what its initializer parameters and injections
  /// ask for, in order.
  ///
  /// - Parameter id: A ``Component/id``.
  /// - Returns: Its edges.
  ///
  /// ```swift
  /// for edge in graph.edges(from: car.id) { print(edge.requested, edge.targets) }
  /// ```
  public func edges(from id: Int) -> ArraySlice<Edge> {
    edges[edgeStarts[id]..<edgeStarts[id + 1]]
  }

  /// Whether any component is marked ``DIComponentBuilder/root()``; then validation
  /// starts from the roots and warns about components no root reaches.
  ///
  /// ```swift
  /// if graph.hasRoots { print("checking from the roots") }
  /// ```
  public var hasRoots: Bool { components.contains(where: \.isRoot) }

  /// The names of the frameworks that registered components, in order of first
  /// registration.
  ///
  /// ```swift
  /// print(graph.frameworks)   // ["CoreFramework", "BillingFramework"]
  /// ```
  public var frameworks: [String] {
    frameworkGroups().clusters.map(\.0.name)
  }

  /// The components registered outside every framework, and each framework (in order of
  /// first appearance) with its components: how the drawings group nodes.
  func frameworkGroups() -> (loose: [Component], clusters: [(DIModuleID, [Component])]) {
    var loose: [Component] = []
    var clusters: [(DIModuleID, [Component])] = []
    var indices: [DIModuleID: Int] = [:]
    for component in components {
      guard let framework = component.registered.framework else {
        loose.append(component)
        continue
      }
      if let known = indices[framework] {
        clusters[known].1.append(component)
      } else {
        indices[framework] = clusters.count
        clusters.append((framework, [component]))
      }
    }
    return (loose, clusters)
  }
}
