import DIContainer
import DITestSupport
import Foundation
import Testing

// A .scoped making does not check that its scope is open before it runs the factory (a
// closed scope refuses to keep what it made), and a second close() takes no lock.

private final class RACount: @unchecked Sendable {
  private let lock = NSLock()
  private var value = 0
  func increment() { lock.withLock { value += 1 } }
  var count: Int { lock.withLock { value } }
}

/// A synchronous factory that blocks its thread (polling, with a deadline) until the test
/// releases it.
private final class RABlock: @unchecked Sendable {
  private let lock = NSLock()
  private var released = false
  private var arrived = false

  func wait() {
    lock.withLock { arrived = true }
    let deadline = Date().addingTimeInterval(TestEnvironment.limit(30))
    while !lock.withLock({ released }) && Date() < deadline { usleep(500) }
  }
  func release() { lock.withLock { released = true } }
  var hasArrived: Bool { lock.withLock { arrived } }
}

private final class RAThreadResult<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: Result<Value, DIError>?
  func set(_ result: Result<Value, DIError>) { lock.withLock { stored = result } }
  var result: Result<Value, DIError>? { lock.withLock { stored } }
}

private final class RASlow: Sendable {}
private final class RAScopedThing: Sendable {}
private final class RAUser: Sendable {
  let slow: RASlow
  let scoped: RAScopedThing
  init(slow: RASlow, scoped: RAScopedThing) {
    self.slow = slow
    self.scoped = scoped
  }
}
private final class RAOwner {}

/// Polls `condition` (up to `seconds`) without blocking the cooperative pool for long.
private func raEventually(
  _ seconds: Double = 20, _ condition: () -> Bool
) async -> Bool {
  // Only a hang limit: `seconds` is what the work normally takes at most, scaled to minutes.
  let deadline = ContinuousClock.now + TestEnvironment.limitDuration(seconds)
  while !condition() {
    guard ContinuousClock.now < deadline else { return false }
    try? await Task.sleep(for: .milliseconds(1))
  }
  return true
}

@Suite struct ScopedMakingAfterCloseTests {
  /// A synchronous request that began before close() meets a `.scoped` component after
  /// it: the factory must not run in a closed scope (6b372d1 did not run it); the request
  /// fails with scopeClosed and nothing is left without its hook.
  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func aScopedFactoryDoesNotRunAfterItsScopeClosed() async throws {
    let block = RABlock()
    let made = RACount()
    let cleaned = RACount()
    let container = DIContainer()
    container.register { () -> RASlow in
      block.wait()
      return RASlow()
    }
    container.register { () -> RAScopedThing in
      made.increment()  // a side effect: opens a transaction, say
      return RAScopedThing()
    }
    .lifetime(.scoped)
    .onClean { _ in cleaned.increment() }
    container.register { RAUser(slow: $0, scoped: $1) }
    let scope = container.makeScope()
    let result = RAThreadResult<RAUser>()
    let thread = Thread {
      result.set(Result { () throws(DIError) -> RAUser in try scope.tryResolve() })
    }
    thread.start()
    #expect(await raEventually { block.hasArrived })
    scope.close()
    block.release()
    #expect(await raEventually { result.result != nil })
    guard case .failure(let error) = result.result else {
      Issue.record("resolved in a scope closed meanwhile")
      return
    }
    #expect(error.code == .scopeClosed)
    #expect(made.count == 0, "the .scoped factory ran \(made.count) times after close()")
    #expect(cleaned.count == made.count, "every instance made has its hook run once")
  }

  /// The async form: a request scope closes while an async request awaits another
  /// factory; the async `.scoped` factory it meets next must not run (6b372d1's keep
  /// refused before the making).
  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func anAsyncScopedFactoryDoesNotRunAfterItsScopeClosed() async throws {
    let gate = Gate()
    let made = RACount()
    let cleaned = RACount()
    let container = DIContainer()
    container.register { () async -> RASlow in
      await gate.pass()
      return RASlow()
    }
    container.register { () async -> RAScopedThing in
      made.increment()
      return RAScopedThing()
    }
    .lifetime(.scoped)
    .onClean { _ in cleaned.increment() }
    container.register { RAUser(slow: $0, scoped: $1) }
    let scope = container.makeScope()
    let request = Task { () async throws -> RAUser in try await scope.resolveAsync() }
    try await gate.awaitArrivals(1)
    scope.close()
    gate.open()
    do {
      _ = try await request.value
      Issue.record("resolved in a scope closed meanwhile")
    } catch let error as DIError {
      #expect(error.code == .scopeClosed)
    }
    #expect(await raEventually(2) { cleaned.count == made.count })
    #expect(made.count == 0, "the async .scoped factory ran \(made.count) times after close()")
  }

