import DIContainer
import Foundation
import Testing

@Suite struct GraphRenderingTests {
  typealias G = GraphFixtures

  /// A small graph with a framework, and every kind of edge.
  static func smallContainer() -> DIContainer {
    let container = DIContainer()
    container.load(DIModuleID(.framework, type: G.ShopFramework.self)) {
      container.register(G.Store.init).as(G.Storage.self, tag: G.Primary.self)
        .lifetime(.perContainer(.single))
      container.register(G.FileLogger.init).as(G.Logger.self)
    }
    container.register(G.ConsoleLogger.init).as(G.Logger.self).lifetime(.objectGraph)
    container.register { (primary: DIByTag<G.Primary, G.Storage>, loggers: DIMany<G.Logger>) in
      G.Checkout(store: by(tag: G.Primary.self, on: primary), loggers: many(loggers), name: "")
    }
    .injection(cycle: true) { (checkout: G.Checkout, store: G.Store?) in checkout.primary = store }
    .root()
    container.register { (sibling: Later<G.Sibling>) in G.Holder(sibling: sibling) }
    container.register { G.Sibling(holder: $0) }.lifetime(.perContainer(.weak))
    return container
  }

  @Test func dotTextOfASmallGraph() {
    let expected = """
      digraph DIContainer {
        rankdir=LR;
        node [shape=box, fontname="Helvetica"];
        edge [fontname="Helvetica", fontsize=10];
        c2 [label="ConsoleLogger\\nobjectGraph"];
        c3 [label="Checkout\\nprototype"];
        c4 [label="Holder\\nprototype"];
        c5 [label="Sibling\\nperContainer(.weak)"];
        subgraph cluster_0 {
          label="ShopFramework";
          style=rounded;
          c0 [label="Store\\nperContainer(.single)"];
          c1 [label="FileLogger\\nprototype"];
        }
        c3 -> c0 [label="Primary"];
        c3 -> c1 [style="bold"];
        c3 -> c2 [style="bold"];
        c3 -> c0 [style="dashed", arrowhead=empty];
        c4 -> c5 [style="dotted"];
        c5 -> c4;
      }

      """
    let dot = Self.smallContainer().makeGraph().dot()
    #expect(dot == expected)
  }

  @Test func mermaidTextOfASmallGraph() {
    let expected = """
      flowchart LR
        c2["ConsoleLogger<br/>objectGraph"]
        c3["Checkout<br/>prototype"]
        c4["Holder<br/>prototype"]
        c5["Sibling<br/>perContainer(.weak)"]
        subgraph f0["ShopFramework"]
          c0["Store<br/>perContainer(.single)"]
          c1["FileLogger<br/>prototype"]
        end
        c3 -->|"Primary"| c0
        c3 ==> c1
        c3 ==> c2
        c3 --> c0
        c4 -.-> c5
        c5 --> c4
        linkStyle 3 stroke-dasharray: 6 4

      """
    #expect(Self.smallContainer().makeGraph().mermaid() == expected)
  }

  @Test func outputIsDeterministic() {
    let first = Self.smallContainer().makeGraph()
    let second = Self.smallContainer().makeGraph()
    #expect(first.dot() == second.dot())
    #expect(first.mermaid() == second.mermaid())
    #expect(first.dot() == first.dot())
  }

  @Test func namesAreEscaped() {
    let container = DIContainer()
    container.register { G.Box<String>(value: "") }
    #expect(container.makeGraph().dot().contains("c0 [label=\"Box<String>\\nprototype\"];"))
    #expect(container.makeGraph().mermaid().contains("c0[\"Box#lt;String#gt;<br/>prototype\"]"))
  }

  @Test(.enabled(if: Graphviz.path != nil, "dot (graphviz) is not on PATH; install graphviz"))
  func graphvizRendersTheDotText() throws {
    let dot = try #require(Graphviz.path)
    let svg = try Graphviz.render(Self.smallContainer().makeGraph().dot(), with: dot)
    #expect(svg.status == 0, "dot -Tsvg failed: \(svg.errors)")
    #expect(svg.errors.isEmpty, "dot -Tsvg warned: \(svg.errors)")
    #expect(svg.output.contains("<svg"))
    #expect(svg.output.contains("ShopFramework"))
  }
}

/// Runs Graphviz's `dot` when it is installed.
enum Graphviz {
  /// `dot` on `PATH`, if any.
  static let path: String? = {
    let directories = ProcessInfo.processInfo.environment["PATH"]?.split(separator: ":") ?? []
    return directories.map { "\($0)/dot" }.first {
      FileManager.default.isExecutableFile(atPath: $0)
    }
  }()

  /// `dot -Tsvg` on `text`: exit status, standard output and standard error.
  static func render(_ text: String, with dot: String) throws -> (
    status: Int32, output: String, errors: String
  ) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: dot)
    process.arguments = ["-Tsvg"]
    let input = Pipe()
    let output = Pipe()
    let errors = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    input.fileHandleForWriting.write(Data(text.utf8))
    try input.fileHandleForWriting.close()
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    let errorData = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (
      process.terminationStatus, String(decoding: outputData, as: UTF8.self),
      String(decoding: errorData, as: UTF8.self)
    )
  }
}
