import DIContainer
import DITestSupport
import Testing

// SPEC.md, "Async and throwing factories", the `shutdown()` bullet: shutdown loses nothing;
// concurrent calls all return after every hook; a process-wide instance is cleaned when the
// last container that handed it out shuts down.

final class SOShutdownPool: Sendable {
  let id: Int
  init(id: Int) { self.id = id }
}
final class SOSharedSingle: Sendable {}
final class SOSharedApplication: Sendable {}
final class SOShutdownProbe: Sendable {}

@Suite struct SOShutdownSpecTests {
  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func concurrentShutdownCallsAllReturnAfterEveryHook() async throws {
    let container = DIContainer()
    let gate = Gate()
    let events = EventLog<String>()
    container.register { SOShutdownPool(id: 1) }.lifetime(.perContainer(.single))
      .onClean { _ in
        await gate.pass()
        events.append("hook done")
      }
    let _: SOShutdownPool = try await container.resolveAsync()
    let first = Task {
      await container.shutdown()
      events.append("first returned")
    }
    try await gate.awaitArrivals(1)  // the first shutdown is inside the hook
    let started = Signal()
    let others = (0..<4).map { index in
      Task {
        started.signal()
        await container.shutdown()
        events.append("other \(index) returned")
      }
    }
    #expect(await started.wait(untilCount: 4))
    // Give a wrong early return every chance to happen before the hook ends.
    for _ in 0..<50 { await Task.yield() }
    try await Task.sleep(for: .milliseconds(20))
    #expect(events.all.isEmpty, "no shutdown returned while a hook still runs")
    gate.open()
    await first.value
    for other in others { await other.value }
    #expect(events.all.first == "hook done", "\(events.all)")
    #expect(events.count == 6)
    #expect(events.all.filter { $0 == "hook done" }.count == 1, "the hook ran once")
  }

  /// Registers `T` on two containers through `register` (one registration site, so one
  /// process-wide instance) and checks that only the last container to shut down cleans it.
  private static func expectCleanedByTheLastToShutDown<T: AnyObject & Sendable>(
    _ type: T.Type, register: (DIContainer, Counter) -> Void
  ) async throws {
    let cleaned = Counter()
    let first = DIContainer()
    let second = DIContainer()
    register(first, cleaned)
    register(second, cleaned)
    let a: T = try await first.resolveAsync()
    let b: T = try await second.resolveAsync()
    #expect(a === b, "one instance for one registration site")
    await first.shutdown()
    #expect(cleaned.value == 0, "the second container still hands it out")
    let again: T = try await second.resolveAsync()
    #expect(again === a, "still the same instance in the container that did not shut down")
    await second.shutdown()
    #expect(cleaned.value == 1, "the last container to shut down cleans it, once")
  }

  @Test func aSingleSharedByTwoContainersIsCleanedOnlyByTheLastToShutDown() async throws {
    try await Self.expectCleanedByTheLastToShutDown(SOSharedSingle.self) { container, cleaned in
      container.register(SOSharedSingle.init).lifetime(.single).onClean { _ in cleaned.next() }
    }
  }

  @Test func aPerApplicationSharedByTwoContainersIsCleanedOnlyByTheLastToShutDown() async throws {
    try await Self.expectCleanedByTheLastToShutDown(SOSharedApplication.self) {
      container, cleaned in
      container.register(SOSharedApplication.init).lifetime(.perApplication(.single))
        .onClean { _ in cleaned.next() }
    }
  }

  /// A request that makes an instance asynchronously, started before `shutdown()`, finishes
  /// after shutdown began: its instance is cleaned exactly once.
  @Test(
    .timeLimit(.minutes(TestEnvironment.hangMinutes)),
    arguments: ["perContainer", "multiton", "custom", "scoped"])
  func anAsyncMakingFinishingAfterShutdownBeganIsCleanedOnce(lifetime name: String)
    async throws
  {
    let container = DIContainer()
    let gate = Gate()
    let cleaned = Signal()
    let lifetime: DILifetime =
      switch name {
      case "perContainer": .perContainer(.single)
      case "multiton": .multiton
      case "custom": .custom(DIScope(name: "SOShutdownLate-\(name)", storage: DICacheStorage()))
      default: .scoped
      }
    container.register { (key: DIArg<String>) async -> SOShutdownPool in
      await gate.pass()
      return SOShutdownPool(id: key.value.count)
    }
    .lifetime(lifetime)
    .onClean { _ in cleaned.signal() }
    container.register(SOShutdownProbe.init)
    let scope = container.makeScope()
    let making = Task { () -> SOShutdownPool? in
      if name == "scoped" {
        return try? await scope.resolveAsync(arg: "late")
      }
      return try? await container.resolveAsync(arg: "late")
    }
    try await gate.awaitArrivals(1)
    let shutdown = Task { await container.shutdown() }
    // Shutdown has begun once a new request fails with `.containerShutDown`.
    while true {
      do {
        let _: SOShutdownProbe = try await container.resolveAsync()
        await Task.yield()
      } catch {
        #expect(error.code == .containerShutDown)
        break
      }
    }
    gate.open()
    _ = await making.value
    await shutdown.value
    #expect(await cleaned.wait(untilCount: 1), "\(name): the late instance is cleaned")
    await container.shutdown()
    scope.close()
    #expect(cleaned.value == 1, "\(name): cleaned exactly once")
  }

