import DIContainer
import DIFrameworks
import Dispatch

// Graph validation at scale (issue 6): 10,000 components across 100 frameworks.
//
// Every framework registers `GraphLayer<0>` … `GraphLayer<99>` (the same 100 types in every
// framework, so each request has 100 candidates and modularity picks the asking
// framework's own), in chains of 10 (resolution refuses more than 64 nested builds).
// Each chain head is a root and also asks for the next framework's `GraphApi` (optional:
// the last framework has no next); every component asks for an optional `GraphMissing`
// (no candidate) and for `many` of 10 plugins. About 10,000 components, 30,000 edges and
// 120,000 arcs. The types are made at run time from a successor scheme, so no file
// declares 10,000 classes.

/// A distinct type per index: `GraphZero`, `GraphNext<GraphZero>`, …
protocol GraphMarker: SendableMetatype {
  static var successor: any GraphMarker.Type { get }
}
enum GraphZero: GraphMarker {
  static var successor: any GraphMarker.Type { GraphNext<Self>.self }
}
enum GraphNext<Previous: GraphMarker>: GraphMarker {
  static var successor: any GraphMarker.Type { GraphNext<Self>.self }
}

final class GraphLayer<Position> {
  init(next: AnyObject?) {}
}
final class GraphApi<Framework> {}
protocol GraphPlugin: AnyObject {}
final class GraphPluginImpl<Index>: GraphPlugin {}
final class GraphMissing {}

/// Framework number `Index` of the generated graph.
enum GeneratedFramework<Index: GraphMarker>: DIFramework {
  static func load(container: DIContainer) {
    container.register { GraphApi<Index>() }
    var position: any GraphMarker.Type = GraphZero.self
    for number in 0..<100 {
      register(position, number: number, in: container)
      position = position.successor
    }
  }

  private static func register<Position: GraphMarker>(
    _: Position.Type, number: Int, in container: DIContainer
  ) {
    if number % 10 == 9 {
      container.register { (_: GraphMissing?, _: DIMany<any GraphPlugin>) in
        GraphLayer<Position>(next: nil)
      }
    } else if number % 10 == 0 {
      container.register {
        (
          next: GraphLayer<GraphNext<Position>>, api: GraphApi<GraphNext<Index>>?,
          _: GraphMissing?, _: DIMany<any GraphPlugin>
        ) in
        GraphLayer<Position>(next: api ?? next)
      }
      .root()
    } else {
      container.register {
        (next: GraphLayer<GraphNext<Position>>, _: GraphMissing?, _: DIMany<any GraphPlugin>) in
        GraphLayer<Position>(next: next)
      }
    }
  }
}

/// Builds the 10,000-component container, then times `makeGraph()` + `findProblems()`.
enum GraphValidationBenchmark {
  static func makeContainer() -> DIContainer {
    let container = DIContainer()
    var plugin: any GraphMarker.Type = GraphZero.self
    for _ in 0..<10 {
      registerPlugin(plugin, in: container)
      plugin = plugin.successor
    }
    var framework: any GraphMarker.Type = GraphZero.self
    for _ in 0..<100 {
      append(framework, to: container)
      framework = framework.successor
    }
    return container
  }

  private static func registerPlugin<Index: GraphMarker>(_: Index.Type, in container: DIContainer) {
    container.register { GraphPluginImpl<Index>() }.as((any GraphPlugin).self)
  }

  private static func append<Index: GraphMarker>(_: Index.Type, to container: DIContainer) {
    container.append(framework: GeneratedFramework<Index>.self)
  }

  /// The best of `rounds` runs of makeGraph + findProblems, in milliseconds.
  static func run(rounds: Int = 5) -> (components: Int, edges: Int, problems: Int, ms: Double) {
    let container = makeContainer()
    var best = Double.infinity
    var counts = (components: 0, edges: 0, problems: 0)
    for _ in 0..<rounds {
      let start = DispatchTime.now().uptimeNanoseconds
      let graph = container.makeGraph()
      let problems = graph.findProblems()
      let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
      best = min(best, elapsed)
      counts = (graph.components.count, graph.edges.count, problems.count)
    }
    return (counts.components, counts.edges, counts.problems, best)
  }
}
