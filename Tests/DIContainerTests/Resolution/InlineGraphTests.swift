import DIContainer
import DITestSupport
import Foundation
import Testing

// A resolve's `.objectGraph` instances stay in the thread's request until a `Lazy`, a
// `Provider` or postponed work needs a graph object; these tests make that happen at each
// point of a graph's building and check that every part of the graph still sees one
// instance per graph.

private final class GraphShared {}

/// Asks for the graph's `GraphShared` before and after it makes a `Provider`.
private final class GraphBefore {
  let shared: GraphShared
  init(shared: GraphShared) { self.shared = shared }
}
private final class GraphLater {
  let shared: GraphShared
  init(shared: GraphShared) { self.shared = shared }
}
private final class GraphRoot {
  let before: GraphBefore
  let laters: Provider<GraphLater>
  let after: GraphLater
  init(before: GraphBefore, laters: Provider<GraphLater>, after: GraphLater) {
    self.before = before
    self.laters = laters
    self.after = after
  }
}

/// An `.objectGraph` component whose initializer makes the graph's object (it takes a
/// `Provider`) and whose injected property comes back to it.
private final class GraphHub {
  let spokes: Provider<GraphSpoke>
  var spoke: GraphSpoke?
  init(spokes: Provider<GraphSpoke>) { self.spokes = spokes }
}
private final class GraphSpoke {
  let hub: GraphHub
  init(hub: GraphHub) { self.hub = hub }
}

/// Records, from its deinitializer, what a resolve made there returned.
private final class GraphResolving: @unchecked Sendable {
  let container: DIContainer
  nonisolated(unsafe) static var seen: [Bool] = []

  init(container: DIContainer) { self.container = container }

  deinit {
    let pair: GraphPair = container.resolve()
    Self.seen.append(pair.first.shared === pair.second.shared)
  }
}
private final class GraphPair {
  let first: GraphBefore
  let second: GraphLater
  init(first: GraphBefore, second: GraphLater) {
    self.first = first
    self.second = second
  }
}
/// Takes a `GraphResolving` it does not keep: the graph's entry is its last reference, released
/// as the resolve ends.
private final class GraphHolder {
  let shared: GraphShared
  init(resolving: GraphResolving, shared: GraphShared) {
    self.shared = shared
  }
}

@Suite struct InlineGraphTests {
  @Test func instancesMadeBeforeAndAfterTheGraphGetsAnObjectAreOne() {
    let container = DIContainer()
    container.register(GraphShared.init).lifetime(.objectGraph)
    container.register(GraphBefore.init)
    container.register(GraphLater.init)
    container.register(GraphRoot.init)
    let root: GraphRoot = container.resolve()
    #expect(root.before.shared === root.after.shared)
    #expect(root.laters.value.shared === root.before.shared)
    let other: GraphRoot = container.resolve()
    #expect(other.before.shared !== root.before.shared)
  }

  @Test func anInstancePublishedAfterItsInitializerMadeTheGraphsObjectIsFoundByItsCycle() {
    let container = DIContainer()
    container.register(GraphHub.init).lifetime(.objectGraph).injection(\.spoke)
    container.register(GraphSpoke.init)
    let hub: GraphHub = container.resolve()
    #expect(hub.spoke?.hub === hub)
    #expect(hub.spokes.value.hub === hub)
  }

  @Test func aResolveInsideAFactoryHasAGraphOfItsOwn() {
    let container = DIContainer()
    container.register(GraphShared.init).lifetime(.objectGraph)
    container.register(GraphBefore.init)
    container.register { (shared: GraphShared) -> GraphLater in
      let inner: GraphBefore = container.resolve()
      #expect(inner.shared !== shared)
      return GraphLater(shared: shared)
    }
    container.register(GraphPair.init)
    let pair: GraphPair = container.resolve()
    #expect(pair.first.shared === pair.second.shared)
  }

  @Test func aDeinitializerThatResolvesAsTheGraphIsReleasedGetsAGraphOfItsOwn() {
    GraphResolving.seen = []
    let container = DIContainer()
    container.register(GraphShared.init).lifetime(.objectGraph)
    container.register(GraphBefore.init)
    container.register(GraphLater.init)
    container.register(GraphPair.init)
    container.register { GraphResolving(container: container) }.lifetime(.objectGraph)
    container.register(GraphHolder.init)
    let holder: GraphHolder = container.resolve()
    #expect(GraphResolving.seen == [true])
    withExtendedLifetime(holder) {}
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func threadsBuildTheirGraphsApart() async throws {
    let container = DIContainer()
    container.register(GraphShared.init).lifetime(.objectGraph)
    container.register(GraphBefore.init)
    container.register(GraphLater.init)
    container.register(GraphPair.init)
    let results = try await withThrowingTaskGroup(of: Bool.self) { group in
      for _ in 0..<4 {
        group.addTask {
          var sound = true
          for _ in 0..<2_000 {
            let pair: GraphPair = try container.tryResolve()
            sound = sound && pair.first.shared === pair.second.shared
          }
          return sound
        }
      }
      return try await group.reduce(into: [Bool]()) { $0.append($1) }
    }
    #expect(results == [true, true, true, true])
  }
}
