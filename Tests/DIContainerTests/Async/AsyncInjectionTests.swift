import DIContainer
import DITestSupport
import Synchronization
import Testing

// Async injection closures, async postInit, injectAsync(into:) and AsyncLazy1…5.

private struct WarmUpFailed: Error {}

/// What happened, in order, across the objects of one test.
private final class Journal: Sendable {
  private let entries = Mutex<[String]>([])
  func add(_ entry: String) { entries.withLock { $0.append(entry) } }
  var all: [String] { entries.withLock { $0 } }
}

/// A pool that connects asynchronously.
private final class Pool: Sendable {
  init() async {
    await Task.yield()
  }
}

private final class Meal: Sendable {}

/// A consumer injected synchronously and asynchronously, recording the order.
private final class Consumer: Sendable {
  let journal: Journal
  private let state = Mutex<(pool: Pool?, food: Meal?)>((nil, nil))
  init(journal: Journal) { self.journal = journal }
  var pool: Pool? { state.withLock { $0.pool } }
  var food: Meal? { state.withLock { $0.food } }
  func subscribe(_ pool: Pool) async {
    await Task.yield()
    state.withLock { $0.pool = pool }
    journal.add("subscribe")
  }
  func feed(_ food: Meal) {
    state.withLock { $0.food = food }
    journal.add("feed")
  }
}

/// Counts its instances and warm-ups; the warm-up fails while `failing` is set.
private final class Cache: Sendable {
  static let made = Atomic(0)
  static let warmUps = Atomic(0)
  static let failing = Atomic(false)
  init() { Self.made.add(1, ordering: .relaxed) }
  func warmUp() async throws {
    try await Task.sleep(for: .milliseconds(50))
    if Self.failing.load(ordering: .relaxed) { throw WarmUpFailed() }
    Self.warmUps.add(1, ordering: .relaxed)
  }
}

private final class Screen: Sendable {
  private let poolBox = Mutex<Pool?>(nil)
  var pool: Pool? { poolBox.withLock { $0 } }
  func attach(_ pool: Pool) async { poolBox.withLock { $0 = pool } }
}

private final class Session: Sendable {
  let user: String
  let seat: Int
  let pool: Pool
  init(user: String, seat: Int = 0, pool: Pool) {
    self.user = user
    self.seat = seat
    self.pool = pool
  }
}

private final class Loop: Sendable {
  let partner = Mutex<Partner?>(nil)
}
private final class Partner: Sendable {
  let loop: Loop
  init(loop: Loop) { self.loop = loop }
}

@Suite(.serialized) struct AsyncInjectionTests {
  @Test func asyncInjectionsAndPostInitRunInRegistrationOrderAfterTheInitializer() async throws {
    let container = DIContainer()
    let journal = Journal()
    container.register { journal }.lifetime(.perContainer(.single))
    container.register(Pool.init).lifetime(.perContainer(.single))
    container.register(Meal.init)
    container.register(Consumer.init)
      .injection { (consumer: Consumer, pool: Pool) async in await consumer.subscribe(pool) }
      .injection { consumer, food in consumer.feed(food) }
      .postInit { consumer in consumer.journal.add("post 1") }
      .postInit { consumer in
        await Task.yield()
        consumer.journal.add("post 2")
      }
    let consumer: Consumer = try await container.resolveAsync()
    let pool: Pool = try await container.resolveAsync()
    #expect(consumer.pool === pool, "the async injection got the async component")
    #expect(consumer.food != nil)
    #expect(journal.all == ["subscribe", "feed", "post 1", "post 2"])
  }

  @Test func aSynchronousRequestForAComponentWithAnAsyncPostInitSaysToAwaitIt() async throws {
    let container = DIContainer()
    container.register(Cache.init).lifetime(.perContainer(.single))
      .postInit { cache in try await cache.warmUp() }
    let error = #expect(throws: DIError.self) { let _: Cache = try container.tryResolve() }
    #expect(error?.code == .asyncFactory)
    #expect(error?.description.contains("resolveAsync()") == true)
    let made: Cache = try await container.resolveAsync()
    let read: Cache = try container.tryResolve()
    #expect(read === made, "once kept by its lifetime, a synchronous request reads it")
  }

  @Test func aThrowingAsyncPostInitFailsTheRequestAndCachesNothing() async throws {
    Cache.failing.store(true, ordering: .relaxed)
    defer { Cache.failing.store(false, ordering: .relaxed) }
    let container = DIContainer()
    container.register(Cache.init).lifetime(.perContainer(.single))
      .postInit { cache in try await cache.warmUp() }
    let madeBefore = Cache.made.load(ordering: .relaxed)
    do {
      let _: Cache = try await container.resolveAsync()
      Issue.record("the warm-up threw")
    } catch {
      #expect(error.code == .factoryFailed)
      #expect(error.underlyingError is WarmUpFailed)
      #expect(error.description.contains("AsyncInjectionTests.swift"))
    }
    Cache.failing.store(false, ordering: .relaxed)
    let first: Cache = try await container.resolveAsync()
    let second: Cache = try await container.resolveAsync()
    #expect(first === second)
    #expect(Cache.made.load(ordering: .relaxed) - madeBefore == 2, "the failed one was not kept")
  }

