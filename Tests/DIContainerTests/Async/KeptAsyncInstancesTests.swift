import DIContainer
import DITestSupport
import Dispatch
import Testing

// An asynchronous request skips its plan while every async component its container can meet
// keeps its instance (a server's async singletons, once made), and plans again as soon as one
// is dropped or a registration changes what it can meet. A request that skipped its plan
// wrongly would meet the unmade async component in its synchronous pass and build that pass
// again: the synchronous prototype each graph builds first would run twice for one instance.
//
// What outdates a verdict is counted process-wide, so a test running beside these can hide a
// change that is not counted: `.ci/run` also runs this suite alone.

/// Sync prototype, built before the async component beside it.
private final class KATrace: Sendable {}

/// Async cached component.
private final class KAPool: Sendable {}

/// A second async cached component, registered later.
private final class KACache: Sendable {}

/// Sync prototype over the trace, then the pool.
private final class KAHandler: Sendable {
  let trace: KATrace
  let pool: KAPool
  init(trace: KATrace, pool: KAPool) {
    self.trace = trace
    self.pool = pool
  }
}

/// Sync prototype over the trace, then the cache.
private final class KAReport: Sendable {
  let trace: KATrace
  let cache: KACache
  init(trace: KATrace, cache: KACache) {
    self.trace = trace
    self.cache = cache
  }
}

/// Registers the counted trace and the handler in `container`.
private func registerHandler(in container: DIContainer, traces: Counter) {
  container.register { () -> KATrace in
    traces.next()
    return KATrace()
  }
  container.register(KAHandler.init)
}

/// Sync `.perContainer(.single)`, made async later by an async `postInit`.
private final class KAConfig: Sendable {}

/// Sync prototype over the trace, then the config.
private final class KAAudit: Sendable {
  init(trace: KATrace, config: KAConfig) {}
}

/// Registers the async pool in `container`, with `lifetime`, counting its makings.
@discardableResult
private func registerPool(
  in container: DIContainer, lifetime: DILifetime, pools: Counter
) -> DIComponentBuilder<KAPool> {
  container.register { () async -> KAPool in
    pools.next()
    await Task.yield()
    return KAPool()
  }.lifetime(lifetime)
}

/// Registers the async `.perContainer(.single)` cache and the report over it in `container`.
private func registerReport(in container: DIContainer, caches: Counter) {
  container.register { () async -> KACache in
    caches.next()
    await Task.yield()
    return KACache()
  }.lifetime(.perContainer(.single))
  container.register(KAReport.init)
}

/// A container of the handler over an async `.perContainer(.single)` pool, after two requests:
/// the first makes the pool, the second finds it kept and stores the verdict. Returns the
/// pool's builder too, for a test that edits it.
private func containerWithAVerdict() async throws -> (
  container: DIContainer, traces: Counter, pools: Counter, pool: DIComponentBuilder<KAPool>
) {
  let container = DIContainer()
  let (traces, pools) = (Counter(), Counter())
  registerHandler(in: container, traces: traces)
  let pool = registerPool(in: container, lifetime: .perContainer(.single), pools: pools)
  _ = try await container.resolveAsync() as KAHandler
  _ = try await container.resolveAsync() as KAHandler
  #expect((traces.value, pools.value) == (2, 1))
  return (container, traces, pools, pool)
}

@Suite struct KeptAsyncInstancesTests {
  @Test func aRequestAfterTheAsyncSingletonIsCleanedMakesItAgainBeforeItsPass() async throws {
    let (container, traces, pools, _) = try await containerWithAVerdict()

    container.clean()
    let handler: KAHandler = try await container.resolveAsync()
    #expect((traces.value, pools.value) == (3, 2))
    let scoped: KAHandler = try await container.makeScope().resolveAsync()
    #expect(scoped.pool === handler.pool)
    #expect(traces.value == 4)
  }

  @Test func aRequestAfterANewAsyncRegistrationMakesItBeforeItsPass() async throws {
    let (container, traces, _, _) = try await containerWithAVerdict()
    let caches = Counter()

    registerReport(in: container, caches: caches)
    _ = try await container.resolveAsync() as KAReport
    #expect((traces.value, caches.value) == (3, 1))
  }

  @Test func aChildsRequestAfterItsParentIsCleanedMakesTheParentsSingletonBeforeItsPass()
    async throws
  {
    let parent = DIContainer()
    let (traces, pools) = (Counter(), Counter())
    registerPool(in: parent, lifetime: .perContainer(.single), pools: pools)
    let child = DIContainer(parent: parent)
    registerHandler(in: child, traces: traces)
    _ = try await child.resolveAsync() as KAHandler
    _ = try await child.resolveAsync() as KAHandler
    #expect((traces.value, pools.value) == (2, 1))

    parent.clean()
    _ = try await child.resolveAsync() as KAHandler
    #expect((traces.value, pools.value) == (3, 2))
  }

  @Test func aChildsRequestAfterItsParentRegistersAnAsyncComponentMakesItBeforeItsPass()
    async throws
  {
    let parent = DIContainer()
    let (traces, pools, caches) = (Counter(), Counter(), Counter())
    registerPool(in: parent, lifetime: .perContainer(.single), pools: pools)
    let child = DIContainer(parent: parent)
    registerHandler(in: child, traces: traces)
    _ = try await child.resolveAsync() as KAHandler
    _ = try await child.resolveAsync() as KAHandler

    registerReport(in: parent, caches: caches)
    _ = try await child.resolveAsync() as KAReport
    #expect((traces.value, caches.value) == (3, 1))
  }

