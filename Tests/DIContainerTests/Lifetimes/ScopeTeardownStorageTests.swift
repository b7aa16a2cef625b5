import DITestSupport
import Foundation
import Testing

@testable import DIContainer

// A closing request scope hands its teardowns to the hooks, then keeps their emptied
// storage for the next scope of its state (`State.spareTeardowns`): a scope per request
// whose instances have hooks allocates no array for them. These tests check that nothing
// of an earlier scope survives in that storage: each hook runs once, for its own
// instance, and every instance goes.

private final class TSLog: Sendable {
  let request: Int
  init(request: Int) { self.request = request }
}

private final class TSSession: Sendable {
  let log: TSLog
  init(log: TSLog) { self.log = log }
}

private final class TSAudit: Sendable {}

/// A container whose two `.scoped` components have hooks, recording
/// "<component> <request>" in `ran`; the request number comes from `next`.
private func makeContainer(ran: LockedValue<[String]>, next: Counter) -> DIContainer {
  let container = DIContainer()
  container.register { TSLog(request: next.next()) }.lifetime(.scoped)
    .onClean { log in ran.withLock { $0.append("log \(log.request)") } }
  container.register(TSSession.init).lifetime(.scoped)
    .onClean { session in ran.withLock { $0.append("session \(session.log.request)") } }
  container.register(TSAudit.init).lifetime(.scoped)
  return container
}

@Suite struct ScopeTeardownStorageTests {
  @Test func aClosedScopeKeepsItsEmptiedTeardownStorageForTheNext() {
    let ran = LockedValue<[String]>([])
    let container = makeContainer(ran: ran, next: Counter())
    let scope = container.makeScope()
    _ = scope.resolve() as TSSession
    scope.close()
    let (spare, current) = scope.state.withLock {
      ($0.spareTeardowns, $0.teardowns)
    }
    #expect(spare?.isEmpty == true)
    #expect((spare?.capacity ?? 0) >= 2)
    #expect(current.isEmpty)
    #expect(ran.current == ["session 1", "log 1"])
  }

  @Test func reusedScopesRunEachHookOnceForTheirOwnInstances() {
    let ran = LockedValue<[String]>([])
    let container = makeContainer(ran: ran, next: Counter())
    weak var lastSession: TSSession?
    for request in 1...40 {
      let scope = container.makeScope()
      let session: TSSession = scope.resolve()
      _ = scope.resolve() as TSAudit
      lastSession = session
      scope.close()
      #expect(ran.current.suffix(2) == ["session \(request)", "log \(request)"])
    }
    #expect(ran.current.count == 80)
    #expect(lastSession == nil)
    #expect(container.openScopes.reuse.reused >= 30)
  }

  @Test func closingAwaitingHooksReusesTheStorageToo() async throws {
    let ran = LockedValue<[String]>([])
    let next = Counter()
    let container = makeContainer(ran: ran, next: next)
    for request in 1...20 {
      let scope = container.makeScope()
      _ = try scope.tryResolve() as TSSession
      await scope.closeAwaitingHooks()
      #expect(ran.current.suffix(2) == ["session \(request)", "log \(request)"])
    }
    #expect(ran.current.count == 40)
  }

  @Test func asyncHooksAreAwaitedAndTheirStorageIsNotShared() async throws {
    let ran = LockedValue<[String]>([])
    let container = DIContainer()
    let next = Counter()
    container.register { TSLog(request: next.next()) }.lifetime(.scoped)
      .onClean { (log: TSLog) async in
        try? await Task.sleep(for: .milliseconds(1))
        ran.withLock { $0.append("log \(log.request)") }
      }
    for request in 1...10 {
      let scope = container.makeScope()
      _ = try scope.tryResolve() as TSLog
      await scope.closeAwaitingHooks()
      #expect(ran.current.last == "log \(request)")
    }
    #expect(ran.current.count == 10)
  }

  @Test func shutdownRunsTheHooksOfScopesStillOpenOnce() async throws {
    let ran = LockedValue<[String]>([])
    let container = makeContainer(ran: ran, next: Counter())
    // A reused state first, so its spare storage is in play.
    let first = container.makeScope()
    _ = try first.tryResolve() as TSSession
    first.close()
    let open = container.makeScope()
    _ = try open.tryResolve() as TSSession
    await container.shutdown()
    #expect(ran.current == ["session 1", "log 1", "session 2", "log 2"])
    open.close()
    #expect(ran.current.count == 4)
  }
}
