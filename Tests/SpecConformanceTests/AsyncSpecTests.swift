import DIContainer
import DIFrameworks
import DIParts
import DITestSupport
import Synchronization
import Testing

// SPEC.md, "Async and throwing factories" (the snippet verbatim and each bullet of its
// prose) and the new lines of "Request scopes and teardown" (`withScope`, `shutdown()`).

/// What the hooks and factories did, in order.
final class AsyncEvents: Sendable {
  private let state = Mutex<[String]>([])
  func append(_ event: String) { state.withLock { $0.append(event) } }
  var all: [String] { state.withLock { $0 } }
}

/// The error the factories and bodies of these tests throw.
struct AsyncSpecFailure: Error, Equatable {
  let reason: String
}

/// Runs `operation` on a task of its own and returns its result, or nil when it has not
/// finished within `limit` (the task is left suspended: a hang becomes a failed expectation
/// rather than a stuck test run).
func asyncWithin<T: Sendable>(
  _ limit: Duration, _ operation: @escaping @Sendable () async -> T
) async -> T? {
  let race = AsyncRace<T>()
  return await withCheckedContinuation { continuation in
    race.start(continuation)
    Task { race.finish(with: await operation()) }
    Task {
      try? await Task.sleep(for: limit)
      race.finish(with: nil)
    }
  }
}

/// The continuation `asyncWithin` resumes once, with whichever comes first.
final class AsyncRace<T: Sendable>: Sendable {
  private let pending = Mutex<CheckedContinuation<T?, Never>?>(nil)
  func start(_ continuation: CheckedContinuation<T?, Never>) {
    pending.withLock { $0 = continuation }
  }
  func finish(with result: T?) {
    pending.withLock { $0.take() }?.resume(returning: result)
  }
}

@Suite struct AsyncSpecTests {
  // MARK: - The types the snippet names

  final class Config: Sendable {
    let databaseURL: String
    init(databaseURL: String) { self.databaseURL = databaseURL }
    static func load() throws -> Config { Config(databaseURL: "postgres://orders") }
  }

  final class DatabasePool: Sendable {
    let url: String
    private init(url: String) { self.url = url }
    static func connect(_ url: String) async throws -> DatabasePool {
      try await Task.sleep(for: .milliseconds(5))
      return DatabasePool(url: url)
    }
  }