  @Test func aThrowingSynchronousPostInitOrInjectionFailsTheRequest() throws {
    let container = DIContainer()
    container.register(Meal.init)
    container.register { Cache() }.postInit { _ in throw WarmUpFailed() }
    container.register { Journal() }.injection { (_: Journal, _: Meal) in throw WarmUpFailed() }
    let postInit = #expect(throws: DIError.self) { let _: Cache = try container.tryResolve() }
    #expect(postInit?.code == .factoryFailed)
    #expect(postInit?.underlyingError is WarmUpFailed)
    let injection = #expect(throws: DIError.self) { let _: Journal = try container.tryResolve() }
    #expect(injection?.code == .factoryFailed)
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func concurrentTasksGetOneInstanceWarmedUpOnce() async throws {
    let container = DIContainer()
    container.register(Cache.init).lifetime(.perContainer(.single))
      .postInit { cache in try await cache.warmUp() }
    let warmUpsBefore = Cache.warmUps.load(ordering: .relaxed)
    let caches = try await withThrowingTaskGroup(of: Cache.self) { group in
      for _ in 0..<64 {
        group.addTask { try await container.resolveAsync() }
      }
      return try await group.reduce(into: []) { $0.append($1) }
    }
    #expect(caches.count == 64)
    #expect(caches.allSatisfy { $0 === caches[0] })
    #expect(Cache.warmUps.load(ordering: .relaxed) - warmUpsBefore == 1)
  }

  @Test func injectAsyncRunsTheAsyncInjectionsOfAnInstanceMadeElsewhere() async throws {
    let container = DIContainer()
    container.register(Pool.init).lifetime(.perContainer(.single))
    container.register(Screen.self)
      .injection { (presenter: Screen, pool: Pool) async in await presenter.attach(pool) }
    let presenter = Screen()
    let error = #expect(throws: DIError.self) { try container.tryInject(into: presenter) }
    #expect(error?.code == .asyncFactory)
    #expect(error?.description.contains("injectAsync(into:)") == true)
    #expect(presenter.pool == nil)
    try await container.injectAsync(into: presenter)
    let pool: Pool = try await container.resolveAsync()
    #expect(presenter.pool === pool)
  }

  @Test func aSynchronousComponentWithAnAsyncPostInitTakesRuntimeArguments() async throws {
    let container = DIContainer()
    let journal = Journal()
    container.register(Pool.init).lifetime(.perContainer(.single))
    container.register { Session(user: arg($0), pool: $1) }
      .postInit { session in journal.add("warm \(session.user)") }
      .postInit { _ in await Task.yield() }
    let session: Session = try await container.resolveAsync(arg: "mimi")
    #expect(session.user == "mimi")
    #expect(journal.all == ["warm mimi"])
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func aLoopThroughAComponentWithAnAsyncInjectionIsACycle() async {
    let container = DIContainer()
    container.register(Loop.init).lifetime(.perContainer(.single))
      .injection(cycle: true) { (loop: Loop, partner: Partner) async in
        loop.partner.withLock { $0 = partner }
      }
    container.register(Partner.init)
    do {
      let _: Loop = try await container.resolveAsync()
      Issue.record("the loop cannot be built")
    } catch {
      #expect(error.code == .cycle)
    }
  }

  @Test func theGraphKnowsAComponentWithAnAsyncPostInitIsAsync() {
    let container = DIContainer()
    container.register(Cache.init).postInit { cache in try await cache.warmUp() }
    container.register(Meal.init).postInit { _ in }
    let graph = container.makeGraph()
    let cache = graph.components.first(where: { $0.type == Cache.self })
    let food = graph.components.first(where: { $0.type == Meal.self })
    #expect(cache?.isAsync == true)
    #expect(food?.isAsync == false)
  }
}

@Suite struct AsyncLazyWithArgumentsTests {
  @Test func theFirstValueIsMadeWithItsArgumentsAndKept() async throws {
    let container = DIContainer()
    container.register(Pool.init).lifetime(.perContainer(.single))
    container.register { Session(user: arg($0), pool: $1) }
    let lazy: AsyncLazy1<Session, String> = try container.tryResolve()
    #expect(!lazy.wasMade)
    #expect(lazy.description.contains("not made yet"), "describing it makes nothing")
    let first = try await lazy.value("mimi")
    let again = try await lazy.value("tom")
    #expect(first.user == "mimi")
    #expect(again === first, "later calls return the kept value")
    lazy.clear()
    let other = try await lazy.value("tom")
    #expect(other.user == "tom" && other !== first)
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func concurrentFirstCallsMakeOneValue() async throws {
    let container = DIContainer()
    container.register(Pool.init)
    container.register { Session(user: arg($0), seat: arg($1), pool: $2) }
    let lazy: AsyncLazy2<Session, String, Int> = try container.tryResolve()
    let sessions = try await withThrowingTaskGroup(of: Session.self) { group in
      for index in 0..<32 {
        group.addTask { try await lazy.value("user", index) }
      }
      return try await group.reduce(into: []) { $0.append($1) }
    }
    #expect(sessions.allSatisfy { $0 === sessions[0] })
    #expect(sessions[0].user == "user")
  }

  @Test func aFailedFirstCallLeavesNothing() async throws {
    let container = DIContainer()
    container.register { Session(user: arg($0), pool: $1) }
    let lazy: AsyncLazy1<Session, String> = try container.tryResolve()
    await #expect(throws: DIError.self) { _ = try await lazy.value("mimi") }
    #expect(!lazy.wasMade)
    container.register(Pool.init)
    let session = try await lazy.value("mimi")
    #expect(session.user == "mimi")
  }

  @Test func asyncLazyClearMakesTheNextReadAskAgain() async throws {
    let container = DIContainer()
    container.register(Pool.init)
    let lazy: AsyncLazy<Pool> = try container.tryResolve()
    let first = try await lazy.value
    #expect(try await lazy.value === first)
    lazy.clear()
    #expect(!lazy.wasMade)
    #expect(try await lazy.value !== first)
  }
}
