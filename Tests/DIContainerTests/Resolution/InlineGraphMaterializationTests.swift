import DIContainer
import DITestSupport
import Foundation
import Testing

// The inline `.objectGraph` instances (InlineGraphs) and their materialization
// (a `Lazy`, a `Provider`, postponed work, a parent's cached component).

private final class IRShared: @unchecked Sendable {}
private protocol IRLeafService: AnyObject {}
private final class IRLeaf: IRLeafService {
  let shared: IRShared
  init(shared: IRShared) { self.shared = shared }
}

/// Resolves many `.objectGraph` leaves: many entries in the thread's inline array.
private final class IRBig {
  let leaves: [IRLeafService]
  let shared: IRShared
  init(leaves: [IRLeafService], shared: IRShared) {
    self.leaves = leaves
    self.shared = shared
  }
  var sound: Bool { leaves.allSatisfy { ($0 as! IRLeaf).shared === shared } }
}

/// Resolves an `IRBig` from its deinitializer.
private final class IRReleaser: @unchecked Sendable {
  let container: DIContainer
  let lock = NSLock()
  nonisolated(unsafe) static var seen: [Bool] = []
  static let seenLock = NSLock()

  init(container: DIContainer) { self.container = container }

  deinit {
    let big: IRBig = container.resolve()
    Self.seenLock.withLock { Self.seen.append(big.sound) }
  }
}

/// Takes the releaser last (so it is the last entry, removed first) and does not keep it.
private final class IRBigRoot {
  let big: IRBig
  init(big: IRBig, releaser: IRReleaser) { self.big = big }
}

private final class IRHolder {
  let shared: IRShared
  init(shared: IRShared) { self.shared = shared }
}

private final class IRProviderRoot {
  let shared: IRShared
  let holders: Provider<IRHolder>
  init(shared: IRShared, holders: Provider<IRHolder>) {
    self.shared = shared
    self.holders = holders
  }
}

private final class IRLazyProperty {
  let shared: IRShared
  var lazyHolder: Lazy<IRHolder>?
  init(shared: IRShared) { self.shared = shared }
}

private struct IRFailure: Error {}
private final class IRFailing {
  init(shared: IRShared) throws { throw IRFailure() }
}
private final class IRFailingRoot {
  init(shared: IRShared, holders: Provider<IRHolder>, failing: IRFailing) {}
}
private final class IRFailingInlineRoot {
  init(shared: IRShared, failing: IRFailing) {}
}

/// A parent's `.perContainer` component that takes the graph's shared object.
private final class IRParentCached {
  let shared: IRShared
  init(shared: IRShared) { self.shared = shared }
}
private final class IRChildRootSharedFirst {
  let shared: IRShared
  let cached: IRParentCached
  init(shared: IRShared, cached: IRParentCached) {
    self.shared = shared
    self.cached = cached
  }
}
private final class IRChildRootCachedFirst {
  let shared: IRShared
  let cached: IRParentCached
  init(cached: IRParentCached, shared: IRShared) {
    self.shared = shared
    self.cached = cached
  }
}

/// A cycle through `.objectGraph` components, broken by a cycle-breaking injection.
private final class IRPing {
  let shared: IRShared
  var pong: IRPong?
  init(shared: IRShared) { self.shared = shared }
}
private final class IRPong {
  let ping: IRPing
  let shared: IRShared
  init(ping: IRPing, shared: IRShared) {
    self.ping = ping
    self.shared = shared
  }
}

