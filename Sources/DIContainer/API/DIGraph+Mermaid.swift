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
    let (loose, clusters) = frameworkGroups()
    var text = "flowchart LR\n"
    func node(_ component: Component, indent: String) -> String {
      let label =
        Self.mermaidEscaped(component.name) + "<br/>" + component.lifetime.name
        + (component.isAsync ? " (async)" : "")
      return "\(indent)c\(component.id)[\"\(label)\"]\n"
    }
    for component in loose { text += node(component, indent: "  ") }
    for (index, (framework, members)) in clusters.enumerated() {
      text += "  subgraph f\(index)[\"\(Self.mermaidEscaped(framework.name))\"]\n"
      for component in members { text += node(component, indent: "    ") }
      text += "  end\n"
    }
    var link = 0
    var dashed: [Int] = []
    for edge in edges where !edge.targets.isEmpty {
      let arrow: String
      if edge.modifiers.contains(.delayed) {
        arrow = "-.->"
      } else if edge.isMany {
        arrow = "==>"
      } else {
        arrow = "-->"
      }
      let label = edge.tag.map { "|\"\(Self.mermaidEscaped("\($0)"))\"|" } ?? ""
      for target in edge.targets {
        text += "  c\(edge.from) \(arrow)\(label) c\(target)\n"
        if edge.modifiers.contains(.optional) && !edge.modifiers.contains(.delayed) {
          dashed.append(link)
        }
        link += 1
      }
    }
    if !dashed.isEmpty {
      let links = dashed.map(String.init).joined(separator: ",")
      text += "  linkStyle \(links) stroke-dasharray: 6 4\n"
    }
    return text
  }

  /// `text` inside a Mermaid double-quoted label.
  private static func mermaidEscaped(_ text: String) -> String {
    var escaped = ""
    for character in text {
      switch character {
      case "\"": escaped += "#quot;"
      case "<": escaped += "#lt;"
      case ">": escaped += "#gt;"
      case "\n": escaped += "<br/>"
      default: escaped.append(character)
      }
    }
    return escaped
  }
}
