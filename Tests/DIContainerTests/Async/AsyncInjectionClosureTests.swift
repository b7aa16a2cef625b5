// Async injection closures, async/throwing postInit, injectAsync(into:) and AsyncLazy1…5,
// held to SPEC ("Async and throwing factories", "Delayed injection", "Request scopes and
// teardown", "Errors and logging") through the public API only. Every top-level type is private and prefixed `AII`.

import DIContainer
import DITestSupport
import Testing

// MARK: - Helpers

private struct AIIBoom: Error, Equatable { let code: Int }

/// Runs `body` in an unstructured task and waits at most `seconds` for it: nil means it hung
/// (the task is left behind, so that the test reports rather than hangs).
private func aiiWithin<R: Sendable>(
  seconds: Double, _ body: @escaping @Sendable () async -> R
) async -> R? {
  let box = LockedValue<R?>(nil)
  let done = LockedValue(false)
  let task = Task {
    let result = await body()
    box.withLock { $0 = result }
    done.withLock { $0 = true }
  }
  // A hang limit only: every caller expects `body` to finish, so it is scaled to minutes.
  let deadline = ContinuousClock.now + TestEnvironment.limitDuration(seconds)
  while ContinuousClock.now < deadline {
    if done.withLock({ $0 }) { return box.withLock { $0 } }
    try? await Task.sleep(for: .milliseconds(5))
  }
  task.cancel()
  return nil
}

private func aiiWaitUntil(_ condition: @Sendable () -> Bool) async {
  let deadline = ContinuousClock.now + .seconds(TestEnvironment.limit(20))
  while !condition() && ContinuousClock.now < deadline {
    try? await Task.sleep(for: .milliseconds(2))
  }
}

private func aiiCode(_ body: () async throws -> Void) async -> DIError? {
  do {
    try await body()
    return nil
  } catch let error as DIError {
    return error
  } catch {
    Issue.record("not a DIError: \(error)")
    return nil
  }
}

// MARK: - Fixtures

private final class AIIDep: @unchecked Sendable {
  let name: String
  private let warm = LockedValue(false)
  init(name: String = "dep") { self.name = name }
  func warmUp() async {
    try? await Task.sleep(for: .milliseconds(1))
    warm.withLock { $0 = true }
  }
  var isWarm: Bool { warm.withLock { $0 } }
}

private final class AIIPart: @unchecked Sendable { init() {} }

private final class AIIThing: @unchecked Sendable {
  let log: EventLog<String>
  let serial: Int
  private let warm = LockedValue(false)
  private let attached = LockedValue<[String]>([])
  var part: AIIPart? { didSet { log.append("keyPath") } }

  init(log: EventLog<String>, serial: Int = 0) {
    self.log = log
    self.serial = serial
    log.append("init")
  }
  func attach(_ name: String) async {
    await Task.yield()
    attached.withLock { $0.append(name) }
  }
  func warmUp() async {
    try? await Task.sleep(for: .milliseconds(1))
    warm.withLock { $0 = true }
  }
  var isWarm: Bool { warm.withLock { $0 } }
  var attachedNames: [String] { attached.withLock { $0 } }
}

private final class AIIOuter: @unchecked Sendable {
  let thing: AIIThing
  init(thing: AIIThing) { self.thing = thing }
}

private final class AIIScreen: @unchecked Sendable {
  var dep: AIIDep?
  let log = EventLog<String>()
  init() {}
}

private protocol AIIPlugin: AnyObject, Sendable { var isWarm: Bool { get } }
private final class AIIPluginA: AIIPlugin, @unchecked Sendable {
  private let warm = LockedValue(false)
  init() {}
  func warmUp() async {
    await Task.yield()
    warm.withLock { $0 = true }
  }
  var isWarm: Bool { warm.withLock { $0 } }
}
private final class AIIPluginB: AIIPlugin, @unchecked Sendable {
  private let warm = LockedValue(false)
  init() {}
  func warmUp() async {
    await Task.yield()
    warm.withLock { $0 = true }
  }
  var isWarm: Bool { warm.withLock { $0 } }
}
private enum AIITagB {}

private final class AIIGreeter: @unchecked Sendable {
  let name: String
  let count: Int
  private let warm = LockedValue(false)
  init(name: String, count: Int = 0) {
    self.name = name
    self.count = count
  }
  func warmUp() async {
    await Task.yield()
    warm.withLock { $0 = true }
  }
  var isWarm: Bool { warm.withLock { $0 } }
}

private final class AIIPool: Sendable { init() {} }

private final class AIISession: @unchecked Sendable {
  let user: String
  let pool: AIIPool
  init(user: String, pool: AIIPool) {
    self.user = user
    self.pool = pool
  }
}

private struct AIIBadUser: Error {}
private final class AIIStrictSession: @unchecked Sendable {
  let user: String
  init(user: String) throws {
    if user == "bad" { throw AIIBadUser() }
    self.user = user
  }
}

private final class AIITriple: @unchecked Sendable {
  let text: String
  init(text: String) { self.text = text }
}

private final class AIILazyHolder: @unchecked Sendable {
  let session: AsyncLazy1<AIISession, String>
  init(session: AsyncLazy1<AIISession, String>) { self.session = session }
}
private final class AIISyncLazyHolder { init(thing: Lazy<AIIThing>) {} }
private final class AIISyncProviderHolder { init(thing: Provider<AIIThing>) {} }
private final class AIIAsyncLazyHolder { init(thing: AsyncLazy<AIIThing>) {} }
private final class AIIAsyncProviderHolder { init(thing: AsyncProvider<AIIThing>) {} }

private final class AIILoopA: @unchecked Sendable {
  var b: AIILoopB?
  init() {}
}
private final class AIILoopB: @unchecked Sendable {
  let a: AIILoopA
  init(a: AIILoopA) { self.a = a }
}
private final class AIIPingA: @unchecked Sendable { init() {} }
private final class AIIPingB: @unchecked Sendable { init() {} }

private final class AIIUnregistered { init() {} }

private final class AIIHub: @unchecked Sendable {
  var plugins: [String] = []
  var missingWasNil: Bool?
  var providerWarm: [Bool] = []
  init() {}
}
private final class AIIGraphMate: @unchecked Sendable {
  let thing: AIIThing
  init(thing: AIIThing) { self.thing = thing }
}
private final class AIIGraphRoot: @unchecked Sendable {
  let thing: AIIThing
  let mate: AIIGraphMate
  init(thing: AIIThing, mate: AIIGraphMate) {
    self.thing = thing
    self.mate = mate
  }
}

// MARK: - Suite

@Suite(.serialized)
struct AsyncInjectionClosureTests {

  // MARK: Ordering

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func initThenInjectionsInOrderCycleOnesLastThenPostInitsInCallOrder() async throws {
    let container = DIContainer()
    let log = EventLog<String>()
    container.register { AIIThing(log: log) }
      .injection(cycle: true) { (t: AIIThing, d: AIIDep) async in
        await t.attach(d.name)
        t.log.append("cycleInjection")
      }
      .injection { (t: AIIThing, d: AIIDep) async in
        await t.attach(d.name)
        t.log.append("asyncInjection")
      }
      .injection(\.part)
      .injection { (t: AIIThing) in t.log.append("syncInjection") }
      .postInit { t in t.log.append("post1 part=\(t.part != nil)") }
      .postInit { t in
        await t.warmUp()
        t.log.append("post2 async")
      }
      .postInit { t in t.log.append("post3 warm=\(t.isWarm)") }
    container.register { AIIDep() }
    container.register { AIIPart() }

    let thing: AIIThing = try await container.resolveAsync()
    #expect(
      log.all == [
        "init", "asyncInjection", "keyPath", "syncInjection", "cycleInjection",
        "post1 part=true", "post2 async", "post3 warm=true",
      ])
    #expect(thing.attachedNames == ["dep", "dep"])
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func injectionDependencyWithAsyncFactoryAndAsyncPostInitIsAwaitedWhole() async throws {
    let container = DIContainer()
    let log = EventLog<String>()
    let sawWarm = LockedValue<Bool?>(nil)
    container.register { () async -> AIIDep in
      try? await Task.sleep(for: .milliseconds(5))
      return AIIDep(name: "slow")
    }
    .postInit { d in await d.warmUp() }
    container.register { AIIThing(log: log) }
      .injection { (t: AIIThing, d: AIIDep) async in
        sawWarm.withLock { $0 = d.isWarm }
        await t.attach(d.name)
      }
    let thing: AIIThing = try await container.resolveAsync()
    #expect(thing.attachedNames == ["slow"])
    #expect(sawWarm.withLock { $0 } == true)
  }