@Suite struct InlineGraphMaterializationTests {
  /// Runs `body` on a thread of its own (an empty inline array to start from), waits.
  private func onFreshThread(_ body: @escaping @Sendable () -> Void) {
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
      body()
      done.signal()
    }
    thread.stackSize = 8 << 20
    thread.start()
    done.wait()
  }

  private func registerBig(_ container: DIContainer, leaves: Int) {
    container.register(IRShared.init).lifetime(.objectGraph)
    for _ in 0..<leaves {
      container.register(IRLeaf.init).as(IRLeafService.self).lifetime(.objectGraph)
    }
    container.register { IRBig(leaves: many($0), shared: $1) }
  }

  /// FINDING: passes in a debug build, crashes (SIGSEGV in `InlineGraphs.end` →
  /// `removeEntries` → `Array.removeLast`) in a release build (`swift build -c release
  /// --build-tests -Xswiftc -enable-testing`; DocExampleTests must be left out, the 6.3.1
  /// compiler crashes on it in release). The releaser is the graph's last entry, so the
  /// first one removed: its deinitializer's resolve appends 40+ entries and reallocates the
  /// thread's array while `end` still holds the old buffer.
  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func aDeinitializerResolvingAGraphThatGrowsTheArrayWhileEntriesAreRemoved() {
    IRReleaser.seenLock.withLock { IRReleaser.seen = [] }
    let container = DIContainer()
    registerBig(container, leaves: 40)
    container.register { IRReleaser(container: container) }.lifetime(.objectGraph)
    container.register(IRBigRoot.init)
    onFreshThread {
      for _ in 0..<20 {
        let root: IRBigRoot = container.resolve()
        precondition(root.big.sound)
      }
    }
    let seen = IRReleaser.seenLock.withLock { IRReleaser.seen }
    #expect(seen.count == 20)
    #expect(seen.allSatisfy { $0 })
  }

  @Test func instancesOfAResolveThatThrowsAreReleasedInline() {
    let box = LockedValue<[WeakBox<AnyObject>]>([])
    let container = DIContainer()
    container.register { () -> IRShared in
      let shared = IRShared()
      box.withLock { $0.append(WeakBox<AnyObject>(shared)) }
      return shared
    }.lifetime(.objectGraph)
    container.register(IRFailing.init)
    container.register(IRFailingInlineRoot.init)
    for _ in 0..<3 {
      #expect(throws: DIError.self) { _ = try container.tryResolve() as IRFailingInlineRoot }
    }
    #expect(box.current.allSatisfy { $0.object == nil })
    // The thread's later graphs are sound.
    let root: IRProviderRoot? = nil
    _ = root
    container.register(IRHolder.init)
    container.register(IRProviderRoot.init)
    let made: IRProviderRoot = container.resolve()
    #expect(made.holders.value.shared === made.shared)
  }

  @Test func instancesOfAResolveThatThrowsAfterItsGraphGotAnObjectAreReleased() {
    let box = LockedValue<[WeakBox<AnyObject>]>([])
    let container = DIContainer()
    container.register { () -> IRShared in
      let shared = IRShared()
      box.withLock { $0.append(WeakBox<AnyObject>(shared)) }
      return shared
    }.lifetime(.objectGraph)
    container.register(IRHolder.init)
    container.register(IRFailing.init)
    container.register(IRFailingRoot.init)
    for _ in 0..<3 {
      #expect(throws: DIError.self) { _ = try container.tryResolve() as IRFailingRoot }
    }
    #expect(box.current.allSatisfy { $0.object == nil })
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func aProviderUsedLaterOnAnotherThreadGivesTheGraphsInstance() {
    let container = DIContainer()
    container.register(IRShared.init).lifetime(.objectGraph)
    container.register(IRHolder.init)
    container.register(IRProviderRoot.init)
    let root: IRProviderRoot = container.resolve()
    let provider = root.holders
    let shared = root.shared
    let same = LockedValue(false)
    onFreshThread {
      same.set(provider.value.shared === shared)
    }
    #expect(same.current)
  }

  @Test func aProviderMadeAndUsedInsideAFactoryClosureSeesTheGraph() {
    let container = DIContainer()
    container.register(IRShared.init).lifetime(.objectGraph)
    container.register(IRHolder.init)
    container.register { (shared: IRShared, holders: Provider<IRHolder>) -> IRProviderRoot in
      #expect(holders.value.shared === shared)
      return IRProviderRoot(shared: shared, holders: holders)
    }
    let root: IRProviderRoot = container.resolve()
    #expect(root.holders.value.shared === root.shared)
  }

  @Test func aLazyMadeInAPropertyInjectionSeesTheGraph() {
    let container = DIContainer()
    container.register(IRShared.init).lifetime(.objectGraph)
    container.register(IRHolder.init)
    container.register(IRLazyProperty.init).injection(\.lazyHolder)
    let made: IRLazyProperty = container.resolve()
    #expect(made.lazyHolder?.value.shared === made.shared)
  }

  /// A child of a parent that registers the shared `.objectGraph` object and a cached
  /// component taking it.
  private func childOfParentWithCachedComponent() -> DIContainer {
    let parent = DIContainer()
    parent.register(IRShared.init).lifetime(.objectGraph)
    parent.register(IRParentCached.init).lifetime(.perContainer(.single))
    return DIContainer(parent: parent)
  }

  @Test func aParentsCachedComponentSharesTheChildsGraphSharedFirst() {
    let child = childOfParentWithCachedComponent()
    child.register(IRChildRootSharedFirst.init)
    let root: IRChildRootSharedFirst = child.resolve()
    #expect(root.cached.shared === root.shared)
  }

  @Test func aParentsCachedComponentSharesTheChildsGraphCachedFirst() {
    let child = childOfParentWithCachedComponent()
    child.register(IRChildRootCachedFirst.init)
    let root: IRChildRootCachedFirst = child.resolve()
    #expect(root.cached.shared === root.shared)
  }

  @Test func aCycleThroughObjectGraphComponentsIsOneGraph() {
    let container = DIContainer()
    container.register(IRShared.init).lifetime(.objectGraph)
    container.register(IRPing.init).lifetime(.objectGraph).injection(cycle: true, \.pong)
    container.register(IRPong.init).lifetime(.objectGraph)
    let ping: IRPing = container.resolve()
    #expect(ping.pong?.ping === ping)
    #expect(ping.pong?.shared === ping.shared)
    let pong: IRPong = container.resolve()
    #expect(pong.ping.pong === pong)
    #expect(pong.shared === pong.ping.shared)
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func threadsMakeProvidersAndUseThemOnOtherThreads() async throws {
    let container = DIContainer()
    container.register(IRShared.init).lifetime(.objectGraph)
    container.register(IRHolder.init)
    container.register(IRProviderRoot.init)
    let results = try await withThrowingTaskGroup(of: Bool.self) { group in
      for _ in 0..<4 {
        group.addTask {
          var sound = true
          for _ in 0..<500 {
            let root: IRProviderRoot = try container.tryResolve()
            let provider = root.holders
            let inner = try await Task.detached { try provider.tryValue().shared }.value
            sound = sound && inner === root.shared
          }
          return sound
        }
      }
      return try await group.reduce(into: [Bool]()) { $0.append($1) }
    }
    #expect(results == [true, true, true, true])
  }
}