  final class Mailer: Sendable {
    let pool: DatabasePool
    let flushed = Atomic(0)
    init(pool: DatabasePool) async throws {
      try await Task.sleep(for: .milliseconds(5))
      self.pool = pool
    }
    func flush() async {
      try? await Task.sleep(for: .milliseconds(5))
      flushed.add(1, ordering: .relaxed)
    }
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func theSnippetRunsAsWritten() async throws {
    let container = DIContainer()

    container.register { try Config.load() }  // a throwing factory
    container.register { (config: Config) async throws -> DatabasePool in
      try await DatabasePool.connect(config.databaseURL)
    }
    container.register(Mailer.init)  // init(pool:) async throws
      .onClean { mailer in await mailer.flush() }  // async teardown hook
    let pool: DatabasePool = try await container.resolveAsync()  // every resolve form has it
    let later: AsyncLazy<Mailer> = try await container.resolveAsync()
    try await container.initializeSingletonObjectsAsync()  // async singletons at boot

    #expect(pool.url == "postgres://orders")
    #expect(!later.wasMade, "an AsyncLazy makes nothing until .value")
    let mailer = try await later.value
    #expect(mailer === (try await later.value), "made once, then kept")
    #expect(mailer.pool.url == "postgres://orders")
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func everyResolveFormHasAnAsyncOne() async throws {
    let container = DIContainer()
    container.register { try Config.load() }
    container.register { (config: Config) async throws -> DatabasePool in
      try await DatabasePool.connect(config.databaseURL)
    }
    .lifetime(.perContainer(.single))
    container.register { (pool: DatabasePool) async -> AsyncTagged in AsyncTagged(pool: pool) }
      .as(AsyncTagged.self, tag: AsyncPrimary.self)
    container.register { AsyncNamed(name: arg($0)) }

    let optional: DatabasePool? = try await container.resolveAsync()
    let missing: AsyncTagged? = try await container.resolveAsync()
    let all: [DatabasePool] = many(try await container.resolveAsync())
    let tagged: AsyncTagged = by(tag: AsyncPrimary.self, on: try await container.resolveAsync())
    let named: AsyncNamed = try await container.resolveAsync(arg: "mimi")
    let provider: AsyncProvider<DatabasePool> = try await container.resolveAsync()
    let scope = container.makeScope()
    let scoped: DatabasePool = try await scope.resolveAsync()
    scope.close()

    #expect(optional != nil)
    #expect(missing == nil, "only under its tag")
    #expect(all.count == 1 && all.first === optional)
    #expect(tagged.pool === optional)
    #expect(named.name == "mimi")
    #expect(try await provider.value === optional)
    #expect(scoped === optional)
  }

  // MARK: - A thrown error

  @Test func aThrownErrorFailsTheRequestWithADIErrorCarryingItAndCachesNothing() throws {
    let container = DIContainer()
    let attempts = Atomic(0)
    container.register { () throws -> AsyncSettings in
      if attempts.add(1, ordering: .relaxed).newValue == 1 {
        throw AsyncSpecFailure(reason: "no file")
      }
      return AsyncSettings()
    }
    .lifetime(.perContainer(.single))
    container.register(AsyncSettingsUser.init)

    let error = #expect(throws: DIError.self) {
      let _: AsyncSettingsUser = try container.tryResolve()
    }
    #expect(error?.code == .factoryFailed)
    #expect(error?.underlyingError as? AsyncSpecFailure == AsyncSpecFailure(reason: "no file"))
    #expect(error?.path.map(\.requested) == ["AsyncSettingsUser", "AsyncSettings"])
    let text = error?.description ?? ""
    #expect(text.contains("AsyncSettingsUser → AsyncSettings"), "the path")
    #expect(text.contains("SpecConformanceTests/AsyncSpecTests.swift:"), "the file:line")

    let settings: AsyncSettings = try container.tryResolve()
    #expect(settings === (try container.tryResolve() as AsyncSettings))
    #expect(attempts.load(ordering: .relaxed) == 2, "the factory that threw cached nothing")
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func anAsyncFactoryThatThrowsCachesNothing() async throws {
    let container = DIContainer()
    let attempts = Atomic(0)
    container.register { () async throws -> AsyncSettings in
      try await Task.sleep(for: .milliseconds(5))
      if attempts.add(1, ordering: .relaxed).newValue == 1 {
        throw AsyncSpecFailure(reason: "refused")
      }
      return AsyncSettings()
    }
    .lifetime(.perContainer(.single))

    let error = await #expect(throws: DIError.self) {
      let _: AsyncSettings = try await container.resolveAsync()
    }
    #expect(error?.code == .factoryFailed)
    #expect(error?.underlyingError as? AsyncSpecFailure == AsyncSpecFailure(reason: "refused"))
    #expect(error?.description.contains("SpecConformanceTests/AsyncSpecTests.swift:") == true)
    let first: AsyncSettings = try await container.resolveAsync()
    let second: AsyncSettings = try await container.resolveAsync()
    #expect(first === second)
    #expect(attempts.load(ordering: .relaxed) == 2)
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func anAsyncFactorysErrorNamesThePathFromTheRequest() async {
    let container = DIContainer()
    container.register { () async throws -> AsyncSettings in
      throw AsyncSpecFailure(reason: "refused")
    }
    container.register(AsyncSettingsUser.init)
    let error = await #expect(throws: DIError.self) {
      let _: AsyncSettingsUser = try await container.resolveAsync()
    }
    #expect(error?.code == .factoryFailed)
    #expect(error?.path.map(\.requested) == ["AsyncSettingsUser", "AsyncSettings"])
  }

  // MARK: - Synchronous closures, synchronous requests

  @Test func synchronousClosuresPickTheSynchronousRegisterInAsyncFunctionsToo() async throws {
    let container = DIContainer()
    container.register { try Config.load() }
    container.register { AsyncSettings() }
    container.register { (settings: AsyncSettings) in AsyncSettingsUser(settings: settings) }
    container.register(AsyncSettingsUser.init).as(AsyncSettingsUser.self, tag: AsyncPrimary.self)
    // An async factory could not serve these synchronous requests (.asyncFactory).
    let config: Config = try container.tryResolve()
    let user: AsyncSettingsUser = try container.tryResolve()
    let tagged: AsyncSettingsUser = by(tag: AsyncPrimary.self, on: try container.tryResolve())
    #expect(config.databaseURL == "postgres://orders")
    #expect(user !== tagged)
  }

