/// A text syntax for drawing a ``DIGraph``: what ``DIGraph/drawn(in:)`` writes for each
/// part of its one walk over the graph (``DIGraph/dot()``, ``DIGraph/mermaid()``).
protocol GraphSyntax {
  /// The text before the nodes.
  var header: String { get }
  /// What separates the type from the lifetime in a node's label.
  var lineBreak: String { get }
  /// What stands for each character that cannot stand as itself inside a quoted label.
  static var escapes: [Character: String] { get }
  /// The node of `component` (written `c<id>`), labelled `label`, indented by `indent`.
  func node(_ component: DIGraph.Component, label: String, indent: String) -> String
  /// The line that opens the cluster of the framework named `name`, the `index`th one.
  func clusterStart(_ index: Int, name: String) -> String
  /// The line that closes a cluster.
  var clusterEnd: String { get }
  /// The arrows of `edge`, one per target (there is at least one).
  mutating func arrows(_ edge: DIGraph.Edge) -> String
  /// The text after the arrows.
  var footer: String { get }
}

extension DIGraph {
  /// The graph in `syntax`: one node per component (those of a framework in its cluster,
  /// frameworks in order of first appearance), then one arrow per dependency with a chosen
  /// candidate, in registration order.
  func drawn(in syntax: some GraphSyntax) -> String {
    var syntax = syntax
    let (loose, clusters) = frameworkGroups()
    var text = syntax.header
    func node(_ component: Component, indent: String) -> String {
      let label =
        syntax.escaped(component.name) + syntax.lineBreak + component.lifetime.name
        + (component.isAsync ? " (async)" : "")
      return syntax.node(component, label: label, indent: indent)
    }
    for component in loose { text += node(component, indent: "  ") }
    for (index, (framework, members)) in clusters.enumerated() {
      text += syntax.clusterStart(index, name: framework.name)
      for component in members { text += node(component, indent: "    ") }
      text += syntax.clusterEnd
    }
    for edge in edges where !edge.targets.isEmpty { text += syntax.arrows(edge) }
    return text + syntax.footer
  }
}

extension GraphSyntax {
  /// `text` inside a quoted label: each character of ``escapes`` replaced.
  func escaped(_ text: String) -> String {
    var escaped = ""
    for character in text {
      if let escape = Self.escapes[character] {
        escaped += escape
      } else {
        escaped.append(character)
      }
    }
    return escaped
  }
}