  @Test func aChildOfAParentWithAnAsyncPrototypeMakesItBeforeEachPass() async throws {
    let parent = DIContainer()
    let (traces, pools) = (Counter(), Counter())
    registerPool(in: parent, lifetime: .prototype, pools: pools)
    let child = DIContainer(parent: parent)
    registerHandler(in: child, traces: traces)
    for round in 1...3 {
      _ = try await child.resolveAsync() as KAHandler
      #expect((traces.value, pools.value) == (round, round))
    }
  }

  @Test(arguments: [DILifetime.prototype, .perContainer(.weak)])
  func aRequestAfterTheAsyncSingletonsLifetimeChangesMakesItBeforeEachPass(
    _ lifetime: DILifetime
  ) async throws {
    let (container, traces, pools, pool) = try await containerWithAVerdict()

    pool.lifetime(lifetime)
    for round in 1...2 {
      _ = try await container.resolveAsync() as KAHandler
      #expect((traces.value, pools.value) == (2 + round, 1 + round))
    }
  }

  @Test func aRequestAfterASingletonBecomesAsyncMakesItBeforeItsPass() async throws {
    let container = DIContainer()
    let (traces, pools, postInits) = (Counter(), Counter(), Counter())
    registerHandler(in: container, traces: traces)
    registerPool(in: container, lifetime: .perContainer(.single), pools: pools)
    let config = container.register(KAConfig.init).lifetime(.perContainer(.single))
    container.register(KAAudit.init)
    _ = try await container.resolveAsync() as KAHandler
    _ = try await container.resolveAsync() as KAHandler

    config.postInit { _ async in
      postInits.next()
      await Task.yield()
    }
    _ = try await container.resolveAsync() as KAAudit
    #expect((traces.value, postInits.value) == (3, 1))
  }

  @Test func aSingleCleanedByItsLastContainerIsMadeAgainForANewContainer() async throws {
    let (traces, pools) = (Counter(), Counter())
    let first = DIContainer()
    registerHandler(in: first, traces: traces)
    registerPool(in: first, lifetime: .single, pools: pools)
    _ = try await first.resolveAsync() as KAHandler
    _ = try await first.resolveAsync() as KAHandler

    // The process-wide cell is shared by the registration site: the first container's
    // shutdown drops its instance, and the second container makes it again before its pass.
    await first.shutdown()
    let second = DIContainer()
    registerHandler(in: second, traces: traces)
    registerPool(in: second, lifetime: .single, pools: pools)
    _ = try await second.resolveAsync() as KAHandler
    _ = try await second.resolveAsync() as KAHandler
    #expect((traces.value, pools.value) == (4, 2))
    await second.shutdown()
  }

  @Test func aWeakAsyncSingletonThatDiedIsMadeAgainBeforeThePass() async throws {
    let container = DIContainer()
    let (traces, pools) = (Counter(), Counter())
    registerHandler(in: container, traces: traces)
    registerPool(in: container, lifetime: .perContainer(.weak), pools: pools)
    let pool = WeakBox<KAPool>()
    do {
      let handler: KAHandler = try await container.resolveAsync()
      pool.object = handler.pool
      _ = try await container.resolveAsync() as KAHandler
    }
    #expect(pool.object == nil)
    _ = try await container.resolveAsync() as KAHandler
    #expect((traces.value, pools.value) == (3, 2))
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func requestsRacingCleansMakeOnePoolPerCleanAndKeepTheirVerdictTrueAfterwards() async throws {
    let (container, traces, pools, _) = try await containerWithAVerdict()
    let (tasks, requests, cleans) = (16, TestEnvironment.rounds(200), TestEnvironment.rounds(100))

    // Cleaning runs on a dispatch thread (it may wait for readers of the instance it
    // drops), awaited without blocking a cooperative thread.
    async let cleaning: Void = withCheckedContinuation { done in
      DispatchQueue.global().async {
        for _ in 0..<cleans { container.clean() }
        done.resume()
      }
    }
    try await withThrowingTaskGroup(of: Void.self) { group in
      for _ in 0..<tasks {
        group.addTask {
          for _ in 0..<requests { _ = try await container.resolveAsync() as KAHandler }
        }
      }
      try await group.waitForAll()
    }
    await cleaning

    // One making per instance a clean dropped, and every request built its handler.
    #expect(pools.value <= 1 + cleans)
    #expect(traces.value >= 2 + tasks * requests)
    // Settled: the next requests store a verdict again and run each factory once.
    _ = try await container.resolveAsync() as KAHandler
    _ = try await container.resolveAsync() as KAHandler
    let (madeTraces, madePools) = (traces.value, pools.value)
    _ = try await container.resolveAsync() as KAHandler
    #expect((traces.value, pools.value) == (madeTraces + 1, madePools))
  }

  @Test func aShutDownContainersRequestFailsWithoutRunningAFactory() async throws {
    let (container, traces, pools, _) = try await containerWithAVerdict()

    await container.shutdown()
    await #expect(throws: DIError.self) { _ = try await container.resolveAsync() as KAHandler }
    #expect((traces.value, pools.value) == (2, 1))
  }
}
