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
    let (loose, clusters) = frameworkGroups()
    var text = "digraph DIContainer {\n"
    text += "  rankdir=LR;\n"
    text += "  node [shape=box, fontname=\"Helvetica\"];\n"
    text += "  edge [fontname=\"Helvetica\", fontsize=10];\n"
    func node(_ component: Component, indent: String) -> String {
      let label =
        Self.dotEscaped(component.name) + "\\n" + component.lifetime.name
        + (component.isAsync ? " (async)" : "")
      return "\(indent)c\(component.id) [label=\"\(label)\"];\n"
    }
    for component in loose { text += node(component, indent: "  ") }
    for (index, (framework, members)) in clusters.enumerated() {
      text += "  subgraph cluster_\(index) {\n"
      text += "    label=\"\(Self.dotEscaped(framework.name))\";\n"
      text += "    style=rounded;\n"
      for component in members { text += node(component, indent: "    ") }
      text += "  }\n"
    }
    for edge in edges where !edge.targets.isEmpty {
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
      if let tag = edge.tag { attributes.append("label=\"\(Self.dotEscaped("\(tag)"))\"") }
      let suffix = attributes.isEmpty ? "" : " [\(attributes.joined(separator: ", "))]"
      for target in edge.targets { text += "  c\(edge.from) -> c\(target)\(suffix);\n" }
    }
    text += "}\n"
    return text
  }

  /// `text` inside a DOT double-quoted string.
  private static func dotEscaped(_ text: String) -> String {
    var escaped = ""
    for character in text {
      switch character {
      case "\"": escaped += "\\\""
      case "\\": escaped += "\\\\"
      case "\n": escaped += "\\n"
      default: escaped.append(character)
      }
    }
    return escaped
  }
}
