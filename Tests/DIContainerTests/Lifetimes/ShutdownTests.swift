import DIContainer
import DITestSupport
import Foundation
import Synchronization
import Testing

// Async teardown: `onClean` hooks that await, `shutdown()`, `withScope`.

private final class Pool: Sendable {
  let log: EventLog<String>
  let name: String
  init(log: EventLog<String>, name: String) {
    self.log = log
    self.name = name
  }

  /// Suspends before recording, so a caller that did not await it would miss the line.
  func close() async {
    try? await Task.sleep(for: .milliseconds(20))
    log.append("closed \(name)")
  }
}

private final class Client {
  init(pool: Pool) {}
}
private final class Handler {}
private struct HookFailed: Error {}

@Suite struct ShutdownTests {
  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func shutdownRunsEveryHookOnceInReverseCreationOrderAwaitingAsyncOnes() async throws {
    let log = EventLog<String>()
    let container = DIContainer()
    let session = DIScope(name: "ShutdownSession", storage: DICacheStorage())
    container.register { Pool(log: log, name: "pool") }
      .lifetime(.perContainer(.single))
      .onClean { pool in await pool.close() }
    container.register(Client.init)
      .lifetime(.perContainer(.single))
      .onClean { _ in log.append("closed client") }
    container.register { Pool(log: log, name: "session \(arg($0) as Int)") }.as(
      Pool.self, tag: Int.self
    )
    .lifetime(.custom(session))
    .onClean { pool in await pool.close() }
    container.register(Handler.init).lifetime(.scoped).onClean { _ in log.append("closed handler") }

    let _: Client = try container.tryResolve()  // makes the pool, then the client
    let _: Pool = try by(tag: Int.self, on: container.tryResolve(arguments: [1]))
    let scope = container.makeScope()
    let _: Handler = try scope.tryResolve()
    await container.shutdown()

    #expect(
      log.all == ["closed handler", "closed session 1", "closed client", "closed pool"],
      "newest first, each once, the async ones awaited")
    #expect(scope.isClosed, "an open request scope is closed")
  }

  @Test func everyRequestFailsAfterShutdown() async throws {
    let container = DIContainer()
    container.register(Handler.init).lifetime(.perContainer(.single))
    let lazy: Lazy<Handler> = try container.tryResolve()
    await container.shutdown()
    let error = #expect(throws: DIError.self) { let _: Handler = try container.tryResolve() }
    #expect(error?.code == .containerShutDown)
    #expect(error?.description.contains("the container was shut down") == true)
    let optional = #expect(throws: DIError.self) { let _: Handler? = try container.tryResolve() }
    #expect(optional?.code == .containerShutDown)
    let all = #expect(throws: DIError.self) {
      let _: [Handler] = many(try container.tryResolve())
    }
    #expect(all?.code == .containerShutDown)
    #expect(throws: DIError.self) { _ = try lazy.tryValue() }
    container.register(Handler.init)
    #expect(throws: DIError.self) { let _: Handler = try container.tryResolve() }
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func anAsyncHookOfASynchronousCleanIsNotLostAndShutdownWaitsForIt() async throws {
    let log = EventLog<String>()
    let container = DIContainer()
    container.register { Pool(log: log, name: "pool") }
      .lifetime(.perContainer(.single))
      .onClean { _ in log.append("sync step") }
      .onClean { pool in await pool.close() }
    let _: Pool = try container.tryResolve()
    container.clean()  // synchronous: the async hook starts on a task of its own
    #expect(log.all.first == "sync step", "the synchronous step ran at once")
    await container.shutdown()
    #expect(log.all == ["sync step", "closed pool"], "run once, and awaited by shutdown()")
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func aThrowingHookIsLoggedAndTheOthersStillRun() async throws {
    let log = EventLog<String>()
    let container = DIContainer()
    container.register { Pool(log: log, name: "first") }.lifetime(.perContainer(.single))
      .onClean { pool in await pool.close() }
    container.register(Handler.init).lifetime(.perContainer(.single))
      .onClean { (_: Handler) async throws in throw HookFailed() }
    let _: Pool = try container.tryResolve()
    let _: Handler = try container.tryResolve()
    let lines = await DISetting.Log.capturingAsync { await container.shutdown() }
    #expect(log.all == ["closed first"])
    #expect(
      lines.contains { $0.hasPrefix("error: onClean of Handler (") && $0.contains("HookFailed") })
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func withScopeReturnsTheBodysValueAndClosesAfterAwaitingHooks() async throws {
    let log = EventLog<String>()
    let container = DIContainer()
    container.register { Pool(log: log, name: "request") }.lifetime(.scoped)
      .onClean { pool in await pool.close() }
    let name = try await container.withScope { scope in
      let pool: Pool = try scope.tryResolve()
      #expect(try pool === scope.tryResolve() as Pool)
      return pool.name
    }
    #expect(name == "request")
    #expect(log.all == ["closed request"], "closed, its hook awaited, before withScope returns")
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func withScopeClosesOnThrowAndRethrowsTheBodysError() async throws {
    let log = EventLog<String>()
    let container = DIContainer()
    container.register { Pool(log: log, name: "request") }.lifetime(.scoped)
      .onClean { pool in await pool.close() }
    var kept: DIRequestScope?
    await #expect(throws: HookFailed.self) {
      try await container.withScope { scope in
        kept = scope
        let _: Pool = try scope.tryResolve()
        throw HookFailed()
      }
    }
    #expect(kept?.isClosed == true)
    #expect(log.all == ["closed request"])
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func closeAwaitingHooksAwaitsTheAsyncOnes() async throws {
    let log = EventLog<String>()
    let container = DIContainer()
    container.register { Pool(log: log, name: "scoped") }.lifetime(.scoped)
      .onClean { pool in await pool.close() }
    let scope = container.makeScope()
    let _: Pool = try scope.tryResolve()
    await scope.closeAwaitingHooks()
    #expect(log.all == ["closed scoped"])
    await scope.closeAwaitingHooks()
    #expect(log.all == ["closed scoped"], "once")
  }
}

/// A scoped object whose hook counts how often it ran.
private final class Counted: Sendable {
  let closes = Atomic(0)
}

/// The `Counted` objects a factory made, from any thread (an `NSLock`, which
/// ThreadSanitizer sees; see `Counter`).
private final class MadeObjects: @unchecked Sendable {
  private let lock = NSLock()
  private var objects: [Counted] = []

  var all: [Counted] { lock.withLock { objects } }

  func append(_ object: Counted) {
    lock.withLock { objects.append(object) }
  }
}

@Suite struct ShutdownRaceTests {
  /// Tasks open, use and close request scopes while `shutdown()` runs: every instance's
  /// hook runs exactly once, whoever drops it (the scope's close or the shutdown), and a
  /// scope recorded after another one's place was freed is never lost or closed twice.
  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func scopesOpenedAndClosedDuringShutdownRunEachHookOnce() async {
    let container = DIContainer()
    let made = MadeObjects()
    container.register { () -> Counted in
      let counted = Counted()
      made.append(counted)
      return counted
    }
    .lifetime(.scoped)
    .onClean { $0.closes.add(1, ordering: .relaxed) }
    await withTaskGroup(of: Void.self) { group in
      for task in 0..<8 {
        group.addTask {
          for round in 0..<200 {
            let scope = container.makeScope()
            let _: Counted? = try? scope.tryResolve()
            if (task + round) % 3 != 0 { scope.close() }
          }
        }
      }
      group.addTask { await container.shutdown() }
    }
    // Scopes left open are closed as they go (their last reference is gone by now).
    let counts = made.all.map { $0.closes.load(ordering: .relaxed) }
    #expect(!counts.isEmpty)
    #expect(counts.allSatisfy { $0 == 1 }, "every hook once: \(Set(counts))")
  }
}

/// A connection whose hook counts how often it ran.
private final class LateConnection: Sendable {
  let closes = Atomic<Int>(0)
}

@Suite struct ShutdownInFlightTests {
  /// A request that is making a `.perContainer(.single)` instance when the container shuts
  /// down gets it, but the container keeps nothing from then on: the instance's hook runs
  /// at once, instead of the instance staying in a cell that nothing will clean again.
  @Test func anInstanceMadeWhileTheContainerShutsDownHasItsHookRun() async {
    let container = DIContainer()
    let entered = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    container.register { () -> LateConnection in
      entered.signal()
      release.wait()
      return LateConnection()
    }
    .lifetime(.perContainer(.single))
    .onClean { $0.closes.add(1, ordering: .relaxed) }

    let made = LockedValue<LateConnection?>(nil)
    let requestEnded = DispatchSemaphore(value: 0)
    let thread = Thread {
      let connection: LateConnection? = try? container.tryResolve()
      made.withLock { $0 = connection }
      requestEnded.signal()
    }
    thread.start()
    let factoryRan = await waitForSignals(of: entered, count: 1, until: hangDeadline(in: 10))
    #expect(factoryRan, "the factory never ran")
    guard factoryRan else {
      release.signal()
      return
    }
    await container.shutdown()
    release.signal()
    let ended = await waitForSignals(of: requestEnded, count: 1, until: hangDeadline(in: 10))
    #expect(ended, "the request under way never ended")
    let connection = made.current
    #expect(connection != nil, "the request under way gets its instance")
    #expect(connection?.closes.load(ordering: .relaxed) == 1, "its hook ran once")
    let error = #expect(throws: DIError.self) {
      let _: LateConnection = try container.tryResolve()
    }
    #expect(error?.code == .containerShutDown)
  }

  /// An async `.custom(scope)` making that ends after `shutdown()` dropped the scope's
  /// instances: the scope keeps nothing and the instance's hook runs once (the request,
  /// which goes on after the making, fails as every request does after shutdown).
  @Test(
    .timeLimit(.minutes(TestEnvironment.hangMinutes)),
    arguments: ["sync hook", "async hook"])
  func anAsyncCustomScopeInstanceFinishedAfterShutdownBeganIsCleanedOnce(
    hook: String
  ) async throws {
    let container = DIContainer()
    let storage = DICacheStorage()
    let session = DIScope(name: "LateSession", storage: storage)
    let gate = Gate()
    let closes = Counter()
    let closed = Signal()
    let builder = container.register { () async -> LateConnection in
      await gate.pass()
      return LateConnection()
    }
    .lifetime(.custom(session))
    if hook == "sync hook" {
      builder.onClean { _ in
        _ = closes.next()
        closed.signal()
      }
    } else {
      builder.onClean { _ in
        await Task.yield()
        _ = closes.next()
        closed.signal()
      }
    }
    let request = Task { () throws(DIError) -> LateConnection in
      try await container.resolveAsync()
    }
    #expect(await gate.waitForArrivals(1, seconds: 600), "the factory never ran")
    await container.shutdown()
    gate.open()
    if case .failure(let error) = await request.result {
      #expect((error as? DIError)?.code == .containerShutDown)
    }
    #expect(await closed.wait(untilCount: 1, seconds: 600), "the late instance's hook never ran")
    for _ in 0..<100 { await Task.yield() }
    #expect(closes.value == 1, "the late instance's hook ran once")
    #expect(storage.count == 0, "the scope keeps nothing after shutdown")
  }
}