  /// Makes a `.perContainer` instance whose async making finishes after `shutdown()` began;
  /// returns once that making and that shutdown have returned.
  private static func makeLateInstance(
    _ container: DIContainer, hook: @escaping @Sendable () async -> Void
  ) async throws {
    let gate = Gate()
    container.register { () async -> SOShutdownPool in
      await gate.pass()
      return SOShutdownPool(id: 1)
    }
    .lifetime(.perContainer(.single))
    .onClean { _ in await hook() }
    container.register(SOShutdownProbe.init)
    let making = Task { try? await container.resolveAsync() as SOShutdownPool }
    try await gate.awaitArrivals(1)
    let shutdown = Task { await container.shutdown() }
    while (try? await container.resolveAsync() as SOShutdownProbe) != nil { await Task.yield() }
    gate.open()
    _ = await making.value
    await shutdown.value
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func theAsyncHookOfALateInstanceRunsOnce() async throws {
    let container = DIContainer()
    let cleaned = Counter()
    let hookEnded = Signal()
    try await Self.makeLateInstance(container) {
      await Task.yield()
      cleaned.next()
      hookEnded.signal()
    }
    #expect(await hookEnded.wait(), "the late instance's async hook runs")
    await container.shutdown()
    #expect(cleaned.value == 1, "once")
  }

  /// "shutdown() waits for every such task" (async hooks started on tasks of their own) and
  /// "concurrent shutdown() calls all return after every hook has run".
  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func aLaterShutdownAwaitsTheAsyncHookOfALateInstance() async throws {
    let container = DIContainer()
    let cleaned = Counter()
    try await Self.makeLateInstance(container) {
      await Task.yield()
      cleaned.next()
    }
    await container.shutdown()  // returns after every hook, the late one's included
    #expect(cleaned.value == 1, "shutdown() returned before the late async hook ended")
  }

  /// A making that finishes while `shutdown()` is still running its hooks: that call returns
  /// after the late instance's hook too ("returns after every hook has run").
  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func aShutdownStillRunningAwaitsTheHookOfAMakingThatFinishedDuringIt() async throws {
    let container = DIContainer()
    let making = Gate()
    let earlyHook = Gate()
    let lateHook = Gate()
    let events = EventLog<String>()
    container.register { SOShutdownProbe() }.lifetime(.perContainer(.single))
      .onClean { _ in
        await earlyHook.pass()
        events.append("early hook")
      }
    container.register { () async -> SOShutdownPool in
      await making.pass()
      return SOShutdownPool(id: 1)
    }
    .lifetime(.perContainer(.single))
    .onClean { _ in
      await lateHook.pass()
      events.append("late hook")
    }
    let _: SOShutdownProbe = try await container.resolveAsync()
    let late = Task { try? await container.resolveAsync() as SOShutdownPool }
    try await making.awaitArrivals(1)
    let shutdown = Task {
      await container.shutdown()
      events.append("shutdown returned")
    }
    try await earlyHook.awaitArrivals(1)  // shutdown is running its hooks
    making.open()
    _ = await late.value  // made during shutdown
    try await lateHook.awaitArrivals(1)  // its hook started
    earlyHook.open()
    // Give a wrong early return every chance to happen while the late hook still runs.
    for _ in 0..<50 { await Task.yield() }
    try await Task.sleep(for: .milliseconds(20))
    lateHook.open()
    await shutdown.value
    #expect(events.all.last == "shutdown returned", "\(events.all)")
    #expect(events.all.sorted() == ["early hook", "late hook", "shutdown returned"])
  }

  @Test func shuttingDownAChildNeverTouchesItsParentsInstances() async throws {
    let parent = DIContainer()
    let cleaned = EventLog<String>()
    parent.register { SOShutdownPool(id: 1) }.lifetime(.perContainer(.single))
      .onClean { _ in cleaned.append("parent") }
    let child = DIContainer(parent: parent)
    child.register(SOShutdownProbe.init).lifetime(.perContainer(.single))
      .onClean { _ in cleaned.append("child") }
    let pool: SOShutdownPool = try await child.resolveAsync()
    let _: SOShutdownProbe = try await child.resolveAsync()
    await child.shutdown()
    #expect(cleaned.all == ["child"])
    #expect(try await parent.resolveAsync() as SOShutdownPool === pool)
    let error = await #expect(throws: DIError.self) {
      let _: SOShutdownPool = try await child.resolveAsync()
    }
    #expect(error?.code == .containerShutDown)
    await parent.shutdown()
    #expect(cleaned.all == ["child", "parent"])
  }
}
