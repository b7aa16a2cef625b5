import DITestSupport
import Foundation
import Testing

@testable import DIContainer

/// A closed scope's state (its lock and slot storage) is reused by a later scope of the
/// container once nothing holds it: a later scope must never see what an earlier one made,
/// a closed scope must stay closed, and every instance must still be released once, with
/// its hook run once.
@Suite struct RequestScopeReuseTests {
  /// A container whose `LiveProbe` is `.scoped`, counted by the ledger returned, with a
  /// hook that counts its runs in the counter returned.
  private static func scopedProbes() -> (ProbeLedger, Counter, DIContainer) {
    let ledger = ProbeLedger()
    let cleaned = Counter()
    let container = DIContainer()
    container.register { LiveProbe(ledger) }.lifetime(.scoped)
      .onClean { _ in cleaned.next() }
    return (ledger, cleaned, container)
  }

  @Test func aScopeAfterAReleasedOneStartsEmpty() {
    let (ledger, cleaned, container) = Self.scopedProbes()
    var previous: Int?
    for round in 1...50 {
      let scope = container.makeScope()
      #expect(!scope.isClosed)
      let probe: LiveProbe = scope.resolve()
      let again: LiveProbe = scope.resolve()
      #expect(probe === again)
      #expect(probe.id != previous, "a scope saw the instance of the scope before it")
      previous = probe.id
      scope.close()
      #expect(cleaned.value == round)
    }
    #expect(ledger.alive == 0)
  }

  @Test func aClosedScopeStillHeldStaysClosedWhileLaterScopesWork() throws {
    let (_, cleaned, container) = Self.scopedProbes()
    let closed = container.makeScope()
    let first: LiveProbe = closed.resolve()
    closed.close()
    for _ in 1...3 {
      let scope = container.makeScope()
      let probe: LiveProbe = scope.resolve()
      #expect(probe !== first)
      #expect(closed.isClosed)
      #expect(!scope.isClosed)
      let error = try #require(throws: DIError.self) {
        let _: LiveProbe = try closed.tryResolve()
      }
      #expect(error.code == .scopeClosed)
      scope.close()
    }
    #expect(first.isAlive, "the test still holds it")
    #expect(cleaned.value == 4)
  }

  @Test func aScopeReleasedWithoutCloseClosesAndTheNextOneStartsEmpty() {
    let (ledger, cleaned, container) = Self.scopedProbes()
    func resolveInAScopeLetGo() -> Int {
      let scope = container.makeScope()
      let probe: LiveProbe = scope.resolve()
      return probe.id
    }
    let first = resolveInAScopeLetGo()
    #expect(ledger.alive == 0)
    #expect(cleaned.value == 1)
    let second = resolveInAScopeLetGo()
    #expect(second != first)
    #expect(cleaned.value == 2)
  }

  @Test func anAsyncScopedInstanceIsNeverServedToALaterScope() async throws {
    let container = DIContainer()
    container.register { () async in LiveProbe() }.lifetime(.scoped)
    var seen: Set<Int> = []
    for _ in 1...5 {
      let scope = container.makeScope()
      let probe: LiveProbe = try await scope.resolveAsync()
      let again: LiveProbe = try await scope.resolveAsync()
      #expect(probe === again)
      #expect(seen.insert(probe.id).inserted)
      scope.close()
    }
    // A state whose async makings are over is reused too.
    #expect(container.openScopes.reuse.reused == 4)
  }

  @Test func shutdownClosesTheOpenScopesOnlyAndRunsNoHookTwice() async throws {
    let (ledger, cleaned, container) = Self.scopedProbes()
    let done = container.makeScope()
    let _: LiveProbe = try done.tryResolve()
    done.close()
    let open = [container.makeScope(), container.makeScope()]
    for scope in open {
      let _: LiveProbe = try scope.tryResolve()
    }
    #expect(cleaned.value == 1)
    await container.shutdown()
    #expect(open.allSatisfy { $0.isClosed })
    #expect(cleaned.value == 3)
    #expect(ledger.alive == 0)
    // Closing again runs no hook twice.
    for scope in open { scope.close() }
    done.close()
    #expect(cleaned.value == 3)
  }

  /// Threads open, use and close scopes of one container at once, so that places and
  /// states are reused under contention: each scope sees only its own instance, and every
  /// instance is released with its hook run once.
  @Test func scopesOpenedAndClosedOnManyThreadsNeverShareAnInstance() async {
    let (ledger, cleaned, container) = Self.scopedProbes()
    let rounds = TestEnvironment.rounds(3_000)
    let wrong = Counter()
    let seen = SeenIDs()
    let finished = await runThreads(4, timeout: TestEnvironment.limit(60)) { _ in
      for round in 0..<rounds {
        let scope = container.makeScope()
        let probe: LiveProbe = scope.resolve()
        let again: LiveProbe = scope.resolve()
        if probe !== again || !probe.isAlive { wrong.next() }
        if !seen.insert(probe.id) { wrong.next() }
        // Half the scopes close explicitly; the rest close as they are released.
        if round.isMultiple(of: 2) { scope.close() }
      }
    }
    #expect(finished, "opening and closing scopes deadlocked")
    #expect(wrong.value == 0)
    #expect(ledger.alive == 0)
    #expect(cleaned.value == 4 * rounds)
  }

  /// After a burst of scopes open at once, only ``OpenScopes/keptStates`` closed places
  /// keep a state, and later scopes still reuse them.
  @Test func reuseGoesOnAfterABurstOfOpenScopes() {
    let container = DIContainer()
    container.register { LiveProbe() }.lifetime(.scoped)
    do {
      let burst = (0..<(OpenScopes.keptStates * 3)).map { _ in container.makeScope() }
      for scope in burst {
        let _: LiveProbe = scope.resolve()
        scope.close()
      }
    }
    let afterBurst = container.openScopes.reuse
    #expect(afterBurst.kept == OpenScopes.keptStates)
    for _ in 1...5 {
      let scope = container.makeScope()
      let _: LiveProbe = scope.resolve()
      scope.close()
    }
    let later = container.openScopes.reuse
    #expect(later.reused == afterBurst.reused + 5)
    #expect(later.kept == OpenScopes.keptStates)
  }

  /// The pooled state really is reused: after a scope is closed and released, the next
  /// scope of the container gets the same lock and storage, and a scope still held gets
  /// another.
  @Test func aReleasedScopesStateIsReusedAndAHeldOnesIsNot() {
    let container = DIContainer()
    container.register { LiveProbe() }.lifetime(.scoped)
    func stateOfAScopeLetGo() -> ObjectIdentifier {
      let scope = container.makeScope()
      let _: LiveProbe = scope.resolve()
      scope.close()
      return scope.state.identity
    }
    let first = stateOfAScopeLetGo()
    #expect(stateOfAScopeLetGo() == first)
    #expect(container.openScopes.reuse.reused == 1)
    let held = container.makeScope()
    held.close()
    let reusedBefore = container.openScopes.reuse.reused
    let next = container.makeScope()
    #expect(next.state.identity != held.state.identity)
    #expect(container.openScopes.reuse.reused == reusedBefore)
  }
}

/// The probe identities the scopes of a test saw, for threads to record.
private final class SeenIDs: @unchecked Sendable {
  // An `NSLock` (a pthread mutex), which ThreadSanitizer sees.
  private let lock = NSLock()
  private var ids: Set<Int> = []

  /// Records `id`; false when it was seen before.
  func insert(_ id: Int) -> Bool {
    lock.withLock { ids.insert(id).inserted }
  }
}
