import DIContainer
import Synchronization
import Testing

// A request scope and an object graph keep their instances in a small table searched in
// order, indexed once it holds more than a few: these fill it past that point.

/// One of many registrations of the same type.
private final class MEItem: Sendable {}

/// Holds every `MEItem` of its object graph, twice over.
private final class MEHolder: Sendable {
  let first: [MEItem]
  let second: [MEItem]
  init(first: [MEItem], second: [MEItem]) {
    self.first = first
    self.second = second
  }
}

@Suite struct ManyEntriesTests {
  /// More than the table searches without its index.
  static let count = 40

  @Test("A scope with many .scoped components keeps one instance of each, and drops each once")
  func scopeWithManyScopedComponents() {
    let container = DIContainer()
    let cleaned = Atomic(0)
    for _ in 0..<Self.count {
      container.register(MEItem.init).lifetime(.scoped)
        .onClean { _ in cleaned.add(1, ordering: .relaxed) }
    }
    let scope = container.makeScope()
    let first: [MEItem] = many(scope.resolve())
    let second: [MEItem] = many(scope.resolve())
    #expect(Set(first.map(ObjectIdentifier.init)).count == Self.count)
    #expect(zip(first, second).allSatisfy { $0 === $1 })
    let other = container.makeScope()
    let fromOther: [MEItem] = many(other.resolve())
    #expect(zip(first, fromOther).allSatisfy { $0 !== $1 })
    scope.close()
    #expect(cleaned.load(ordering: .relaxed) == Self.count)
    other.close()
    #expect(cleaned.load(ordering: .relaxed) == 2 * Self.count)
  }

  @Test("An object graph with many .objectGraph components shares each within one resolve")
  func graphWithManyComponents() {
    let container = DIContainer()
    for _ in 0..<Self.count { container.register(MEItem.init).lifetime(.objectGraph) }
    container.register { MEHolder(first: many($0), second: many($1)) }
    let holder: MEHolder = container.resolve()
    let next: MEHolder = container.resolve()
    #expect(Set(holder.first.map(ObjectIdentifier.init)).count == Self.count)
    #expect(zip(holder.first, holder.second).allSatisfy { $0 === $1 })
    #expect(zip(holder.first, next.first).allSatisfy { $0 !== $1 })
  }
}
