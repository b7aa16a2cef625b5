extension DIGraph {
  /// The graph as a Mermaid flowchart: one node per component labelled with its type and
  /// lifetime, one subgraph per framework, one link per dependency.
  ///
  /// Links: optional dependencies dashed, delayed ones (`Lazy`, `Provider`) dotted
  /// (`-.->`), `many` ones thick (`==>`); a tag labels its link. The text depends only on
  /// the graph (registration order). Paste it in a Markdown ` ```mermaid ` block.
  ///
  /// - Returns: A `flowchart LR`.
  ///
  /// ```swift
  /// print("```mermaid\n" + container.makeGraph().mermaid() + "```")
  /// ```
  @discardableResult
  public func mermaid() -> String {
    drawn(in: MermaidSyntax())
  }
}

/// A Mermaid flowchart: quoted nodes in subgraphs, arrows by kind, dashed links styled
/// at the end by their index.
private struct MermaidSyntax: GraphSyntax {
  /// How many links are drawn so far.
  private var link = 0
  /// The indices of the dashed (optional, not delayed) links.
  private var dashed: [Int] = []

  var header: String { "flowchart LR\n" }
  var lineBreak: String { "<br/>" }
  var clusterEnd: String { "  end\n" }
  /// Inside a Mermaid double-quoted label.
  static let escapes: [Character: String] = [
    "\"": "#quot;", "<": "#lt;", ">": "#gt;", "\n": "<br/>",
  ]

  var footer: String {
    guard !dashed.isEmpty else { return "" }
    let links = dashed.map(String.init).joined(separator: ",")
    return "  linkStyle \(links) stroke-dasharray: 6 4\n"
  }

  func node(_ component: DIGraph.Component, label: String, indent: String) -> String {
    "\(indent)c\(component.id)[\"\(label)\"]\n"
  }

  func clusterStart(_ index: Int, name: String) -> String {
    "  subgraph f\(index)[\"\(escaped(name))\"]\n"
  }

  mutating func arrows(_ edge: DIGraph.Edge) -> String {
    let arrow: String
    if edge.modifiers.contains(.delayed) {
      arrow = "-.->"
    } else if edge.isMany {
      arrow = "==>"
    } else {
      arrow = "-->"
    }
    let label = edge.tag.map { "|\"\(escaped("\($0)"))\"|" } ?? ""
    var text = ""
    for target in edge.targets {
      text += "  c\(edge.from) \(arrow)\(label) c\(target)\n"
      if edge.modifiers.contains(.optional) && !edge.modifiers.contains(.delayed) {
        dashed.append(link)
      }
      link += 1
    }
    return text
  }
}
