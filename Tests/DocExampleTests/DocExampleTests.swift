import Foundation
import Testing

/// The examples compile because `swift build --build-tests` builds Generated/; these tests
/// check that none was left out, and run the ones that make a whole program.
@Suite struct DocExampleTests {
  /// The package's root, from this file's path.
  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// ```swift fences in the doc comments of the three modules, their catalogs and README.
  static func countSwiftFences() throws -> Int {
    let manager = FileManager.default
    var count = 0
    for module in ["DIContainer", "DIParts", "DIFrameworks"] {
      let folder = root.appendingPathComponent("Sources/\(module)")
      let files = manager.enumerator(atPath: folder.path)?.compactMap { $0 as? String } ?? []
      for file in files where file.hasSuffix(".swift") || file.hasSuffix(".md") {
        let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
        let fence = file.hasSuffix(".swift") ? "/// ```swift" : "```swift"
        count +=
          text.split(separator: "\n").filter {
            $0.trimmingCharacters(in: .whitespaces) == fence
          }.count
      }
    }
    let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
    count += readme.split(separator: "\n").filter { $0 == "```swift" }.count
    return count
  }

  @Test func everySwiftExampleOfTheDocumentationIsGenerated() throws {
    #expect(generatedDocExamples.count == (try Self.countSwiftFences()))
    #expect(generatedDocExamples.count > 200)
  }

  /// Examples that make their own container run as they are written.
  @Test func examplesThatMakeTheirOwnContainerRun() async throws {
    let examples = generatedDocExamples.filter(\.ownsContainer)
    #expect(examples.count >= 4)
    for example in examples {
      try await example.run()
    }
  }
}