  // MARK: Synchronous requests

  @Test func syncRequestOfAsyncInjectedOrAsyncPostInitComponentIsAsyncFactory() throws {
    let container = DIContainer()
    let log = EventLog<String>()
    container.register { AIIThing(log: log) }
      .injection { (t: AIIThing) async in await t.attach("x") }
    container.register { AIIGreeter(name: "g") }
      .postInit { g in await g.warmUp() }

    for attempt in 0..<2 {
      let error = try #require(throws: DIError.self) {
        let _: AIIThing = try container.tryResolve()
      }
      #expect(error.code == .asyncFactory, "attempt \(attempt)")
      #expect(error.description.contains("resolveAsync()"))
      let other = try #require(throws: DIError.self) {
        let _: AIIGreeter = try container.tryResolve()
      }
      #expect(other.code == .asyncFactory)
      #expect(other.description.contains("resolveAsync()"))
    }
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func syncComponentNeedingAsyncPostInitOneFailsSyncButIsWholeAsync() async throws {
    let container = DIContainer()
    let log = EventLog<String>()
    let post = Counter()
    container.register { AIIThing(log: log) }.postInit { t in
      await t.warmUp()
      post.next()
    }
    container.register(AIIOuter.init)
    let error = try #require(throws: DIError.self) {
      let _: AIIOuter = try container.tryResolve()
    }
    #expect(error.code == .asyncFactory)
    #expect(post.value == 0)
    let outer: AIIOuter = try await container.resolveAsync()
    #expect(outer.thing.isWarm)
    #expect(post.value == 1)
  }

  @Test func syncOptionalRequestNeverYieldsAHalfMadeInstance() throws {
    let container = DIContainer()
    let log = EventLog<String>()
    container.register { AIIThing(log: log) }.postInit { t in await t.warmUp() }
    do {
      let thing: AIIThing? = try container.tryResolve()
      // nil is acceptable (no synchronous candidate); an instance must be whole.
      if let thing {
        #expect(thing.isWarm, "a sync optional request returned a half-made instance")
      }
    } catch {
      #expect(error.code == .asyncFactory)
    }
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func cachingLifetimesAnswerSyncRequestsOnceMade() async throws {
    let container = DIContainer()
    let log = EventLog<String>()
    let post = Counter()
    container.register { AIIThing(log: log) }
      .lifetime(.perContainer(.single))
      .postInit { t in
        await t.warmUp()
        post.next()
      }
    container.register { AIIGreeter(name: "single") }
      .lifetime(.single)
      .injection { (g: AIIGreeter) async in await g.warmUp() }
    container.register { AIIDep(name: "scoped") }
      .lifetime(.scoped)
      .postInit { d in await d.warmUp() }
    let custom = DIScope(name: "AIICustom", storage: DICacheStorage(), policy: .single)
    container.register { AIIPool() }
      .lifetime(.custom(custom))
      .postInit { _ in await Task.yield() }

    let made: AIIThing = try await container.resolveAsync()
    let read: AIIThing = try container.tryResolve()
    #expect(made === read)
    #expect(post.value == 1)

    try await container.initializeSingletonObjectsAsync()
    let greeter: AIIGreeter = try container.tryResolve()
    #expect(greeter.isWarm)
    let greeter2: AIIGreeter = try await container.resolveAsync()
    #expect(greeter === greeter2)

    let scope = container.makeScope()
    let dep: AIIDep = try await scope.resolveAsync()
    let depSync: AIIDep = try scope.tryResolve()
    #expect(dep === depSync)
    #expect(dep.isWarm)
    scope.close()

    let pool: AIIPool = try await container.resolveAsync()
    let poolSync: AIIPool = try container.tryResolve()
    #expect(pool === poolSync)
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func syncRequestDuringInFlightCreationNeverSeesHalfMadeInstance() async throws {
    let container = DIContainer()
    let log = EventLog<String>()
    let gate = Gate()
    let inits = Counter()
    container.register { () -> AIIThing in
      inits.next()
      return AIIThing(log: log)
    }
    .lifetime(.perContainer(.single))
    .postInit { t in
      try await gate.cancellablePass()
      await t.warmUp()
    }
    let creator = Task { () throws -> AIIThing in try await container.resolveAsync() }
    await aiiWaitUntil { inits.value == 1 }
    try await Task.sleep(for: .milliseconds(20))
    do {
      let seen: AIIThing = try container.tryResolve()
      #expect(
        seen.isWarm, "a synchronous request returned an instance before its async postInit ended")
    } catch {
      #expect(error.code == .asyncFactory)
    }
    gate.open()
    let made = try await creator.value
    #expect(made.isWarm)
    let later: AIIThing = try container.tryResolve()
    #expect(later === made)
    #expect(inits.value == 1)
  }

  // MARK: Errors

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func asyncPostInitErrorIsFactoryFailedWithUnderlyingPathAndLocation() async throws {
    let container = DIContainer()
    let log = EventLog<String>()
    let line: UInt = #line + 1
    container.register { AIIThing(log: log) }.postInit { _ in
      await Task.yield()
      throw AIIBoom(code: 7)
    }
    container.register(AIIOuter.init)
    let error = await aiiCode { let _: AIIOuter = try await container.resolveAsync() }
    let e = try #require(error)
    #expect(e.code == .factoryFailed)
    #expect(e.underlyingError as? AIIBoom == AIIBoom(code: 7))
    #expect(e.description.contains("AIIOuter"))
    #expect(e.description.contains("AIIThing"))
    #expect(e.description.contains("AIIOuter → AIIThing"), "\(e.description)")
    #expect(
      e.description.contains("AsyncInjectionClosureTests.swift:\(line)"), "\(e.description)")
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func asyncInjectionErrorCachesNothingAndTheNextRequestCaches() async throws {
    let container = DIContainer()
    let log = EventLog<String>()
    let inits = Counter()
    let attempts = Counter()
    let line: UInt = #line + 1
    container.register { () -> AIIThing in AIIThing(log: log, serial: inits.next()) }
      .lifetime(.perContainer(.single))
      .injection { (t: AIIThing, d: AIIDep) async throws in
        if attempts.next() == 1 { throw AIIBoom(code: 1) }
        await t.attach(d.name)
      }
    container.register { AIIDep() }
    let error = await aiiCode { let _: AIIThing = try await container.resolveAsync() }
    #expect(error?.code == .factoryFailed)
    #expect(error?.underlyingError as? AIIBoom == AIIBoom(code: 1))
    #expect(error?.description.contains("AsyncInjectionClosureTests.swift:\(line)") == true)
    // Nothing cached: a sync request cannot read anything.
    #expect(throws: DIError.self) { let _: AIIThing = try container.tryResolve() }
    let second: AIIThing = try await container.resolveAsync()
    let third: AIIThing = try await container.resolveAsync()
    #expect(second === third)
    #expect(second.serial == 2)
    #expect(second.attachedNames == ["dep"])
    #expect(inits.value == 2)
  }

  @Test func throwingSyncPostInitFailsSyncRequestAndCachesNothing() throws {
    let container = DIContainer()
    let log = EventLog<String>()
    let inits = Counter()
    let attempts = Counter()
    let line: UInt = #line + 1
    container.register { () -> AIIThing in AIIThing(log: log, serial: inits.next()) }
      .lifetime(.perContainer(.single))
      .postInit { _ in if attempts.next() == 1 { throw AIIBoom(code: 2) } }
    container.register(AIIOuter.init)
    let error = try #require(throws: DIError.self) { let _: AIIOuter = try container.tryResolve() }
    #expect(error.code == .factoryFailed)
    #expect(error.underlyingError as? AIIBoom == AIIBoom(code: 2))
    #expect(error.description.contains("AIIOuter"))
    #expect(error.description.contains("AsyncInjectionClosureTests.swift:\(line)"))
    let a: AIIThing = try container.tryResolve()
    let b: AIIThing = try container.tryResolve()
    #expect(a === b)
    #expect(a.serial == 2)
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func throwingSyncMethodInjectionFailsBothSyncAndAsyncRequests() async throws {
    let container = DIContainer()
    let log = EventLog<String>()
    container.register { AIIThing(log: log) }
      .injection { (_: AIIThing, d: AIIDep) throws in throw AIIBoom(code: Int(d.name.count)) }
    container.register { AIIDep(name: "abc") }
    let syncError = try #require(throws: DIError.self) {
      let _: AIIThing = try container.tryResolve()
    }
    #expect(syncError.code == .factoryFailed)
    #expect(syncError.underlyingError as? AIIBoom == AIIBoom(code: 3))
    let asyncError = await aiiCode { let _: AIIThing = try await container.resolveAsync() }
    #expect(asyncError?.code == .factoryFailed)
    #expect(asyncError?.underlyingError as? AIIBoom == AIIBoom(code: 3))
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func failedAsyncPostInitInRequestScopeCachesNothingInTheScope() async throws {
    let container = DIContainer()
    let log = EventLog<String>()
    let inits = Counter()
    let attempts = Counter()
    container.register { () -> AIIThing in AIIThing(log: log, serial: inits.next()) }
      .lifetime(.scoped)
      .postInit { _ in
        await Task.yield()
        if attempts.next() == 1 { throw AIIBoom(code: 4) }
      }
    let scope = container.makeScope()
    let error = await aiiCode { let _: AIIThing = try await scope.resolveAsync() }
    #expect(error?.code == .factoryFailed)
    let a: AIIThing = try await scope.resolveAsync()
    let b: AIIThing = try scope.tryResolve()
    #expect(a === b)
    #expect(a.serial == 2)
    scope.close()
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func errorOfAnAsyncDependencyOfAnInjectionFailsTheRequest() async throws {
    let container = DIContainer()
    let log = EventLog<String>()
    container.register { () async throws -> AIIDep in
      await Task.yield()
      throw AIIBoom(code: 5)
    }
    container.register { AIIThing(log: log) }
      .lifetime(.perContainer(.single))
      .injection { (t: AIIThing, d: AIIDep) async in await t.attach(d.name) }
    let error = await aiiCode { let _: AIIThing = try await container.resolveAsync() }
    #expect(error?.code == .factoryFailed)
    #expect(error?.underlyingError as? AIIBoom == AIIBoom(code: 5))
    #expect(error?.description.contains("AIIDep") == true)
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func halfMadeInstanceOfAFailedRequestIsReleased() async throws {
    let container = DIContainer()
    let log = EventLog<String>()
    let box = WeakBox<AIIThing>()
    container.register { () -> AIIThing in
      let t = AIIThing(log: log)
      box.object = t
      return t
    }
    .lifetime(.perContainer(.single))
    .postInit { _ in
      await Task.yield()
      throw AIIBoom(code: 6)
    }
    do {
      let _: AIIThing = try await container.resolveAsync()
      Issue.record("expected a failure")
    } catch {
      #expect(error.code == .factoryFailed)
    }
    #expect(box.object == nil, "the failed instance is still retained")
  }

  // MARK: Concurrency and cancellation

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func sixtyFourTasksShareOneInstanceAndItsAsyncPostInitRunsOnce() async throws {
    let container = DIContainer()
    let log = EventLog<String>()
    let inits = Counter()
    let posts = Counter()
    container.register { () -> AIIThing in AIIThing(log: log, serial: inits.next()) }
      .lifetime(.perContainer(.single))
      .injection { (t: AIIThing, d: AIIDep) async in await t.attach(d.name) }
      .postInit { t in
        try await Task.sleep(for: .milliseconds(30))
        await t.warmUp()
        posts.next()
      }
    container.register { () async -> AIIDep in
      await Task.yield()
      return AIIDep()
    }
    let things = try await withThrowingTaskGroup(of: AIIThing.self) { group in
      for _ in 0..<64 { group.addTask { try await container.resolveAsync() } }
      var all: [AIIThing] = []
      for try await thing in group { all.append(thing) }
      return all
    }
    #expect(things.count == 64)
    #expect(things.allSatisfy { $0 === things[0] })
    #expect(things.allSatisfy { $0.isWarm })
    #expect(inits.value == 1)
    #expect(posts.value == 1)
    #expect(things[0].attachedNames == ["dep"])
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func sixtyFourTasksInOneRequestScopeShareOneScopedInstance() async throws {
    let container = DIContainer()
    let log = EventLog<String>()
    let posts = Counter()
    container.register { AIIThing(log: log) }
      .lifetime(.scoped)
      .postInit { t in
        try await Task.sleep(for: .milliseconds(20))
        await t.warmUp()
        posts.next()
      }
    let scope = container.makeScope()
    let things = try await withThrowingTaskGroup(of: AIIThing.self) { group in
      for _ in 0..<64 { group.addTask { try await scope.resolveAsync() } }
      var all: [AIIThing] = []
      for try await thing in group { all.append(thing) }
      return all
    }
    #expect(things.allSatisfy { $0 === things[0] && $0.isWarm })
    #expect(posts.value == 1)
    scope.close()
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func cancelledCreatorCachesNothingAndAWaitingTaskMakesItItself() async throws {
    let container = DIContainer()
    let log = EventLog<String>()
    let inits = Counter()
    let posts = Counter()
    let gate = Gate()
    container.register { () -> AIIThing in AIIThing(log: log, serial: inits.next()) }
      .lifetime(.perContainer(.single))
      .postInit { t in
        try await gate.cancellablePass()
        await t.warmUp()
        posts.next()
      }
    let creator = Task { () throws -> AIIThing in try await container.resolveAsync() }
    await aiiWaitUntil { inits.value == 1 }
    let waiter = Task { () throws -> AIIThing in try await container.resolveAsync() }
    try await Task.sleep(for: .milliseconds(50))
    creator.cancel()
    // The cancelled creation fails (its postInit throws CancellationError) and caches nothing.
    let creatorResult = await creator.result
    #expect(throws: (any Error).self) { try creatorResult.get() }
    await aiiWaitUntil { inits.value >= 2 }
    gate.open()
    let waited = try await waiter.value
    #expect(waited.isWarm)
    #expect(waited.serial == 2)
    let cached: AIIThing = try await container.resolveAsync()
    #expect(cached === waited)
    #expect(inits.value == 2)
    #expect(posts.value == 1)
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func cancellingAWaitingTaskDoesNotCancelTheCreation() async throws {
    let container = DIContainer()
    let log = EventLog<String>()
    let inits = Counter()
    let gate = Gate()
    container.register { () -> AIIThing in AIIThing(log: log, serial: inits.next()) }
      .lifetime(.perContainer(.single))
      .postInit { t in
        try await gate.cancellablePass()
        await t.warmUp()
      }
    let creator = Task { () throws -> AIIThing in try await container.resolveAsync() }
    await aiiWaitUntil { inits.value == 1 }
    let waiter = Task { () throws -> AIIThing in try await container.resolveAsync() }
    try await Task.sleep(for: .milliseconds(30))
    waiter.cancel()
    try await Task.sleep(for: .milliseconds(30))
    gate.open()
    let made = try await creator.value
    #expect(made.isWarm)
    if case .success(let other) = await waiter.result { #expect(other === made) }
    let again: AIIThing = try container.tryResolve()
    #expect(again === made)
    #expect(inits.value == 1)
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func cancelledSoleCreationCachesNothing() async throws {
    let container = DIContainer()
    let log = EventLog<String>()
    let inits = Counter()
    let gate = Gate()
    container.register { () -> AIIThing in AIIThing(log: log, serial: inits.next()) }
      .lifetime(.perContainer(.single))
      .injection { (t: AIIThing) async throws in try await gate.cancellablePass() }
    let creator = Task { () throws -> AIIThing in try await container.resolveAsync() }
    await aiiWaitUntil { inits.value == 1 }
    creator.cancel()
    _ = await creator.result
    #expect(throws: DIError.self) { let _: AIIThing = try container.tryResolve() }
    gate.open()
    let made: AIIThing = try await container.resolveAsync()
    #expect(made.serial == 2)
  }

  // MARK: Cycles

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func cycleThroughAsyncCycleInjectionIsACycleErrorNotAHang() async throws {
    let container = DIContainer()
    container.register(AIILoopA.init)
      .lifetime(.perContainer(.single))
      .injection(cycle: true) { (a: AIILoopA, b: AIILoopB) async in a.b = b }
    container.register(AIILoopB.init)
    let outcome = await aiiWithin(seconds: 15) { () -> DIError.Code? in
      do throws(DIError) {
        let _: AIILoopA = try await container.resolveAsync()
        return nil
      } catch {
        return error.code
      }
    }
    #expect(outcome != nil, "resolving the loop hung")
    #expect(outcome == .some(.cycle))
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func twoAsyncInjectedSingletonsNeedingEachOtherAreACycleNotAHang() async throws {
    let container = DIContainer()
    container.register(AIIPingA.init)
      .lifetime(.perContainer(.single))
      .injection { (_: AIIPingA, _: AIIPingB) async in await Task.yield() }
    container.register(AIIPingB.init)
      .lifetime(.perContainer(.single))
      .injection { (_: AIIPingB, _: AIIPingA) async in await Task.yield() }
    let outcome = await aiiWithin(seconds: 15) { () -> DIError.Code? in
      do throws(DIError) {
        let _: AIIPingA = try await container.resolveAsync()
        return nil
      } catch {
        return error.code
      }
    }
    #expect(outcome != nil, "resolving the loop hung")
    #expect(outcome == .some(.cycle))
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func asyncPostInitThatResolvesItsOwnComponentFailsInsteadOfHanging() async throws {
    let container = DIContainer()
    let weak = WeakBox(container)
    let log = EventLog<String>()
    container.register { AIIThing(log: log) }
      .lifetime(.perContainer(.single))
      .postInit { _ in
        guard let c = weak.object else { return }
        let _: AIIThing = try await c.resolveAsync()
      }
    let outcome = await aiiWithin(seconds: 15) { () -> DIError? in
      do throws(DIError) {
        let _: AIIThing = try await container.resolveAsync()
        return nil
      } catch {
        return error
      }
    }
    let hung = outcome == nil
    #expect(!hung, "a postInit resolving its own component hung")
    if let error = outcome ?? nil {
      let inner = error.underlyingError as? DIError
      #expect(error.code == .cycle || inner?.code == .cycle, "\(error)")
    } else if !hung {
      Issue.record("a component resolving itself in its own postInit succeeded")
    }
  }

  // MARK: injectAsync(into:)

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func injectAsyncRunsInjectionsAndPostInitInOrder() async throws {
    let container = DIContainer()
    container.register { () async -> AIIDep in
      await Task.yield()
      return AIIDep(name: "async")
    }
    container.register(AIIScreen.self)
      .injection { (s: AIIScreen, d: AIIDep) async in
        await Task.yield()
        s.log.append("inject \(d.name)")
      }
      .injection(\.dep)
      .postInit { s in s.log.append("post sync dep=\(s.dep?.name ?? "nil")") }
      .postInit { s in
        await Task.yield()
        s.log.append("post async")
      }
    let screen = AIIScreen()
    try await container.injectAsync(into: screen)
    #expect(screen.dep?.name == "async")
    #expect(screen.log.all == ["inject async", "post sync dep=async", "post async"])
  }

  @Test func tryInjectOnAsyncInjectedComponentThrowsAsyncFactoryNamingInjectAsync() throws {
    let container = DIContainer()
    container.register { AIIDep() }
    container.register(AIIScreen.self)
      .injection(\.dep)
      .postInit { s in
        await Task.yield()
        s.log.append("post async")
      }
    let screen = AIIScreen()
    let error = try #require(throws: DIError.self) { try container.tryInject(into: screen) }
    #expect(error.code == .asyncFactory)
    #expect(error.description.contains("injectAsync(into:)"), "\(error.description)")
    #expect(screen.log.all.isEmpty)
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func injectAsyncErrorIsFactoryFailedAndInjectAsyncOfASyncComponentWorks() async throws {
    let container = DIContainer()
    container.register { AIIDep() }
    container.register(AIIScreen.self)
      .injection(\.dep)
      .postInit { _ in
        await Task.yield()
        throw AIIBoom(code: 9)
      }
    let error = await aiiCode { try await container.injectAsync(into: AIIScreen()) }
    #expect(error?.code == .factoryFailed)
    #expect(error?.underlyingError as? AIIBoom == AIIBoom(code: 9))

    let plain = DIContainer()
    plain.register { AIIDep(name: "plain") }
    plain.register(AIIScreen.self).injection(\.dep).postInit { s in s.log.append("post") }
    let screen = AIIScreen()
    try await plain.injectAsync(into: screen)
    #expect(screen.dep?.name == "plain")
    #expect(screen.log.all == ["post"])
  }

  // MARK: Graph

  @Test func graphMarksAsyncInjectionAndAsyncPostInitComponentsAsync() throws {
    let container = DIContainer()
    let log = EventLog<String>()
    container.register { AIIThing(log: log) }.injection { (t: AIIThing) async in await t.attach("x")
    }
    container.register { AIIGreeter(name: "g") }.postInit { g in await g.warmUp() }
    container.register { AIIPart() }.postInit { _ in }
    container.register { AIIDep() }.injection { (_: AIIDep) throws in }
    let graph = container.makeGraph()
    func isAsync(_ type: Any.Type) -> Bool? {
      graph.components.first { $0.type == type }?.isAsync
    }
    #expect(isAsync(AIIThing.self) == true)
    #expect(isAsync(AIIGreeter.self) == true)
    #expect(isAsync(AIIPart.self) == false)
    #expect(isAsync(AIIDep.self) == false)
  }

  @Test func syncDelayedOfAsyncInjectedComponentIsAValidationProblemAsyncDelayedIsNot() throws {
    func container(_ holder: (DIContainer) -> Void) -> DIContainer {
      let container = DIContainer()
      let log = EventLog<String>()
      container.register { AIIThing(log: log) }.postInit { t in await t.warmUp() }
      holder(container)
      return container
    }
    let lazy = container { $0.register(AIISyncLazyHolder.init) }
    #expect(throws: (any Error).self) { try lazy.makeGraph().validate() }
    let provider = container { $0.register(AIISyncProviderHolder.init) }
    #expect(throws: (any Error).self) { try provider.makeGraph().validate() }
    let asyncLazy = container { $0.register(AIIAsyncLazyHolder.init) }
    #expect(throws: Never.self) { try asyncLazy.makeGraph().validate() }
    let asyncProvider = container { $0.register(AIIAsyncProviderHolder.init) }
    #expect(throws: Never.self) { try asyncProvider.makeGraph().validate() }

    // The same through an async injection only.
    let viaInjection = DIContainer()
    let log = EventLog<String>()
    viaInjection.register { AIIThing(log: log) }.injection { (t: AIIThing) async in
      await t.attach("x")
    }
    viaInjection.register(AIISyncLazyHolder.init)
    #expect(throws: (any Error).self) { try viaInjection.makeGraph().validate() }
  }

  // MARK: onClean

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func onCleanRunsOnceWhenCleanDropsAnAsyncPostInitInstanceAndItIsReleased() async throws {
    let container = DIContainer()
    let log = EventLog<String>()
    let cleans = Counter()
    let box = WeakBox<AIIThing>()
    container.register { AIIThing(log: log) }
      .lifetime(.perContainer(.single))
      .postInit { t in await t.warmUp() }
      .onClean { _ in cleans.next() }
    do {
      let thing: AIIThing = try await container.resolveAsync()
      box.object = thing
    }
    container.clean()
    container.clean()
    #expect(cleans.value == 1)
    #expect(box.object == nil)
    let fresh: AIIThing = try await container.resolveAsync()
    #expect(fresh.isWarm)
    await container.shutdown()
    #expect(cleans.value == 2)
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func onCleanRunsOnceOnScopeCloseAndShutdownForAsyncInjectedInstances() async throws {
    let container = DIContainer()
    let log = EventLog<String>()
    let scopedCleans = Counter()
    let asyncCleans = Counter()
    container.register { AIIThing(log: log) }
      .lifetime(.scoped)
      .injection { (t: AIIThing) async in await t.attach("s") }
      .onClean { _ in scopedCleans.next() }
    container.register { AIIGreeter(name: "g") }
      .lifetime(.perContainer(.single))
      .postInit { g in await g.warmUp() }
      .onClean { _ in
        await Task.yield()
        asyncCleans.next()
      }
    let scope = container.makeScope()
    let _: AIIThing = try await scope.resolveAsync()
    let _: AIIThing = try await scope.resolveAsync()
    scope.close()
    scope.close()
    #expect(scopedCleans.value == 1)

    let result: Int = try await container.withScope { scope in
      let _: AIIThing = try await scope.resolveAsync()
      return 42
    }
    #expect(result == 42)
    #expect(scopedCleans.value == 2)

    let _: AIIGreeter = try await container.resolveAsync()
    await container.shutdown()
    await container.shutdown()
    #expect(asyncCleans.value == 1)
    let after = await aiiCode { let _: AIIGreeter = try await container.resolveAsync() }
    #expect(after?.code == .containerShutDown)
  }

  // MARK: Resolution forms

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func optionalManyAndTaggedAsyncFormsMakeWholeInstances() async throws {
    let container = DIContainer()
    let log = EventLog<String>()
    container.register { AIIThing(log: log) }.postInit { t in await t.warmUp() }
    container.register(AIIPluginA.init).as(AIIPlugin.self).postInit { p in await p.warmUp() }
    container.register(AIIPluginB.init).as(AIIPlugin.self, tag: AIITagB.self)
      .injection { (p: AIIPluginB) async in await p.warmUp() }

    let thing: AIIThing? = try await container.resolveAsync()
    #expect(thing?.isWarm == true)
    let none: AIIUnregistered? = try await container.resolveAsync()
    #expect(none == nil)
    let plugins: [AIIPlugin] = many(try await container.resolveAsync())
    #expect(plugins.count == 2)
    #expect(plugins.first is AIIPluginA)
    #expect(plugins.allSatisfy { $0.isWarm })
    let tagged: AIIPlugin = by(tag: AIITagB.self, on: try await container.resolveAsync())
    #expect(tagged is AIIPluginB)
    #expect(tagged.isWarm)
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func runtimeArgumentsReachASyncFactoryWithAsyncPostInit() async throws {
    let container = DIContainer()
    let posts = Counter()
    container.register { AIIGreeter(name: arg($0)) }.postInit { g in
      await g.warmUp()
      posts.next()
    }
    container.register { AIITriple(text: "\(arg($0) as String)-\(arg($1) as Int)") }
      .injection { (_: AIITriple) async in await Task.yield() }
    let greeter: AIIGreeter = try await container.resolveAsync(arg: "mimi")
    #expect(greeter.name == "mimi")
    #expect(greeter.isWarm)
    let pair: AIITriple = try await container.resolveAsync(args: "a", 3)
    #expect(pair.text == "a-3")
    let error = try #require(throws: DIError.self) {
      let _: AIIGreeter = try container.tryResolve(arguments: ["sync"])
    }
    #expect(error.code == .asyncFactory)
    #expect(posts.value == 1)
    let scope = container.makeScope()
    let scoped: AIIGreeter = try await scope.resolveAsync(arg: "scope")
    #expect(scoped.name == "scope" && scoped.isWarm)
    scope.close()
  }

  // MARK: AsyncLazy1…5

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func asyncLazy1MakesWithArgumentsKeepsAndDescribesWithoutMaking() async throws {
    let made = Counter()
    let c2 = DIContainer()
    c2.register { () async -> AIIPool in
      await Task.yield()
      return AIIPool()
    }
    c2.register { (user: DIArg<String>, pool: AIIPool) -> AIISession in
      made.next()
      return AIISession(user: arg(user), pool: pool)
    }
    let lazy: AsyncLazy1<AIISession, String> = try c2.tryResolve()
    #expect(!lazy.wasMade)
    _ = lazy.description
    #expect(made.value == 0)
    let first = try await lazy.value("mimi")
    #expect(first.user == "mimi")
    #expect(lazy.wasMade)
    let second = try await lazy.value("other")
    #expect(second === first)
    #expect(made.value == 1)
    #expect(lazy.description.contains("AIISession"))
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func asyncLazy1ConcurrentFirstCallsMakeOneValue() async throws {
    let container = DIContainer()
    let made = Counter()
    container.register { () async -> AIIPool in
      try? await Task.sleep(for: .milliseconds(10))
      return AIIPool()
    }
    container.register { (user: DIArg<String>, pool: AIIPool) -> AIISession in
      made.next()
      return AIISession(user: arg(user), pool: pool)
    }
    let lazy: AsyncLazy1<AIISession, String> = try container.tryResolve()
    let sessions = try await withThrowingTaskGroup(of: AIISession.self) { group in
      for i in 0..<32 { group.addTask { try await lazy.value("user\(i)") } }
      var all: [AIISession] = []
      for try await s in group { all.append(s) }
      return all
    }
    #expect(sessions.allSatisfy { $0 === sessions[0] })
    #expect(made.value == 1)
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func asyncLazy1FailedCallKeepsNothing() async throws {
    let container = DIContainer()
    container.register { try AIIStrictSession(user: arg($0)) }
      .postInit { _ in await Task.yield() }
    let lazy: AsyncLazy1<AIIStrictSession, String> = try container.tryResolve()
    let error = await aiiCode { _ = try await lazy.value("bad") }
    #expect(error?.code == .factoryFailed)
    #expect(error?.underlyingError is AIIBadUser)
    #expect(!lazy.wasMade)
    let good = try await lazy.value("good")
    #expect(good.user == "good")
    #expect(lazy.wasMade)
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func asyncLazy1ClearMakesAgainButACachedLifetimeAnswersItsInstance() async throws {
    let container = DIContainer()
    let posts = Counter()
    container.register { AIIGreeter(name: arg($0)) }.postInit { g in
      await g.warmUp()
      posts.next()
    }
    let lazy: AsyncLazy1<AIIGreeter, String> = try container.tryResolve()
    let a = try await lazy.value("a")
    lazy.clear()
    #expect(!lazy.wasMade)
    let b = try await lazy.value("b")
    #expect(a !== b)
    #expect(b.name == "b")
    #expect(posts.value == 2)

    let cached = DIContainer()
    cached.register { AIIGreeter(name: arg($0)) }
      .lifetime(.perContainer(.single))
      .postInit { g in await g.warmUp() }
    let lazy2: AsyncLazy1<AIIGreeter, String> = try cached.tryResolve()
    let c = try await lazy2.value("c")
    lazy2.clear()
    let d = try await lazy2.value("d")
    #expect(c === d)
    #expect(d.name == "c")
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func asyncLazy3AndAsyncLazy5PassEveryArgumentInOrder() async throws {
    let container = DIContainer()
    container.register {
      AIITriple(text: "\(arg($0) as String)|\(arg($1) as Int)|\(arg($2) as Bool)")
    }
    .postInit { _ in await Task.yield() }
    let lazy3: AsyncLazy3<AIITriple, String, Int, Bool> = try container.tryResolve()
    #expect(try await lazy3.value("x", 2, true).text == "x|2|true")

    let five = DIContainer()
    five.register {
      AIITriple(
        text:
          "\(arg($0) as Int)\(arg($1) as Int)\(arg($2) as Int)\(arg($3) as Int)\(arg($4) as String)"
      )
    }
    let lazy5: AsyncLazy5<AIITriple, Int, Int, Int, Int, String> = try five.tryResolve()
    #expect(try await lazy5.value(1, 2, 3, 4, "z").text == "1234z")
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func asyncLazy1AsInitializerParameterOfASyncComponent() async throws {
    let container = DIContainer()
    let made = Counter()
    container.register { () async -> AIIPool in
      await Task.yield()
      return AIIPool()
    }
    container.register { (user: DIArg<String>, pool: AIIPool) -> AIISession in
      made.next()
      return AIISession(user: arg(user), pool: pool)
    }
    container.register(AIILazyHolder.init)
    let holder: AIILazyHolder = try container.tryResolve()
    #expect(made.value == 0)
    #expect(!holder.session.wasMade)
    let session = try await holder.session.value("holder")
    #expect(session.user == "holder")
    #expect(made.value == 1)
    #expect(throws: Never.self) { try container.makeGraph().validate() }
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func asyncLazyClearOfAnAsyncPostInitComponent() async throws {
    let container = DIContainer()
    let log = EventLog<String>()
    let inits = Counter()
    container.register { () -> AIIThing in AIIThing(log: log, serial: inits.next()) }
      .postInit { t in await t.warmUp() }
    let lazy: AsyncLazy<AIIThing> = try container.tryResolve()
    let a = try await lazy.value
    let again = try await lazy.value
    #expect(a === again)
    lazy.clear()
    #expect(!lazy.wasMade)
    let b = try await lazy.value
    #expect(a !== b)
    #expect(b.isWarm)
    #expect(inits.value == 2)
  }

  // MARK: Memory

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func prototypeWithAsyncInjectionIsNotRetainedByTheContainer() async throws {
    let container = DIContainer()
    let log = EventLog<String>()
    let box = WeakBox<AIIThing>()
    container.register { AIIThing(log: log) }
      .injection { (t: AIIThing, d: AIIDep) async in await t.attach(d.name) }
      .postInit { t in await t.warmUp() }
    container.register { AIIDep() }
    do {
      let thing: AIIThing = try await container.resolveAsync()
      box.object = thing
      #expect(thing.isWarm)
    }
    #expect(box.object == nil)
  }

  // MARK: Second wave

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func manyOptionalAndAsyncProviderParametersOfAnAsyncInjection() async throws {
    let container = DIContainer()
    container.register(AIIPluginA.init).as(AIIPlugin.self).postInit { p in await p.warmUp() }
    container.register(AIIPluginB.init).as(AIIPlugin.self)
      .injection { (p: AIIPluginB) async in await p.warmUp() }
    container.register(AIIHub.init)
      .injection {
        (
          h: AIIHub, ps: DIMany<AIIPlugin>, missing: AIIUnregistered?,
          prov: AsyncProvider<AIIPluginA>
        ) async throws in
        let all: [AIIPlugin] = many(ps)
        h.plugins = all.map { "\(type(of: $0)) warm=\($0.isWarm)" }
        h.missingWasNil = missing == nil
        let one = try await prov.value
        let two = try await prov.value
        h.providerWarm = [one.isWarm, two.isWarm, one !== two]
      }
    let hub: AIIHub = try await container.resolveAsync()
    #expect(hub.plugins == ["AIIPluginA warm=true", "AIIPluginB warm=true"])
    #expect(hub.missingWasNil == true)
    #expect(hub.providerWarm == [true, true, true])
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func reentrantResolutionInsidePostInitsWorks() async throws {
    let container = DIContainer()
    let weak = WeakBox(container)
    let log = EventLog<String>()
    container.register { AIIDep(name: "inner") }
      .lifetime(.perContainer(.single))
      .postInit { d in await d.warmUp() }
    container.register { AIIGreeter(name: "sync") }
    container.register { AIIThing(log: log) }
      .lifetime(.perContainer(.single))
      .postInit { t in
        let g: AIIGreeter = try weak.object!.tryResolve()
        t.log.append("sync nested \(g.name)")
      }
      .postInit { t in
        let d: AIIDep = try await weak.object!.resolveAsync()
        t.log.append("async nested \(d.name) warm=\(d.isWarm)")
      }
    let things = try await withThrowingTaskGroup(of: AIIThing.self) { group in
      for _ in 0..<16 { group.addTask { try await container.resolveAsync() } }
      var all: [AIIThing] = []
      for try await t in group { all.append(t) }
      return all
    }
    #expect(things.allSatisfy { $0 === things[0] })
    #expect(log.all == ["init", "sync nested sync", "async nested inner warm=true"])
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func objectGraphCycleThroughAsyncCycleInjectionIsACycleNotAHangAndSyncOneStillWorks() async throws
  {
    let container = DIContainer()
    container.register(AIILoopA.init)
      .lifetime(.objectGraph)
      .injection(cycle: true) { (a: AIILoopA, b: AIILoopB) async in a.b = b }
    container.register(AIILoopB.init).lifetime(.objectGraph)
    let outcome = await aiiWithin(seconds: 15) { () -> String in
      do throws(DIError) {
        let a: AIILoopA = try await container.resolveAsync()
        return a.b?.a === a ? "built" : "built-unshared"
      } catch {
        return "\(error.code)"
      }
    }
    #expect(outcome != nil, "hung")
    #expect(outcome == "\(DIError.Code.cycle)")

    let plain = DIContainer()
    plain.register(AIILoopA.init).lifetime(.objectGraph).injection(cycle: true, \.b)
    plain.register(AIILoopB.init).lifetime(.objectGraph)
    let a: AIILoopA = try plain.tryResolve()
    #expect(a.b?.a === a)
    let a2: AIILoopA = try await plain.resolveAsync()
    #expect(a2.b?.a === a2)
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func everyObjectGraphInstanceGetsItsAsyncPostInitExactlyOnce() async throws {
    let container = DIContainer()
    let log = EventLog<String>()
    let posts = Counter()
    container.register { AIIThing(log: log) }
      .lifetime(.objectGraph)
      .postInit { t in
        await t.warmUp()
        posts.next()
      }
    container.register(AIIGraphMate.init)
    container.register(AIIGraphRoot.init)
    let root: AIIGraphRoot = try await container.resolveAsync()
    #expect(root.thing.isWarm && root.mate.thing.isWarm)
    let distinct = root.thing === root.mate.thing ? 1 : 2
    #expect(posts.value == distinct)
    #expect(log.all.filter { $0 == "init" }.count == distinct)
  }

  /// KNOWN DEFECT: a `.weak` lifetime (`.perContainer(.weak)`, `.perApplication(.weak)`,
  /// `.custom` with a `.weak` scope; async factories too) never finishes an async request:
  /// the request makes an instance, keeps it weakly, drops it, finds nothing and makes another
  /// one, forever (thousands of instances a second; it starves a 2-core pool). The postInit
  /// here throws when cancelled, so that the runaway request ends when the test gives up.
  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func weakLifetimeWithAsyncPostInitIsSharedWhileHeldThenRemade() async throws {
    for lifetime in [
      DILifetime.perContainer(.weak), .perApplication(.weak),
      .custom(DIScope(name: "AIIWeak", storage: DICacheStorage(), policy: .weak)),
    ] {
      let container = DIContainer()
      let log = EventLog<String>()
      let inits = Counter()
      container.register { () -> AIIThing in AIIThing(log: log, serial: inits.next()) }
        .lifetime(lifetime)
        .postInit { t in
          try await Task.sleep(for: .milliseconds(1))
          await t.warmUp()
        }
      let outcome = await aiiWithin(seconds: 3) { () -> String in
        do throws(DIError) {
          let held: AIIThing = try await container.resolveAsync()
          let again: AIIThing = try await container.resolveAsync()
          let sync: AIIThing = try container.tryResolve()
          return "same=\(held === again && again === sync) warm=\(held.isWarm)"
        } catch {
          return "\(error.code)"
        }
      }
      try await Task.sleep(for: .milliseconds(50))  // the cancelled runaway request ends
      #expect(outcome == "same=true warm=true")
      #expect(inits.value == 1, "a .weak async making is kept for its request's next attempt")
    }
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func syncManyNeverYieldsHalfMadeElements() throws {
    let container = DIContainer()
    container.register(AIIPluginA.init).as(AIIPlugin.self).postInit { p in await p.warmUp() }
    container.register(AIIPluginB.init).as(AIIPlugin.self)
    do {
      let plugins: [AIIPlugin] = many(try container.tryResolve())
      #expect(plugins.allSatisfy { $0.isWarm || $0 is AIIPluginB }, "half-made element")
      #expect(plugins.count == 2, "a sync many silently left out the async candidate: \(plugins)")
    } catch {
      #expect(error.code == .asyncFactory)
    }
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func cancelledFirstAsyncLazyCallDoesNotFailAConcurrentCaller() async throws {
    let container = DIContainer()
    let gate = Gate()
    let made = Counter()
    container.register { () -> AIIGreeter in
      made.next()
      return AIIGreeter(name: "lazy")
    }
    .postInit { _ in try await gate.cancellablePass() }
    let lazy: AsyncLazy<AIIGreeter> = try container.tryResolve()
    let first = Task { try await lazy.value }
    await aiiWaitUntil { made.value == 1 }
    let second = Task { try await lazy.value }
    try await Task.sleep(for: .milliseconds(30))
    first.cancel()
    _ = await first.result
    try await Task.sleep(for: .milliseconds(30))
    gate.open()
    let value = try await second.value
    #expect(value.name == "lazy")
    #expect(lazy.wasMade)

    // The same with AsyncLazy1.
    let gate1 = Gate()
    let made1 = Counter()
    let c1 = DIContainer()
    c1.register { (n: DIArg<String>) -> AIIGreeter in
      made1.next()
      return AIIGreeter(name: arg(n))
    }
    .postInit { _ in try await gate1.cancellablePass() }
    let lazy1: AsyncLazy1<AIIGreeter, String> = try c1.tryResolve()
    let f1 = Task { try await lazy1.value("first") }
    await aiiWaitUntil { made1.value == 1 }
    let s1 = Task { try await lazy1.value("second") }
    try await Task.sleep(for: .milliseconds(30))
    f1.cancel()
    _ = await f1.result
    try await Task.sleep(for: .milliseconds(30))
    gate1.open()
    let v1 = try await s1.value
    #expect(v1.name == "second")
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func asyncLazy1WithWrongArgumentTypeIsADIErrorAndKeepsNothing() async throws {
    let container = DIContainer()
    container.register { AIIGreeter(name: arg($0)) }.postInit { g in await g.warmUp() }
    let lazy: AsyncLazy1<AIIGreeter, Int> = try container.tryResolve()
    let error = await aiiCode { _ = try await lazy.value(42) }
    #expect(error != nil)
    #expect(!lazy.wasMade)
    let description = lazy.description
    #expect(description.contains("AIIGreeter"))
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func scopeClosedDuringAnInFlightScopedCreationLeaksNoInstance() async throws {
    let container = DIContainer()
    let log = EventLog<String>()
    let gate = Gate()
    let cleans = Counter()
    let inits = Counter()
    container.register { () -> AIIThing in AIIThing(log: log, serial: inits.next()) }
      .lifetime(.scoped)
      .postInit { _ in try await gate.cancellablePass() }
      .onClean { _ in cleans.next() }
    let scope = container.makeScope()
    let creator = Task { () throws(DIError) -> AIIThing in try await scope.resolveAsync() }
    await aiiWaitUntil { inits.value == 1 }
    scope.close()
    gate.open()
    let result = await creator.result
    // Either the request fails (scope closed) or the instance made after close is dropped
    // with its hook; it must never stay cached in a closed scope with its hook lost.
    if case .success = result {
      await aiiWaitUntil { cleans.value >= 1 }
      #expect(cleans.value == 1, "an instance made into a closed scope never had its onClean run")
    } else {
      #expect(cleans.value <= 1)
      if case .failure(let anyError) = result, let error = anyError as? DIError {
        #expect(error.code == .scopeClosed)
        // SPEC "Errors and logging": what was asked, the path.
        #expect(error.description.contains("AIIThing"), "\(error.description)")
      }
    }
    #expect(throws: DIError.self) { let _: AIIThing = try scope.tryResolve() }
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func shutdownDuringAnInFlightCreationLeavesNothingBehind() async throws {
    let container = DIContainer()
    let log = EventLog<String>()
    let gate = Gate()
    let cleans = Counter()
    let inits = Counter()
    container.register { () -> AIIThing in AIIThing(log: log, serial: inits.next()) }
      .lifetime(.perContainer(.single))
      .postInit { _ in try await gate.cancellablePass() }
      .onClean { _ in cleans.next() }
    let creator = Task { () throws(DIError) -> AIIThing in try await container.resolveAsync() }
    await aiiWaitUntil { inits.value == 1 }
    let stopper = Task { await container.shutdown() }
    try await Task.sleep(for: .milliseconds(30))
    gate.open()
    let result = await creator.result
    await stopper.value
    if case .success = result {
      await aiiWaitUntil { cleans.value >= 1 }
      #expect(cleans.value == 1, "an instance finished during shutdown never had its onClean run")
    }
    let after = await aiiCode { let _: AIIThing = try await container.resolveAsync() }
    #expect(after?.code == .containerShutDown)
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func childContainerResolvesParentAsyncInjectedComponentsWithTheRightDependencies() async throws {
    let parent = DIContainer()
    let log = EventLog<String>()
    parent.register { AIIDep(name: "parent") }
    parent.register { AIIThing(log: log) }
      .injection { (t: AIIThing, d: AIIDep) async in await t.attach(d.name) }
    parent.register { AIIGreeter(name: "shared") }
      .lifetime(.perContainer(.single))
      .injection { (g: AIIGreeter, d: AIIDep) async in
        await g.warmUp()
        _ = d
      }
    let child = DIContainer(parent: parent)
    child.register { AIIDep(name: "child") }

    let viaChild: AIIThing = try await child.resolveAsync()
    #expect(viaChild.attachedNames == ["child"])
    let viaParent: AIIThing = try await parent.resolveAsync()
    #expect(viaParent.attachedNames == ["parent"])

    let shared: AIIGreeter = try await child.resolveAsync()
    let sharedSync: AIIGreeter = try parent.tryResolve()
    #expect(shared === sharedSync)

    child.register(AIIScreen.self).injection(\.dep).postInit { s in
      await Task.yield()
      s.log.append("p")
    }
    let screen = AIIScreen()
    try await child.injectAsync(into: screen)
    #expect(screen.dep?.name == "child")
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func initializeSingletonObjectsAsyncRunsAsyncPostInitOnceAndRetriesAfterAFailure() async throws {
    let container = DIContainer()
    let attempts = Counter()
    let posts = Counter()
    container.register { AIIGreeter(name: "boot") }
      .lifetime(.single)
      .postInit { g in
        await g.warmUp()
        if attempts.next() == 1 { throw AIIBoom(code: 11) }
        posts.next()
      }
    let error = await aiiCode { try await container.initializeSingletonObjectsAsync() }
    #expect(error?.code == .factoryFailed)
    #expect(throws: DIError.self) { let _: AIIGreeter = try container.tryResolve() }
    try await container.initializeSingletonObjectsAsync()
    let g: AIIGreeter = try container.tryResolve()
    #expect(g.isWarm)
    try await container.initializeSingletonObjectsAsync()
    #expect(posts.value == 1)
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func injectAsyncOnManyObjectsConcurrentlyInjectsEachOnce() async throws {
    let container = DIContainer()
    let posts = Counter()
    container.register { () async -> AIIDep in
      await Task.yield()
      return AIIDep(name: "d")
    }
    .lifetime(.perContainer(.single))
    container.register(AIIScreen.self)
      .injection(\.dep)
      .postInit { s in
        await Task.yield()
        s.log.append("post")
        posts.next()
      }
    let screens = (0..<48).map { _ in AIIScreen() }
    try await withThrowingTaskGroup(of: Void.self) { group in
      for screen in screens { group.addTask { try await container.injectAsync(into: screen) } }
      try await group.waitForAll()
    }
    #expect(posts.value == 48)
    #expect(screens.allSatisfy { $0.log.all == ["post"] && $0.dep === screens[0].dep })
    let missing = await aiiCode { try await container.injectAsync(into: AIIUnregistered()) }
    #expect(missing?.code == .notRegistered)
  }

  // MARK: Third wave

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func multitonWithAsyncPostInitIsOnePerArgumentSetUnderConcurrency() async throws {
    let container = DIContainer()
    let posts = Counter()
    container.register { AIIGreeter(name: arg($0)) }
      .lifetime(.multiton)
      .postInit { g in
        try await Task.sleep(for: .milliseconds(10))
        await g.warmUp()
        posts.next()
      }
    let greeters = try await withThrowingTaskGroup(of: AIIGreeter.self) { group in
      for i in 0..<32 {
        group.addTask { try await container.resolveAsync(arg: i % 2 == 0 ? "a" : "b") }
      }
      var all: [AIIGreeter] = []
      for try await g in group { all.append(g) }
      return all
    }
    let a = greeters.filter { $0.name == "a" }
    let b = greeters.filter { $0.name == "b" }
    #expect(a.count == 16 && b.count == 16)
    #expect(a.allSatisfy { $0 === a[0] } && b.allSatisfy { $0 === b[0] })
    #expect(a[0] !== b[0])
    #expect(posts.value == 2)
    let syncA: AIIGreeter = try container.tryResolve(arguments: ["a"])
    #expect(syncA === a[0])
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func syncDependentReadsTheCachedInstanceOfAnAsyncInjectedComponent() async throws {
    let container = DIContainer()
    let log = EventLog<String>()
    container.register { AIIThing(log: log) }
      .lifetime(.perContainer(.single))
      .injection { (t: AIIThing) async in await t.warmUp() }
    container.register(AIIOuter.init)
    #expect(throws: DIError.self) { let _: AIIOuter = try container.tryResolve() }
    let thing: AIIThing = try await container.resolveAsync()
    let outer: AIIOuter = try container.tryResolve()
    #expect(outer.thing === thing)
  }

  /// Child tasks of a postInit (`async let`, task groups) inherit its task-locals: they must
  /// still be able to share one cached async component without a false cycle or a hang.
  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func childTasksOfAPostInitShareACachedAsyncComponentWithoutAFalseCycle() async throws {
    let container = DIContainer()
    let weak = WeakBox(container)
    let log = EventLog<String>()
    let depInits = Counter()
    container.register { () -> AIIDep in
      depInits.next()
      return AIIDep(name: "shared")
    }
    .lifetime(.perContainer(.single))
    .postInit { d in
      try await Task.sleep(for: .milliseconds(20))
      await d.warmUp()
    }
    container.register { AIIThing(log: log) }
      .postInit { t in
        let c = weak.object!
        let names = try await withThrowingTaskGroup(of: String.self) { group in
          for _ in 0..<8 {
            group.addTask {
              let d: AIIDep = try await c.resolveAsync()
              return "\(d.name) \(d.isWarm)"
            }
          }
          var all: [String] = []
          for try await n in group { all.append(n) }
          return all
        }
        t.log.append(names.joined(separator: ","))
      }
    let outcome = await aiiWithin(seconds: 15) { () -> String in
      do throws(DIError) {
        let _: AIIThing = try await container.resolveAsync()
        return "ok"
      } catch {
        return "\(error.code): \(error)"
      }
    }
    // Each child task's request runs inside the postInit's: the first to ask for AIIDep
    // makes it, the others wait for it as unrelated requests would.
    #expect(outcome == "ok")
    #expect(log.all.last == Array(repeating: "shared true", count: 8).joined(separator: ","))
    #expect(depInits.value == 1)
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func asyncInjectionsOfTwoComponentsNeedingOneCachedAsyncComponentConcurrently() async throws {
    let container = DIContainer()
    let log = EventLog<String>()
    let depInits = Counter()
    container.register { () -> AIIDep in
      depInits.next()
      return AIIDep(name: "shared")
    }
    .lifetime(.perContainer(.single))
    .postInit { d in
      try await Task.sleep(for: .milliseconds(20))
      await d.warmUp()
    }
    container.register { AIIThing(log: log) }
      .injection { (t: AIIThing, d: AIIDep) async in await t.attach("\(d.name) \(d.isWarm)") }
    container.register { AIIGreeter(name: "g") }
      .injection { (g: AIIGreeter, d: AIIDep) async in
        await g.warmUp()
        _ = d
      }
    container.register(AIIGraphMate.init)
    let outcome = await aiiWithin(seconds: 15) { () -> String in
      do {
        async let thing: AIIThing = container.resolveAsync()
        async let greeter: AIIGreeter = container.resolveAsync()
        async let mate: AIIGraphMate = container.resolveAsync()
        let (t, g, m) = try await (thing, greeter, mate)
        return "\(t.attachedNames) \(g.isWarm) \(m.thing.attachedNames)"
      } catch {
        return "\(error)"
      }
    }
    #expect(outcome == "[\"shared true\"] true [\"shared true\"]")
    #expect(depInits.value == 1)
  }
}
