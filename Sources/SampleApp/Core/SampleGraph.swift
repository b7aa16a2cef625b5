/// The components the container built for the sample's root and what each one holds,
/// read by reflection from the instances themselves, grouped by framework.
///
/// It shows what was built, so it needs the root to resolve; a component reached by no
/// instance (an unused registration) does not appear, and lifetimes are not shown.
struct SampleGraph {
  struct Node: Equatable {
    let name: String
    /// The framework that declares the type, or nil for the application (outside every
    /// framework).
    let framework: String?
  }

  struct Edge: Equatable {
    let from: String
    let to: String
  }

  /// Groups in order: the application, then each framework as the application appends them.
  static let groups: [String?] = [nil] + SampleContainer.frameworks.map(\.name)

  private(set) var nodes: [Node] = []
  private(set) var edges: [Edge] = []

  /// The graph of everything reachable from `root` through stored properties.
  init(root: AnyObject) {
    visit(root)
  }

  private mutating func visit(_ object: AnyObject) {
    let node = Self.node(for: object)
    guard !nodes.contains(node) else { return }
    nodes.append(node)
    for dependency in Mirror(reflecting: object).children.flatMap({ Self.components(in: $0.value) })
    {
      let edge = Edge(from: node.name, to: TypeName.of(dependency))
      if !edges.contains(edge) { edges.append(edge) }
      visit(dependency)
    }
  }

  private static func node(for object: AnyObject) -> Node {
    Node(name: TypeName.of(object), framework: TypeName.framework(of: object))
  }

  /// The sample's objects in a stored property: itself if it is one, or an array's elements.
  private static func components(in value: Any) -> [AnyObject] {
    if type(of: value) is AnyClass {
      let module = TypeName.module(of: value)
      let isSample =
        module == "SampleAppCore" || module == "OrderModel"
        || SampleContainer.frameworks.contains { TypeName.module(ofType: $0.type) == module }
      return isSample ? [value as AnyObject] : []
    }
    let mirror = Mirror(reflecting: value)
    guard mirror.displayStyle == .collection else { return [] }
    return mirror.children.flatMap { components(in: $0.value) }
  }

  private func nodes(in group: String?) -> [Node] {
    nodes.filter { $0.framework == group }
  }

  private static func title(_ group: String?) -> String {
    group ?? "application"
  }

  /// One line per component, `A → B, C (OtherFramework)`, under its framework's name.
  var text: String {
    var text = ""
    for group in Self.groups {
      text += Self.title(group) + (group == nil ? " (outside every framework)" : "") + "\n"
      for node in nodes(in: group) {
        let targets = edges.filter { $0.from == node.name }.map { edge in
          let framework = nodes.first { $0.name == edge.to }?.framework
          return framework == group ? edge.to : "\(edge.to) (\(Self.title(framework)))"
        }
        text += "  \(node.name)" + (targets.isEmpty ? "" : " → ")
        text += targets.joined(separator: ", ") + "\n"
      }
    }
    return text
  }

  /// Graphviz text, one cluster per framework.
  var dot: String {
    var text = "digraph SampleApp {\n  rankdir=LR;\n  node [shape=box];\n"
    for (index, group) in Self.groups.enumerated() {
      text += "  subgraph cluster_\(index) {\n    label=\"\(Self.title(group))\";\n"
      for node in nodes(in: group) { text += "    \"\(node.name)\";\n" }
      text += "  }\n"
    }
    for edge in edges { text += "  \"\(edge.from)\" -> \"\(edge.to)\";\n" }
    return text + "}\n"
  }

  /// A Mermaid flowchart, one subgraph per framework.
  var mermaid: String {
    var text = "flowchart LR\n"
    for group in Self.groups {
      text += "  subgraph \(Self.title(group))\n"
      for node in nodes(in: group) { text += "    \(node.name)\n" }
      text += "  end\n"
    }
    for edge in edges { text += "  \(edge.from) --> \(edge.to)\n" }
    return text
  }
}