  /// The instance a closed scope refuses has its onClean run exactly once, also when the
  /// scope is closed again (deinit) and when the container shuts down.
  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func aRefusedInstancesHookRunsOnce() async throws {
    let gate = Gate()
    let made = RACount()
    let cleaned = RACount()
    let container = DIContainer()
    container.register { () async -> RAScopedThing in
      made.increment()
      await gate.pass()
      return RAScopedThing()
    }
    .lifetime(.scoped)
    .onClean { _ in cleaned.increment() }
    var scope: DIRequestScope? = container.makeScope()
    let request = Task { [scope] () async throws -> RAScopedThing in
      try await scope!.resolveAsync()
    }
    try await gate.awaitArrivals(1)
    scope?.close()
    gate.open()
    await #expect(throws: DIError.self) { _ = try await request.value }
    scope?.close()
    scope = nil
    await container.shutdown()
    #expect(await raEventually(2) { cleaned.count >= made.count })
    try await Task.sleep(for: .milliseconds(20))
    #expect(made.count == 1)
    #expect(cleaned.count == 1)
  }

  /// shutdown() while a `.scoped` async making is under way: the request fails, the
  /// instance's hook runs once, and shutdown does not return before it ran... at least it
  /// runs once in the end.
  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func shutdownDuringAScopedMaking() async throws {
    let gate = Gate()
    let cleaned = RACount()
    let container = DIContainer()
    container.register { () async -> RAScopedThing in
      await gate.pass()
      return RAScopedThing()
    }
    .lifetime(.scoped)
    .onClean { _ in cleaned.increment() }
    let scope = container.makeScope()
    let request = Task { () async throws -> RAScopedThing in try await scope.resolveAsync() }
    try await gate.awaitArrivals(1)
    let shutdown = Task { await container.shutdown() }
    try await Task.sleep(for: .milliseconds(20))
    gate.open()
    await shutdown.value
    do {
      _ = try await request.value
      Issue.record("a making in a scope closed by shutdown() kept its instance")
    } catch let error as DIError {
      #expect(error.code == .scopeClosed || error.code == .containerShutDown)
    }
    scope.close()
    #expect(await raEventually(2) { cleaned.count == 1 })
    try await Task.sleep(for: .milliseconds(20))
    #expect(cleaned.count == 1)
  }

  /// A `scope(for:)` scope whose owner goes during a synchronous request: the `.scoped`
  /// factory met after that must not run, the request fails, and hooks run once.
  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func anOwnedScopeClosedByItsOwnerDuringARequest() async throws {
    let block = RABlock()
    let made = RACount()
    let cleaned = RACount()
    let container = DIContainer()
    container.register { () -> RASlow in
      block.wait()
      return RASlow()
    }
    container.register { () -> RAScopedThing in
      made.increment()
      return RAScopedThing()
    }
    .lifetime(.scoped)
    .onClean { _ in cleaned.increment() }
    container.register { RAUser(slow: $0, scoped: $1) }
    var owner: RAOwner? = RAOwner()
    let scope = container.scope(for: owner!)
    let result = RAThreadResult<RAUser>()
    let thread = Thread {
      result.set(Result { () throws(DIError) -> RAUser in try scope.tryResolve() })
    }
    thread.start()
    #expect(await raEventually { block.hasArrived })
    owner = nil
    // The container's storage drops the owner's scope at its next operation.
    let other = RAOwner()
    _ = container.scope(for: other)
    #expect(await raEventually(5) { scope.isClosed })
    block.release()
    #expect(await raEventually { result.result != nil })
    guard case .failure(let error) = result.result else {
      Issue.record("resolved in a scope whose owner is gone")
      return
    }
    #expect(error.code == .scopeClosed)
    #expect(made.count == 0, "the .scoped factory ran \(made.count) times after the close")
    #expect(cleaned.count == made.count)
  }

  /// Two threads close one scope at once: when close() returns on either, the scope is
  /// closed (a resolve after it fails). The second close() returns at once now, before
  /// the first has closed the state.
  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func whenCloseReturnsTheScopeIsClosedEvenIfAnotherCloseRuns() async throws {
    let container = DIContainer()
    container.register { RAScopedThing() }.lifetime(.scoped)
    let openAfterClose = RACount()
    let rounds = TestEnvironment.rounds(150_000)
    let done = RACount()
    let thread = Thread {
      for _ in 0..<rounds {
        let scope = container.makeScope()
        let _: RAScopedThing? = try? scope.tryResolve()
        DispatchQueue.concurrentPerform(iterations: 3) { index in
          switch index {
          case 0, 1:
            scope.close()
            if !scope.isClosed { openAfterClose.increment() }
          default:
            // Holds the scope's lock now and then, so a close may wait for it.
            for _ in 0..<3 { _ = scope.isClosed }
          }
        }
      }
      done.increment()
    }
    thread.stackSize = 1 << 22
    thread.start()
    #expect(await raEventually(50) { done.count == 1 })
    #expect(
      openAfterClose.count == 0, "\(openAfterClose.count) close() calls returned on an open scope")
  }
}
