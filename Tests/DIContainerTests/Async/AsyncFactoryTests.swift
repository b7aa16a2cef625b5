import DIContainer
import DITestSupport
import Synchronization
import Testing

// Async factories, resolveAsync, AsyncLazy and AsyncProvider.

private struct ConnectFailed: Error {}

private final class Config: Sendable {
  let url = "postgres://db"
}

/// A pool that connects asynchronously, counting its connections.
private final class Pool: Sendable {
  static let connections = Atomic(0)
  let config: Config
  init(config: Config) async throws {
    try await Task.sleep(for: .milliseconds(10))
    self.config = config
    Self.connections.add(1, ordering: .relaxed)
  }
}

private final class Repository: Sendable {
  let pool: Pool
  init(pool: Pool) { self.pool = pool }
}

private final class Service: Sendable {
  let repository: Repository
  let config: Config
  init(repository: Repository, config: Config) {
    self.repository = repository
    self.config = config
  }
}

private final class Slow: Sendable {
  init() async {
    try? await Task.sleep(for: .milliseconds(100))
  }
}

private final class Ping: Sendable {
  init(pong: Pong) async {}
}
private final class Pong: Sendable {
  init(ping: Ping) async {}
}

private final class Report: Sendable {
  let pool: AsyncLazy<Pool>
  let pools: AsyncProvider<Pool>
  init(pool: AsyncLazy<Pool>, pools: AsyncProvider<Pool>) {
    self.pool = pool
    self.pools = pools
  }
}

@Suite(.serialized) struct AsyncFactoryTests {
  private func container() -> DIContainer {
    let container = DIContainer()
    container.register(Config.init).lifetime(.perContainer(.single))
    container.register(Pool.init).lifetime(.perContainer(.single))
    container.register(Repository.init)
    container.register(Service.init)
    return container
  }

  @Test func resolveAsyncAwaitsTheAsyncFactoriesOfTheGraph() async throws {
    let container = container()
    let service: Service = try await container.resolveAsync()
    #expect(service.repository.pool.config === service.config)
    let again: Service = try await container.resolveAsync()
    #expect(again.repository.pool === service.repository.pool, "kept by its lifetime")
  }

  @Test func aSynchronousRequestForAnAsyncComponentNotMadeSaysWhatToDo() throws {
    let container = container()
    let error = #expect(throws: DIError.self) { let _: Service = try container.tryResolve() }
    #expect(error?.code == .asyncFactory)
    #expect(error?.path.map(\.requested) == ["Service", "Repository", "Pool"])
    #expect(error?.description.contains("resolve it with try await resolveAsync()") == true)
  }

  @Test func onceMadeASynchronousRequestReadsIt() async throws {
    let container = container()
    try await container.initializeSingletonObjectsAsync()  // no .single: nothing made
    let _: Pool = try await container.resolveAsync()
    let service: Service = try container.tryResolve()
    #expect(service.repository.pool.config === service.config)
  }

  @Test func initializeSingletonObjectsAsyncMakesThemAtBoot() async throws {
    let container = DIContainer()
    container.register(Config.init)
    container.register(Pool.init).lifetime(.single)
    try await container.initializeSingletonObjectsAsync()
    let pool: Pool = try container.tryResolve()
    #expect(pool === (try container.tryResolve() as Pool))
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func sixtyFourTasksGetOneInstanceInAboutTheFactorysTime() async throws {
    let container = DIContainer()
    let made = Atomic(0)
    container.register { () async -> Slow in
      made.add(1, ordering: .relaxed)
      return await Slow()
    }.lifetime(.perContainer(.single))
    let clock = ContinuousClock()
    let start = clock.now
    let instances = try await withThrowingTaskGroup(of: ObjectIdentifier.self) { group in
      for _ in 0..<64 {
        group.addTask { ObjectIdentifier(try await container.resolveAsync() as Slow) }
      }
      return try await group.reduce(into: Set<ObjectIdentifier>()) { $0.insert($1) }
    }
    let elapsed = clock.now - start
    #expect(instances.count == 1)
    #expect(made.load(ordering: .relaxed) == 1)
    // Blocked threads instead of suspended tasks would take 64 factory times; the bound is
    // longer in a slow build, whose busy pool can delay any task.
    #expect(
      elapsed < .seconds(TestEnvironment.limit(5)), "the waiting tasks suspend; took \(elapsed)")
  }

