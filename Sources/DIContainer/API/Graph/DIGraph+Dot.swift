extension DIGraph {
  /// The graph as Graphviz DOT text: one box per component labelled with its type and
  /// lifetime, one cluster per framework, one arrow per dependency.
  ///
  /// Arrows: optional dependencies dashed, delayed ones (`Lazy`, `Provider`) dotted,
  /// `many` ones bold, `cycle: true` injections with an empty head; a tag labels its
  /// arrow. Runtime arguments and dependencies with no chosen candidate draw nothing.
  /// The text depends only on the graph (registration order), so it can be compared in
  /// tests and diffed in review.
  ///
  /// - Returns: A `digraph`, ready for `dot -Tsvg`.
  ///
  /// ```swift
  /// try container.makeGraph().dot().write(toFile: "graph.dot", atomically: true, encoding: .utf8)
  /// // dot -Tsvg graph.dot -o graph.svg
  /// ```
  @discardableResult
  public func dot() -> String {
    drawn(in: DotSyntax())
  }
}

/// Graphviz DOT: boxes in rounded clusters, styled arrows.
private struct DotSyntax: GraphSyntax {
  var header: String {
    "digraph DIContainer {\n" + "  rankdir=LR;\n"
      + "  node [shape=box, fontname=\"Helvetica\"];\n"
      + "  edge [fontname=\"Helvetica\", fontsize=10];\n"
  }
  var lineBreak: String { "\\n" }
  var clusterEnd: String { "  }\n" }
  var footer: String { "}\n" }
  /// Inside a DOT double-quoted string.
  static let escapes: [Character: String] = ["\"": "\\\"", "\\": "\\\\", "\n": "\\n"]

  func node(_ component: DIGraph.Component, label: String, indent: String) -> String {
    "\(indent)c\(component.id) [label=\"\(label)\"];\n"
  }

  func clusterStart(_ index: Int, name: String) -> String {
    "  subgraph cluster_\(index) {\n" + "    label=\"\(escaped(name))\";\n"
      + "    style=rounded;\n"
  }

  func arrows(_ edge: DIGraph.Edge) -> String {
    var attributes: [String] = []
    var styles: [String] = []
    if edge.modifiers.contains(.delayed) {
      styles.append("dotted")
    } else if edge.modifiers.contains(.optional) {
      styles.append("dashed")
    }
    if edge.isMany { styles.append("bold") }
    if !styles.isEmpty { attributes.append("style=\"\(styles.joined(separator: ","))\"") }
    if edge.modifiers.contains(.cycle) { attributes.append("arrowhead=empty") }
    if let tag = edge.tag { attributes.append("label=\"\(escaped("\(tag)"))\"") }
    let suffix = attributes.isEmpty ? "" : " [\(attributes.joined(separator: ", "))]"
    var text = ""
    for target in edge.targets { text += "  c\(edge.from) -> c\(target)\(suffix);\n" }
    return text
  }
}
