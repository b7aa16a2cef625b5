internal import DIContainer

/// `sample-app graph`: prints the dependency graph, grouped by framework.
enum GraphCommand {
  static let help = """
    usage: sample-app graph [--format text|dot|mermaid]

    Prints the components the container builds for the root, OrderPipeline, and what each
    one depends on, grouped by the framework that declares it (default format: text).
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
    let container = SampleContainer.make()
    let root: OrderPipeline
    do throws(DIError) {
      root = try container.tryResolve()
    } catch {
      return CommandResult(status: 1, output: "", errors: "\(error)\n")
    }
    let graph = SampleGraph(root: root)
    switch format {
    case "dot":
      return CommandResult(status: 0, output: graph.dot)
    case "mermaid":
      return CommandResult(status: 0, output: graph.mermaid)
    default:
      let header =
        "Components built for the root OrderPipeline, by framework (A → what A holds):\n\n"
      return CommandResult(status: 0, output: header + graph.text)
    }
  }
}