  /// A task that finds the making in progress but only waits after it ended finds the
  /// instance it kept: it makes no second one. Many short makings, so that moment comes.
  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func aTaskThatComesAsTheMakingEndsFindsItsInstance() async throws {
    for _ in 0..<300 {
      let container = DIContainer()
      let made = Atomic(0)
      container.register { () async -> Config in
        made.add(1, ordering: .relaxed)
        await Task.yield()
        return Config()
      }.lifetime(.perContainer(.single))
      let instances = try await withThrowingTaskGroup(of: ObjectIdentifier.self) { group in
        for _ in 0..<4 {
          group.addTask { ObjectIdentifier(try await container.resolveAsync() as Config) }
        }
        return try await group.reduce(into: Set<ObjectIdentifier>()) { $0.insert($1) }
      }
      #expect(instances.count == 1)
      try #require(made.load(ordering: .relaxed) == 1, "made once")
    }
  }

  @Test func aFactoryThatThrowsThenSucceedsCachesOnlyTheSuccess() async throws {
    let container = DIContainer()
    let attempts = Atomic(0)
    container.register { () async throws -> Config in
      if attempts.add(1, ordering: .relaxed).newValue == 1 { throw ConnectFailed() }
      return Config()
    }.lifetime(.perContainer(.single))
    let error = await #expect(throws: DIError.self) {
      let _: Config = try await container.resolveAsync()
    }
    #expect(error?.code == .factoryFailed)
    #expect(error?.underlyingError is ConnectFailed)
    let first: Config = try await container.resolveAsync()
    let second: Config = try await container.resolveAsync()
    #expect(first === second)
    #expect(attempts.load(ordering: .relaxed) == 2)
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func cancellingTheCreatingTaskCachesNothingAndAWaiterMakesItItself() async throws {
    let container = DIContainer()
    let started = Atomic(0)
    container.register { () async throws -> Slow in
      // The first making lasts until it is cancelled: the test's timing cannot end it.
      if started.add(1, ordering: .relaxed).newValue == 1 {
        while true { try await Task.sleep(for: .milliseconds(10)) }
      }
      return await Slow()
    }.lifetime(.perContainer(.single))
    let creator = Task { try await container.resolveAsync() as Slow }
    while started.load(ordering: .relaxed) == 0 { await Task.yield() }
    let waiter = Task { try await container.resolveAsync() as Slow }
    // Time for the waiter to start waiting, on a loaded machine too.
    try await Task.sleep(for: .milliseconds(500))
    creator.cancel()
    await #expect(throws: DIError.self) { _ = try await creator.value }
    let made = try await waiter.value
    #expect(made === (try await container.resolveAsync() as Slow))
    #expect(started.load(ordering: .relaxed) == 2, "the waiter tried again")
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func aLoopBetweenAsyncSingletonsIsAnError() async {
    let container = DIContainer()
    container.register(Ping.init).lifetime(.perContainer(.single))
    container.register(Pong.init).lifetime(.perContainer(.single))
    let error = await #expect(throws: DIError.self) {
      let _: Ping = try await container.resolveAsync()
    }
    #expect(error?.code == .cycle)
    #expect(error?.description.contains("Ping") == true)
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func aLoopBetweenTwoTasksSingletonsEndsInAnError() async {
    let container = DIContainer()
    container.register(Ping.init).lifetime(.perContainer(.single))
    container.register(Pong.init).lifetime(.perContainer(.single))
    async let ping: Ping = container.resolveAsync()
    async let pong: Pong = container.resolveAsync()
    let results = [
      await (try? ping) == nil,
      await (try? pong) == nil,
    ]
    #expect(results == [true, true])
  }

  @Test func asyncLazyAndAsyncProviderAwaitAtValue() async throws {
    let container = container()
    container.register(Report.init)
    let report: Report = try container.tryResolve()  // synchronous: nothing async made yet
    #expect(!report.pool.wasMade)
    #expect(report.pool.description == "AsyncLazy<Pool> (not made yet)")
    let pool = try await report.pool.value
    #expect(pool === (try await report.pool.value))
    #expect(pool === (try await report.pools.value), "the provider's is the cached one")
  }

  @Test func resolveAsyncHasEveryForm() async throws {
    let container = container()
    let optional: Pool? = try await container.resolveAsync()
    #expect(optional != nil)
    let all: [Pool] = many(try await container.resolveAsync())
    #expect(all.count == 1)
    let scope = container.makeScope()
    let scoped: Service = try await scope.resolveAsync()
    #expect(scoped.repository.pool === all.first)
    scope.close()
    await #expect(throws: DIError.self) { let _: Service = try await scope.resolveAsync() }
  }

  @Test func aSynchronousClosureStillPicksTheSynchronousRegister() async throws {
    let container = DIContainer()
    container.register { Config() }
    // Synchronous: resolvable by a synchronous request, even registered in an async function.
    let config: Config = try container.tryResolve()
    #expect(config.url == "postgres://db")
  }
}