  @Test func aSynchronousRequestNeedingAnAsyncFactoryIsAnErrorSayingToUseResolveAsync() {
    let container = DIContainer()
    container.register { try Config.load() }
    container.register { (config: Config) async throws -> DatabasePool in
      try await DatabasePool.connect(config.databaseURL)
    }
    container.register(Mailer.init)
    let error = #expect(throws: DIError.self) { let _: Mailer = try container.tryResolve() }
    #expect(error?.code == .asyncFactory)
    let text = error?.description ?? ""
    #expect(text.contains("Mailer"), "names the component")
    #expect(text.contains("resolveAsync()"))
    #expect(text.contains("initializeSingletonObjectsAsync()"), "or to create it at boot")
    let optional = #expect(throws: DIError.self) { let _: Mailer? = try container.tryResolve() }
    #expect(optional?.code == .asyncFactory, "an optional request fails too, it is not nil")
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func anInstanceAlreadyCachedIsReturnedToASynchronousRequest() async throws {
    let container = DIContainer()
    container.register { try Config.load() }
    container.register { (config: Config) async throws -> DatabasePool in
      try await DatabasePool.connect(config.databaseURL)
    }
    .lifetime(.perContainer(.single))
    let made: DatabasePool = try await container.resolveAsync()
    let read: DatabasePool = try container.tryResolve()
    #expect(read === made)
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func initializeSingletonObjectsAsyncMakesAsyncSingletonsForSynchronousRequests() async throws {
    let container = DIContainer()
    container.register(AsyncBootPool.init).lifetime(.single)
    let before = #expect(throws: DIError.self) { let _: AsyncBootPool = try container.tryResolve() }
    #expect(before?.code == .asyncFactory)
    try await container.initializeSingletonObjectsAsync()
    let pool: AsyncBootPool = try container.tryResolve()
    #expect(pool === (try container.tryResolve() as AsyncBootPool))
    await container.shutdown()
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func initializeObjectsForScopeAsyncMakesTheScopesAsyncInstances() async throws {
    let container = DIContainer()
    let session = DIScope(name: "AsyncSpecSession", storage: DICacheStorage(), policy: .single)
    container.register { try Config.load() }
    container.register { (config: Config) async throws -> DatabasePool in
      try await DatabasePool.connect(config.databaseURL)
    }
    .lifetime(.custom(session))
    try await container.initializeObjectsForScopeAsync(session)
    let pool: DatabasePool = try container.tryResolve()
    #expect(pool === (try container.tryResolve() as DatabasePool))
  }

  final class Report: Sendable {
    let mailer: AsyncLazy<Mailer>
    let pools: AsyncProvider<DatabasePool>
    init(mailer: AsyncLazy<Mailer>, pools: AsyncProvider<DatabasePool>) {
      self.mailer = mailer
      self.pools = pools
    }
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func aSynchronousComponentMayTakeAsyncLazyAndAsyncProviderOfAsyncComponents() async throws {
    let container = DIContainer()
    container.register { try Config.load() }
    container.register { (config: Config) async throws -> DatabasePool in
      try await DatabasePool.connect(config.databaseURL)
    }
    .lifetime(.perContainer(.single))
    container.register(Mailer.init)
    container.register(Report.init)
    let report: Report = try container.tryResolve()  // synchronous: async only at .value
    #expect(!report.mailer.wasMade)
    let mailer = try await report.mailer.value
    #expect(mailer === (try await report.mailer.value))
    #expect(mailer.pool === (try await report.pools.value))
  }

  final class LazyReport {
    init(mailer: Lazy<Mailer>) {}
  }

  @Test func aSynchronousLazyOfAnAsyncComponentIsAValidationProblem() throws {
    let container = DIContainer()
    container.register { try Config.load() }
    container.register { (config: Config) async throws -> DatabasePool in
      try await DatabasePool.connect(config.databaseURL)
    }
    container.register(Mailer.init)
    container.register(Report.init).root()
    try container.makeGraph().validate()  // async parameters and AsyncLazy/AsyncProvider: fine
    container.register(LazyReport.init).root()
    let report = #expect(throws: DIGraphValidationError.self) {
      try container.makeGraph().validate()
    }
    #expect(report?.errors.map(\.kind) == [.synchronousPathToAsync])
  }

  // MARK: - Caching lifetimes under many tasks

  enum CountingFramework: DIFramework {
    static func load(container: DIContainer) {
      container.append(part: CountingPart.self)
    }
  }
  enum CountingPart: DIPart {
    static func load(container: DIContainer) {}
  }

  @Test(
    .timeLimit(.minutes(TestEnvironment.hangMinutes)),
    arguments: ["perContainer", "perFramework", "perPart", "custom", "scoped"])
  func aCachingLifetimeCreatesOnceUnderManyTasks(lifetime name: String) async throws {
    let container = DIContainer()
    let made = Atomic(0)
    let lifetime: DILifetime =
      switch name {
      case "perContainer": .perContainer(.single)
      case "perFramework": .perFramework(.single)
      case "perPart": .perPart(.single)
      case "custom": .custom(DIScope(name: "AsyncSpecMany", storage: DICacheStorage()))
      default: .scoped
      }
    container.register { () async throws -> AsyncSlow in
      made.add(1, ordering: .relaxed)
      try await Task.sleep(for: .milliseconds(50))
      return AsyncSlow()
    }
    .lifetime(lifetime)
    let scope = container.makeScope()
    let resolver: any DIResolver = name == "scoped" ? scope : container
    let instances = try await withThrowingTaskGroup(of: ObjectIdentifier.self) { group in
      for _ in 0..<64 {
        group.addTask { ObjectIdentifier(try await resolver.resolveAsync() as AsyncSlow) }
      }
      return try await group.reduce(into: Set<ObjectIdentifier>()) { $0.insert($1) }
    }
    #expect(instances.count == 1, "\(name)")
    #expect(made.load(ordering: .relaxed) == 1, "\(name)")
    scope.close()
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func aProcessWideLifetimeCreatesOnceUnderManyTasks() async throws {
    let container = DIContainer()
    let made = Atomic(0)
    container.register { () async throws -> AsyncProcessWide in
      made.add(1, ordering: .relaxed)
      try await Task.sleep(for: .milliseconds(50))
      return AsyncProcessWide()
    }
    .lifetime(.perApplication(.single))
    let instances = try await withThrowingTaskGroup(of: ObjectIdentifier.self) { group in
      for _ in 0..<64 {
        group.addTask { ObjectIdentifier(try await container.resolveAsync() as AsyncProcessWide) }
      }
      return try await group.reduce(into: Set<ObjectIdentifier>()) { $0.insert($1) }
    }
    #expect(instances.count == 1)
    #expect(made.load(ordering: .relaxed) == 1)
    await container.shutdown()
  }

  // MARK: - A loop between tasks

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func aLoopBetweenTwoTasksSingletonsIsADIError() async {
    let container = DIContainer()
    container.register(AsyncPing.init).lifetime(.perContainer(.single))
    container.register(AsyncPong.init).lifetime(.perContainer(.single))
    // A guard against a hang only: on a loaded machine (the whole suite, ThreadSanitizer)
    // other tests may hold the cooperative threads for minutes.
    let outcome = await asyncWithin(TestEnvironment.limitDuration(45)) { () -> [DIError.Code?] in
      async let ping: AsyncPing = container.resolveAsync()
      async let pong: AsyncPong = container.resolveAsync()
      var codes: [DIError.Code?] = []
      do { _ = try await ping } catch { codes.append((error as? DIError)?.code) }
      do { _ = try await pong } catch { codes.append((error as? DIError)?.code) }
      return codes
    }
    #expect(outcome != nil, "it ended within the time limit")
    #expect(outcome == [DIError.Code.cycle, .cycle], "both requests fail with a DIError")
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func aLoopThroughAnotherTaskIsADIError() async {
    // The factory of AsyncLoopHub waits for a detached task that needs AsyncLoopHub.
    let container = DIContainer()
    container.register { () async throws -> AsyncLoopHub in
      let spoke = Task.detached { () async throws -> AsyncLoopSpoke in
        try await container.resolveAsync()
      }
      return AsyncLoopHub(spoke: try await spoke.value)
    }
    .lifetime(.perContainer(.single))
    container.register(AsyncLoopSpoke.init).lifetime(.perContainer(.single))
    let outcome = await asyncWithin(.seconds(3)) { () -> DIError? in
      do {
        let _: AsyncLoopHub = try await container.resolveAsync()
        return nil
      } catch {
        return error as? DIError
      }
    }
    withKnownIssue(
      "AsyncLoopHub's creation awaits a detached task that awaits that creation: not detected, both stay suspended"
    ) {
      #expect(outcome != nil, "it ended within the time limit")
      #expect(outcome??.code == .cycle)
    }
  }

  // MARK: - Request scopes and teardown: withScope

  final class RequestLog: Sendable {}
  final class Handler: Sendable {
    let log: RequestLog
    let handled = Atomic(0)
    init(log: RequestLog) { self.log = log }
    func handle() async throws {
      try await Task.sleep(for: .milliseconds(5))
      handled.add(1, ordering: .relaxed)
    }
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func theTeardownSnippetsNewLinesRunAsWritten() async throws {
    let container = DIContainer()
    let events = AsyncEvents()
    container.register(RequestLog.init).lifetime(.scoped)
      .onClean { _ in
        try? await Task.sleep(for: .milliseconds(5))
        events.append("closed RequestLog")
      }
    container.register(Handler.init)
      .onClean { handler in events.append("handled \(handler.handled.load(ordering: .relaxed))") }
    container.register(AsyncShutdownPool.init).lifetime(.perContainer(.single))
      .onClean { pool in await pool.close(events) }
    let _: AsyncShutdownPool = try container.tryResolve()

    try await container.withScope { scope in  // a scope for an async body (a request, a job),
      let handler: Handler = try await scope.resolveAsync()  // closed, hooks awaited, when it ends
      try await handler.handle()
    }
    #expect(events.all == ["closed RequestLog"], "closed, its async hook awaited, on return")
    await container.shutdown()  // drops every instance this container holds,
    // hooks in reverse creation order, async awaited
    #expect(events.all == ["closed RequestLog", "closed AsyncShutdownPool"])
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func withScopeReturnsWhatItsBodyReturnsAfterClosingTheScope() async throws {
    let container = DIContainer()
    let events = AsyncEvents()
    container.register(RequestLog.init).lifetime(.scoped)
      .onClean { _ in
        try? await Task.sleep(for: .milliseconds(20))
        events.append("closed RequestLog")
      }
    var kept: DIRequestScope?
    let status = try await container.withScope { scope in
      kept = scope
      let _: RequestLog = try await scope.resolveAsync()
      return 204
    }
    #expect(status == 204)
    #expect(kept?.isClosed == true)
    #expect(events.all == ["closed RequestLog"])
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func withScopeRethrowsTheBodysErrorUnchangedAfterClosingTheScope() async throws {
    let container = DIContainer()
    let events = AsyncEvents()
    container.register(RequestLog.init).lifetime(.scoped)
      .onClean { _ in
        try? await Task.sleep(for: .milliseconds(20))
        events.append("closed RequestLog")
      }
    var kept: DIRequestScope?
    await #expect(throws: AsyncSpecFailure(reason: "bad request")) {
      try await container.withScope { scope in
        kept = scope
        let _: RequestLog = try await scope.resolveAsync()
        throw AsyncSpecFailure(reason: "bad request")
      }
    }
    #expect(kept?.isClosed == true)
    #expect(events.all == ["closed RequestLog"], "closed before the error reached the caller")
    let scopeError = #expect(throws: DIError.self) {
      let _: RequestLog = try kept!.tryResolve()
    }
    #expect(scopeError?.code == .scopeClosed)
  }

  // MARK: - Request scopes and teardown: shutdown()

  enum ShutdownFramework: DIFramework {
    static let events = AsyncEvents()
    static func load(container: DIContainer) {
      container.register { AsyncFrameworkPool() }.lifetime(.perFramework(.single))
        .onClean { _ in events.append("perFramework") }
      container.append(part: ShutdownPart.self)
    }
  }
  enum ShutdownPart: DIPart {
    static func load(container: DIContainer) {
      container.register { AsyncPartPool() }.lifetime(.perPart(.single))
        .onClean { _ in ShutdownFramework.events.append("perPart") }
    }
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func shutdownDropsEveryInstanceOfEveryLifetime() async throws {
    let container = DIContainer()
    let events = ShutdownFramework.events
    let session = DIScope(name: "AsyncSpecShutdown", storage: DICacheStorage())
    container.append(framework: ShutdownFramework.self)
    container.register { AsyncContainerPool() }.lifetime(.perContainer(.single))
      .onClean { _ in events.append("perContainer") }
    container.register { AsyncMultitonPool(name: arg($0)) }.lifetime(.multiton)
      .onClean { pool in events.append("multiton \(pool.name)") }
    container.register { AsyncSinglePool() }.lifetime(.single)
      .onClean { _ in events.append("single") }
    container.register { AsyncApplicationPool() }.lifetime(.perApplication(.single))
      .onClean { _ in events.append("perApplication") }
    container.register { AsyncSessionPool() }.lifetime(.custom(session))
      .onClean { _ in events.append("custom") }
    container.register { () async -> AsyncRequestPool in AsyncRequestPool() }.lifetime(.scoped)
      .onClean { _ in
        try? await Task.sleep(for: .milliseconds(5))
        events.append("scoped")
      }

    weak let framework: AsyncFrameworkPool? = try container.tryResolve()
    weak let part: AsyncPartPool? = try container.tryResolve()
    weak let perContainer: AsyncContainerPool? = try container.tryResolve()
    weak let multiton: AsyncMultitonPool? = try container.tryResolve(arguments: ["a"])
    weak let single: AsyncSinglePool? = try container.tryResolve()
    weak let application: AsyncApplicationPool? = try container.tryResolve()
    weak let custom: AsyncSessionPool? = try container.tryResolve()
    let scope = container.makeScope()
    weak let scoped: AsyncRequestPool? = try await scope.resolveAsync()
    #expect(scoped != nil && single != nil && custom != nil, "kept by their lifetimes")

    await container.shutdown()

    #expect(
      events.all == [
        "scoped", "custom", "perApplication", "single", "multiton a", "perContainer", "perPart",
        "perFramework",
      ], "every lifetime's instance dropped, its hook run, newest first")
    #expect(scope.isClosed, "an open request scope is closed")
    #expect(framework == nil && part == nil && perContainer == nil && multiton == nil)
    #expect(single == nil && application == nil, "the process-wide caches let them go")
    #expect(custom == nil && scoped == nil)
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func everyRequestAfterShutdownFailsWithContainerShutDown() async throws {
    let container = DIContainer()
    container.register { try Config.load() }.lifetime(.perContainer(.single))
    container.register { (config: Config) async throws -> DatabasePool in
      try await DatabasePool.connect(config.databaseURL)
    }
    let scope = container.makeScope()
    await container.shutdown()

    let sync = #expect(throws: DIError.self) { let _: Config = try container.tryResolve() }
    #expect(sync?.code == .containerShutDown)
    let async = await #expect(throws: DIError.self) {
      let _: DatabasePool = try await container.resolveAsync()
    }
    #expect(async?.code == .containerShutDown)
    let optional = #expect(throws: DIError.self) { let _: Config? = try container.tryResolve() }
    #expect(optional?.code == .containerShutDown)
    let scoped = #expect(throws: DIError.self) { let _: Config = try scope.tryResolve() }
    #expect(scoped?.code == .containerShutDown || scoped?.code == .scopeClosed)
    let newScope = await #expect(throws: DIError.self) {
      try await container.withScope { scope in
        let _: Config = try await scope.resolveAsync()
      }
    }
    #expect(newScope?.code == .containerShutDown)
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func initializeSingletonObjectsAsyncAfterShutdownFailsAndMakesNothing() async {
    let container = DIContainer()
    let made = Atomic(0)
    container.register { () async -> AsyncLateBootPool in
      made.add(1, ordering: .relaxed)
      return AsyncLateBootPool()
    }
    .lifetime(.single)
    await container.shutdown()
    var error: DIError?
    do {
      try await container.initializeSingletonObjectsAsync()
    } catch let thrown {
      error = thrown
    }
    #expect(made.load(ordering: .relaxed) == 0, "no pool connects after shutdown")
    #expect(error?.code == .containerShutDown)
    await container.shutdown()
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func hooksRunOnceInReverseOrderOfCreationAwaitingAsyncOnes() async throws {
    let container = DIContainer()
    let events = AsyncEvents()
    container.register { AsyncChainLeaf() }.lifetime(.perContainer(.single))
      .onClean { _ in
        try? await Task.sleep(for: .milliseconds(20))
        events.append("leaf")
      }
    container.register(AsyncChainMiddle.init).lifetime(.perContainer(.single))
      .onClean { _ in events.append("middle") }
    container.register(AsyncChainTop.init).lifetime(.perContainer(.single))
      .onClean { _ in
        try? await Task.sleep(for: .milliseconds(20))
        events.append("top")
      }
    let _: AsyncChainTop = try container.tryResolve()
    await container.shutdown()
    #expect(events.all == ["top", "middle", "leaf"])
    await container.shutdown()
    container.clean()
    #expect(events.all == ["top", "middle", "leaf"], "once")
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func anAsyncHookDroppedBySynchronousCallsIsNotLostAndShutdownWaitsForIt() async throws {
    let container = DIContainer()
    let events = AsyncEvents()
    let hook: @Sendable (String) async -> Void = { name in
      try? await Task.sleep(for: .milliseconds(50))
      events.append(name)
    }
    container.register { AsyncContainerPool() }.lifetime(.perContainer(.single))
      .onClean { _ in await hook("perContainer") }
    container.register { AsyncRequestPool() }.lifetime(.scoped)
      .onClean { _ in await hook("scoped") }
    let _: AsyncContainerPool = try container.tryResolve()
    let scope = container.makeScope()
    let _: AsyncRequestPool = try scope.tryResolve()

    container.clean()  // synchronous: the async hooks start on tasks of their own
    scope.close()
    #expect(events.all.isEmpty, "still running")
    await container.shutdown()
    #expect(events.all.sorted() == ["perContainer", "scoped"], "each once, awaited by shutdown()")
  }

  // MARK: - A creation that throws or is cancelled

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func waitersShareAFailureAndNothingIsCached() async throws {
    let container = DIContainer()
    let started = Atomic(0)
    let waiterRuns = Atomic(false)
    container.register { () async throws -> AsyncSlow in
      let attempt = started.add(1, ordering: .relaxed).newValue
      if attempt == 1 {
        // The waiter runs, then has time to reach its wait, on a loaded machine too (the
        // test pool may start a task late).
        while !waiterRuns.load(ordering: .relaxed) { try await Task.sleep(for: .milliseconds(5)) }
        try await Task.sleep(for: .milliseconds(500))
        throw AsyncSpecFailure(reason: "down")
      }
      return AsyncSlow()
    }
    .lifetime(.perContainer(.single))
    let creator = Task { try await container.resolveAsync() as AsyncSlow }
    while started.load(ordering: .relaxed) == 0 { await Task.yield() }
    let waiter = Task {
      waiterRuns.store(true, ordering: .relaxed)
      return try await container.resolveAsync() as AsyncSlow
    }
    let errors = [
      await #expect(throws: DIError.self) { _ = try await creator.value },
      await #expect(throws: DIError.self) { _ = try await waiter.value },
    ]
    #expect(
      errors.map { $0?.underlyingError as? AsyncSpecFailure } == [
        AsyncSpecFailure(reason: "down"), AsyncSpecFailure(reason: "down"),
      ])
    let made: AsyncSlow = try await container.resolveAsync()
    #expect(made === (try await container.resolveAsync() as AsyncSlow))
    #expect(started.load(ordering: .relaxed) == 2)
  }

  // MARK: - A factory async -> T?

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func anAsyncFactoryReturningAnOptionalRegistersTheWrappedTypeAndNilIsFactoryReturnedNil()
    async throws
  {
    // "A factory `async -> T?` registers `T`, as the synchronous form does; nil is
    // `.factoryReturnedNil`."
    let container = DIContainer()
    container.register { () async -> AsyncSettings? in nil }
    container.register { (config: Config) async throws -> DatabasePool? in
      try await DatabasePool.connect(config.databaseURL)
    }
    container.register { try Config.load() }
    let pool: DatabasePool = try await container.resolveAsync()
    #expect(pool.url == "postgres://orders")
    let error = await #expect(throws: DIError.self) {
      let _: AsyncSettings = try await container.resolveAsync()
    }
    #expect(error?.code == .factoryReturnedNil)
    #expect(error?.description.contains("SpecConformanceTests/AsyncSpecTests.swift:") == true)
  }

  // MARK: - AsyncLazy and AsyncProvider from a closure

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func asyncLazyAndAsyncProviderCanBeMadeFromAClosure() async throws {
    // "`AsyncLazy { try await Pool.connect() }` and `AsyncProvider { … }` make them from a
    // closure."
    let url = "postgres://orders"
    let lazy = AsyncLazy { try await DatabasePool.connect(url) }
    let provider = AsyncProvider { try await DatabasePool.connect(url) }
    #expect(!lazy.wasMade)
    let pool = try await lazy.value
    #expect(try await lazy.value === pool, "made once, then kept")
    #expect(try await provider.value !== (try await provider.value), "made at every read")
  }

  // MARK: - Servers: no trapping resolve in async code

  enum HandlerFramework: DIFramework {
    static func load(container: DIContainer) {}
  }

  /// SPEC, "Servers": the forms that stop the program (`resolve()`, `resolve(from:)`,
  /// `inject(into:)`, `Lazy.value`, ...) are `@available(*, noasync)`, a compile error here
  /// (Scripts/check-noasync.sh checks it); what async code writes instead throws the
  /// `DIError` a server logs, and the same calls work once the container is fixed.
  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func inAsyncCodeTheThrowingFormsReportAMisconfigurationInsteadOfTrapping() async throws {
    let container = DIContainer()
    container.append(framework: HandlerFramework.self)
    container.register(AsyncHandler.init)
    container.register(AsyncHandlerView.self).injection(\.client)
    let lazy: Lazy<AsyncHandler> = try container.tryResolve()
    let provider: Provider<AsyncHandler> = try container.tryResolve()

    var failures: [DIError?] = [
      #expect(throws: DIError.self) { let _: AsyncHandler = try container.tryResolve() },
      #expect(throws: DIError.self) {
        let _: AsyncHandler = try container.tryResolve(from: HandlerFramework.self)
      },
      #expect(throws: DIError.self) {
        let _: AsyncHandler = try container.makeScope().tryResolve()
      },
      #expect(throws: DIError.self) { try container.tryInject(into: AsyncHandlerView()) },
      #expect(throws: DIError.self) { _ = try lazy.tryValue() },
      #expect(throws: DIError.self) { _ = try provider.tryValue() },
    ]
    failures += [
      await #expect(throws: DIError.self) {
        let _: AsyncHandler = try await container.resolveAsync()
      },
      await #expect(throws: DIError.self) {
        let _: AsyncHandler = try await container.resolveAsync(from: HandlerFramework.self)
      },
      await #expect(throws: DIError.self) {
        let _: AsyncHandler = try await container.makeScope().resolveAsync()
      },
      await #expect(throws: DIError.self) {
        try await container.injectAsync(into: AsyncHandlerView())
      },
    ]
    for failure in failures {
      #expect(failure?.code == .notRegistered)
      #expect(failure?.description.contains("AsyncHandlerClient is not registered") == true)
    }

    container.register { AsyncHandlerClient() }.lifetime(.perContainer(.single))
    let client: AsyncHandlerClient = try await container.resolveAsync()
    let handlers: [AsyncHandler] = [
      try container.tryResolve(), try container.tryResolve(from: HandlerFramework.self),
      try container.makeScope().tryResolve(), try lazy.tryValue(), try provider.tryValue(),
      try await container.resolveAsync(), try await container.makeScope().resolveAsync(),
    ]
    #expect(handlers.allSatisfy { $0.client === client })
    let view = AsyncHandlerView()
    try container.tryInject(into: view)
    #expect(view.client === client)
  }
}

// MARK: - Helper types (prefixed `Async`: the test target shares one namespace)

/// What a handler needs; the misconfigured container has no registration for it.
final class AsyncHandlerClient: Sendable {}
final class AsyncHandler: Sendable {
  let client: AsyncHandlerClient
  init(client: AsyncHandlerClient) { self.client = client }
}
/// An instance made elsewhere whose `client` the container injects (a placeholder until
/// then).
final class AsyncHandlerView {
  var client = AsyncHandlerClient()
}

final class AsyncSettings: Sendable {}
final class AsyncSettingsUser: Sendable {
  let settings: AsyncSettings
  init(settings: AsyncSettings) { self.settings = settings }
}
enum AsyncPrimary {}
final class AsyncTagged: Sendable {
  let pool: AsyncSpecTests.DatabasePool
  init(pool: AsyncSpecTests.DatabasePool) { self.pool = pool }
}
final class AsyncNamed: Sendable {
  let name: String
  init(name: String) { self.name = name }
}
final class AsyncSlow: Sendable {}
final class AsyncProcessWide: Sendable {}
final class AsyncBootPool: Sendable {
  init() async throws { try await Task.sleep(for: .milliseconds(5)) }
}
final class AsyncPing: Sendable {
  init(pong: AsyncPong) async {}
}
final class AsyncPong: Sendable {
  init(ping: AsyncPing) async {}
}
final class AsyncLoopSpoke: Sendable {
  init(hub: AsyncLoopHub) {}
}
final class AsyncLoopHub: Sendable {
  init(spoke: AsyncLoopSpoke) {}
}
final class AsyncShutdownPool: Sendable {
  func close(_ events: AsyncEvents) async {
    try? await Task.sleep(for: .milliseconds(5))
    events.append("closed AsyncShutdownPool")
  }
}
final class AsyncFrameworkPool: Sendable {}
final class AsyncPartPool: Sendable {}
final class AsyncContainerPool: Sendable {}
final class AsyncMultitonPool: Sendable {
  let name: String
  init(name: String) { self.name = name }
}
final class AsyncSinglePool: Sendable {}
final class AsyncApplicationPool: Sendable {}
final class AsyncSessionPool: Sendable {}
final class AsyncRequestPool: Sendable {}
final class AsyncChainLeaf: Sendable {}
final class AsyncChainMiddle: Sendable {
  init(leaf: AsyncChainLeaf) {}
}
final class AsyncChainTop: Sendable {
  init(middle: AsyncChainMiddle) {}
}
final class AsyncLateBootPool: Sendable {}