private final class SharedPool: Sendable {}

/// Registers the one `.single` pool of a registration site shared by every container that
/// calls it.
private func registerSharedPool(in container: DIContainer, cleaned: Counter) {
  container.register(SharedPool.init)
    .lifetime(.single)
    .onClean { _ in _ = cleaned.next() }
}

@Suite struct ConcurrentShutdownTests {
  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func concurrentShutdownCallsAllReturnAfterEveryHookRan() async throws {
    let container = DIContainer()
    let gate = Gate()
    let done = Counter()
    // 21 cached instances, each with an async hook that waits at the gate.
    container.register { Pool(log: EventLog(), name: "\(arg($0) as Int)") }
      .lifetime(.multiton)
      .onClean { _ in
        await gate.pass()
        _ = done.next()
      }
    for index in 0..<21 {
      let _: Pool = try container.tryResolve(arguments: [index])
    }
    let first = Task { () -> Int in
      await container.shutdown()
      return done.value
    }
    // The first call is running its hooks: the second one starts while they wait.
    #expect(await gate.waitForArrivals(1, seconds: 600))
    let second = Task { () -> Int in
      await container.shutdown()
      return done.value
    }
    for _ in 0..<100 { await Task.yield() }
    gate.open()
    #expect(await first.value == 21)
    #expect(await second.value == 21, "the second call returned before the hooks had run")
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func aSingleSharedByTwoContainersIsCleanedByTheLastOneToShutDown() async throws {
    let cleaned = Counter()
    let first = DIContainer()
    let second = DIContainer()
    registerSharedPool(in: first, cleaned: cleaned)
    registerSharedPool(in: second, cleaned: cleaned)
    let fromFirst: SharedPool = try first.tryResolve()
    let fromSecond: SharedPool = try second.tryResolve()
    #expect(fromFirst === fromSecond)

    await first.shutdown()
    #expect(cleaned.value == 0, "the second container still hands the pool out")
    let again: SharedPool = try second.tryResolve()
    #expect(again === fromFirst)

    await second.shutdown()
    #expect(cleaned.value == 1)
  }
}
