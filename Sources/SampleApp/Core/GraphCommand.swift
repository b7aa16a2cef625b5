internal import DIContainer

/// `sample-app graph`: prints the dependency graph, grouped by framework.
enum GraphCommand {
  static let help = """
    usage: sample-app graph [--format text|dot|mermaid]

    Prints every component of the sample's container (container.makeGraph()) with its
    lifetime and what it asks for, grouped by the framework that registered it
    (default format: text).
      dot      Graphviz, frameworks as clusters: sample-app graph --format dot | dot -Tsvg
      mermaid  a Mermaid flowchart, frameworks as subgraphs

    """

  static let formats = ["text", "dot", "mermaid"]

  static func run(_ arguments: inout Arguments) throws(UsageError) -> CommandResult {
    let format = try arguments.value("--format") ?? "text"
    guard formats.contains(format) else {
      throw UsageError(
        "unknown format '\(format)' (formats: \(formats.joined(separator: ", ")))",
        command: "graph")
    }
    try arguments.finish()
    let graph = SampleContainer.make().makeGraph()
    switch format {
    case "dot":
      return CommandResult(status: 0, output: graph.dot())
    case "mermaid":
      return CommandResult(status: 0, output: graph.mermaid())
    default:
      return CommandResult(status: 0, output: text(of: graph))
    }
  }

  /// `Name [lifetime] → what it asks for`, framework by framework.
  static func text(of graph: DIGraph) -> String {
    var text = "Components by framework, in registration order (A [lifetime] → what A asks for):\n"
    let groups: [String?] = [nil] + graph.frameworks.map { $0 }
    for framework in groups {
      let members = graph.components.filter { $0.framework == framework }
      guard !members.isEmpty else { continue }
      text += "\n" + (framework ?? "application (outside every framework)") + "\n"
      for component in members {
        let targets = graph.edges(from: component.id).flatMap(\.targets).map { target in
          let other = graph.components[target]
          guard other.framework != framework else { return other.name }
          return "\(other.name) (\(other.framework ?? "application"))"
        }
        let root = (component.isAsync ? ", async" : "") + (component.isRoot ? ", root" : "")
        let arrow = targets.isEmpty ? "" : " → " + targets.joined(separator: ", ")
        text += "  \(component.name) [\(component.lifetime)\(root)]\(arrow)\n"
      }
    }
    return text
  }
}
