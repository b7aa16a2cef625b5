import DIContainer
import DITestSupport
import Testing

// Each factory runs once per instance a request returns or keeps, whatever mix of synchronous
// and async factories and lifetimes its graph has, through every async entry point, for one
// task and for 200 tasks making their first requests at once. A request never builds an
// instance only to drop it: every factory's count of calls equals the number of distinct
// instances reachable from what the requests returned (the kept ones among them).
//
// The `.single` components are shared by every container of their registration site, so the
// tests run one at a time and each shuts its container down, which clears them.

/// An instance of the counted graph, with the instances it holds.
private protocol RCNode: AnyObject, Sendable {
  /// The instances of the graph this one holds.
  var parts: [any RCNode] { get }
}

extension RCNode {
  var parts: [any RCNode] { [] }
}

/// Sync `.single`.
private final class RCConfig: RCNode {}

/// Sync `.perContainer(.single)`.
private final class RCClock: RCNode {}

/// Sync prototype.
private final class RCTrace: RCNode {}

/// Async `.perContainer(.single)` over a sync singleton of each kind and a sync prototype.
private final class RCPool: RCNode {
  let config: RCConfig
  let clock: RCClock
  let trace: RCTrace
  init(config: RCConfig, clock: RCClock, trace: RCTrace) {
    self.config = config
    self.clock = clock
    self.trace = trace
  }
  var parts: [any RCNode] { [config, clock, trace] }
}

/// Async `.single` over a sync `.single` and a sync prototype.
private final class RCCatalog: RCNode {
  let config: RCConfig
  let trace: RCTrace
  init(config: RCConfig, trace: RCTrace) {
    self.config = config
    self.trace = trace
  }
  var parts: [any RCNode] { [config, trace] }
}

/// Async prototype over an async singleton and a sync prototype.
private final class RCSession: RCNode {
  let catalog: RCCatalog
  let trace: RCTrace
  init(catalog: RCCatalog, trace: RCTrace) {
    self.catalog = catalog
    self.trace = trace
  }
  var parts: [any RCNode] { [catalog, trace] }
}

/// Sync `.single` over an async prototype: the prototype it keeps is made once.
private final class RCDirectory: RCNode {
  let session: RCSession
  init(session: RCSession) { self.session = session }
  var parts: [any RCNode] { [session] }
}

/// Sync `.objectGraph` over a sync prototype.
private final class RCUnit: RCNode {
  let trace: RCTrace
  init(trace: RCTrace) { self.trace = trace }
  var parts: [any RCNode] { [trace] }
}

/// Async `.objectGraph` over a sync singleton.
private final class RCLease: RCNode {
  let clock: RCClock
  init(clock: RCClock) { self.clock = clock }
  var parts: [any RCNode] { [clock] }
}

/// Sync prototype over an async singleton with three parameters, both `.objectGraph`
/// components and a sync prototype.
private final class RCRepository: RCNode {
  let pool: RCPool
  let unit: RCUnit
  let lease: RCLease
  let trace: RCTrace
  init(pool: RCPool, unit: RCUnit, lease: RCLease, trace: RCTrace) {
    self.pool = pool
    self.unit = unit
    self.lease = lease
    self.trace = trace
  }
  var parts: [any RCNode] { [pool, unit, lease, trace] }
}

/// Sync prototype, the root: an async prototype twice, the `.objectGraph` components again
/// (shared with its repository), both async singletons' users.
private final class RCHandler: RCNode {
  let repository: RCRepository
  let first: RCSession
  let second: RCSession
  let unit: RCUnit
  let lease: RCLease
  let catalog: RCCatalog
  let directory: RCDirectory
  init(
    repository: RCRepository, first: RCSession, second: RCSession, unit: RCUnit, lease: RCLease,
    catalog: RCCatalog, directory: RCDirectory
  ) {
    self.repository = repository
    self.first = first
    self.second = second
    self.unit = unit
    self.lease = lease
    self.catalog = catalog
    self.directory = directory
  }
  var parts: [any RCNode] { [repository, first, second, unit, lease, catalog, directory] }
}

/// Async `.scoped` over a sync singleton and a sync prototype.
private final class RCLog: RCNode {
  let clock: RCClock
  let trace: RCTrace
  init(clock: RCClock, trace: RCTrace) {
    self.clock = clock
    self.trace = trace
  }
  var parts: [any RCNode] { [clock, trace] }
}

/// Sync prototype of a request scope: the handler's graph and the scope's log, twice.
private final class RCScopedHandler: RCNode {
  let handler: RCHandler
  let log: RCLog
  let again: RCLog
  init(handler: RCHandler, log: RCLog, again: RCLog) {
    self.handler = handler
    self.log = log
    self.again = again
  }
  var parts: [any RCNode] { [handler, log, again] }
}

/// Sync prototype that takes async components through awaiting delayed values only, so a
/// synchronous request makes it.
private final class RCJobs: RCNode {
  let pool: AsyncLazy<RCPool>
  let sessions: AsyncProvider<RCSession>
  let handler: AsyncLazy<RCHandler>
  init(pool: AsyncLazy<RCPool>, sessions: AsyncProvider<RCSession>, handler: AsyncLazy<RCHandler>) {
    self.pool = pool
    self.sessions = sessions
    self.handler = handler
  }
}

/// How many times each factory ran, by component.
private final class RCRuns: Sendable {
  private let counts = LockedValue<[String: Int]>([:])

  /// Counts a call of `T`'s factory and returns what it made.
  func made<T: RCNode>(_ make: @autoclosure () -> T) -> T {
    counts.withLock { $0["\(T.self)", default: 0] += 1 }
    return make()
  }

  /// The calls of `T`'s factory so far.
  func count<T: RCNode>(of _: T.Type) -> Int { counts.current["\(T.self)"] ?? 0 }

  /// Every factory's calls so far.
  var all: [String: Int] { counts.current }
}

/// The distinct instances reachable from some roots, by component.
private struct RCTally {
  private var seen: [String: Set<ObjectIdentifier>] = [:]

  /// Adds `root` and everything it holds.
  mutating func add(_ root: any RCNode) {
    let name = "\(type(of: root))"
    guard seen[name, default: []].insert(ObjectIdentifier(root)).inserted else { return }
    for part in root.parts { add(part) }
  }

  /// Adds every root of `roots`.
  mutating func add(_ roots: [any RCNode]) {
    for root in roots { add(root) }
  }

  /// The distinct instances seen, by component.
  var counts: [String: Int] { seen.mapValues(\.count) }
}

/// A container of the counted graph, whose factories record their calls in `runs`.
private func makeCountedContainer(_ runs: RCRuns) -> DIContainer {
  let container = DIContainer()
  container.register { runs.made(RCConfig()) }.lifetime(.single)
  container.register { runs.made(RCClock()) }.lifetime(.perContainer(.single))
  container.register { runs.made(RCTrace()) }
  container.register { (config: RCConfig, clock: RCClock, trace: RCTrace) async -> RCPool in
    await Task.yield()
    return runs.made(RCPool(config: config, clock: clock, trace: trace))
  }.lifetime(.perContainer(.single))
  container.register { (config: RCConfig, trace: RCTrace) async -> RCCatalog in
    await Task.yield()
    return runs.made(RCCatalog(config: config, trace: trace))
  }.lifetime(.single)
  container.register { (catalog: RCCatalog, trace: RCTrace) async -> RCSession in
    await Task.yield()
    return runs.made(RCSession(catalog: catalog, trace: trace))
  }
  container.register { (session: RCSession) in runs.made(RCDirectory(session: session)) }
    .lifetime(.single)
  container.register { (trace: RCTrace) in runs.made(RCUnit(trace: trace)) }
    .lifetime(.objectGraph)
  container.register { (clock: RCClock) async -> RCLease in
    await Task.yield()
    return runs.made(RCLease(clock: clock))
  }.lifetime(.objectGraph)
  container.register { (pool: RCPool, unit: RCUnit, lease: RCLease, trace: RCTrace) in
    runs.made(RCRepository(pool: pool, unit: unit, lease: lease, trace: trace))
  }
  container.register {
    (
      repository: RCRepository, first: RCSession, second: RCSession, unit: RCUnit, lease: RCLease,
      catalog: RCCatalog, directory: RCDirectory
    ) in
    runs.made(
      RCHandler(
        repository: repository, first: first, second: second, unit: unit, lease: lease,
        catalog: catalog, directory: directory))
  }
  container.register { (clock: RCClock, trace: RCTrace) async -> RCLog in
    await Task.yield()
    return runs.made(RCLog(clock: clock, trace: trace))
  }.lifetime(.scoped)
  container.register { (handler: RCHandler, log: RCLog, again: RCLog) in
    runs.made(RCScopedHandler(handler: handler, log: log, again: again))
  }
  container.register {
    (pool: AsyncLazy<RCPool>, sessions: AsyncProvider<RCSession>, handler: AsyncLazy<RCHandler>)
    in runs.made(RCJobs(pool: pool, sessions: sessions, handler: handler))
  }
  return container
}

/// Runs `body(index)` in `tasks` tasks that start together (each waits at a gate until all
/// have reached it) and returns what they returned.
private func together<T: Sendable>(
  _ tasks: Int, _ body: @escaping @Sendable (Int) async throws -> T
) async throws -> [T] {
  let start = Gate()
  return try await withThrowingTaskGroup(of: T.self) { group in
    for index in 0..<tasks {
      group.addTask {
        await start.pass()
        return try await body(index)
      }
    }
    try await start.awaitArrivals(tasks)
    start.open()
    return try await group.reduce(into: []) { $0.append($1) }
  }
}

/// The caching lifetimes a handler's graph reaches.
private let handlerKept: [any RCNode.Type] = [
  RCConfig.self, RCClock.self, RCPool.self, RCCatalog.self, RCDirectory.self,
]

/// The caching lifetimes the `.single` components reach (the prototype a single keeps too).
private let singlesKept: [any RCNode.Type] = [
  RCConfig.self, RCCatalog.self, RCDirectory.self, RCSession.self,
]

/// Runs `requests` of `tasks` tasks in rounds (one for one task, which always does the
/// same), each on a new container of the counted graph, shut down afterwards so that no
/// `.single` outlives the round. Expects every factory to have run once per distinct
/// instance reachable from the roots `requests` returns, and each of `kept` to have one
/// instance; stops at the first round that broke it.
private func expectOneRunPerInstance(
  tasks: Int, kept: [any RCNode.Type] = handlerKept,
  sourceLocation: SourceLocation = #_sourceLocation,
  _ requests: (DIContainer, RCRuns) async throws -> [any RCNode]
) async throws {
  for round in 0..<(tasks == 1 ? 1 : TestEnvironment.rounds(10, minimum: 2)) {
    let runs = RCRuns()
    let container = makeCountedContainer(runs)
    let roots: [any RCNode]
    do {
      roots = try await requests(container, runs)
    } catch {
      await container.shutdown()
      throw error
    }
    await container.shutdown()
    var tally = RCTally()
    tally.add(roots)
    let (calls, instances) = (runs.all, tally.counts)
    let mismatches = Set(calls.keys).union(instances.keys).sorted().compactMap { name in
      let (ran, made) = (calls[name] ?? 0, instances[name] ?? 0)
      return ran == made ? nil : "\(name): \(ran) calls for \(made) instances"
    }
    #expect(
      mismatches.isEmpty, "round \(round): \(mismatches.joined(separator: "; "))",
      sourceLocation: sourceLocation)
    let notOne = kept.map { "\($0)" }.filter { (instances[$0] ?? 0) != 1 }
    #expect(
      notOne.isEmpty, "round \(round): not one instance of \(notOne)",
      sourceLocation: sourceLocation)
    if !mismatches.isEmpty || !notOne.isEmpty { return }
  }
}

/// The distinct objects of `objects`.
private func distinct(_ objects: [AnyObject]) -> Int {
  Set(objects.map(ObjectIdentifier.init)).count
}

/// Expects the shape the lifetimes give one handler's graph.
private func expectShape(
  of handler: RCHandler, sourceLocation: SourceLocation = #_sourceLocation
) {
  #expect(handler.first !== handler.second, sourceLocation: sourceLocation)
  #expect(handler.unit === handler.repository.unit, sourceLocation: sourceLocation)
  #expect(handler.lease === handler.repository.lease, sourceLocation: sourceLocation)
  #expect(handler.catalog === handler.first.catalog, sourceLocation: sourceLocation)
}

@Suite(.serialized, .timeLimit(.minutes(TestEnvironment.hangMinutes)))
struct AsyncFactoryRunCountTests {
  @Test(
    "resolveAsync runs each factory once per instance it returns or keeps",
    arguments: [1, 200])
  func resolveAsync(tasks: Int) async throws {
    try await expectOneRunPerInstance(tasks: tasks) { container, _ in
      let handlers = try await together(tasks) { _ in
        try await container.resolveAsync() as RCHandler
      }
      #expect(distinct(handlers) == tasks)
      for handler in handlers { expectShape(of: handler) }
      return handlers
    }
  }

  @Test(
    "A request scope's resolveAsync makes its async scoped instance once and the rest once per instance",
    arguments: [1, 200])
  func resolveAsyncInRequestScopes(tasks: Int) async throws {
    try await expectOneRunPerInstance(tasks: tasks) { container, _ in
      let scopes = (0..<min(tasks, 8)).map { _ in container.makeScope() }
      let made = try await together(tasks) { index in
        let scope = index % scopes.count
        let handler: RCScopedHandler = try await scopes[scope].resolveAsync()
        return (scope, handler)
      }
      #expect(distinct(made.map(\.1.log)) == scopes.count)
      for (scope, handler) in made {
        #expect(handler.log === handler.again)
        #expect(handler.log === made.first { $0.0 == scope }?.1.log)
        expectShape(of: handler.handler)
      }
      for scope in scopes { await scope.closeAwaitingHooks() }
      return made.map(\.1)
    }
  }

  @Test(
    "An AsyncLazy makes its value's graph once for all its readers, and each AsyncLazy its own",
    arguments: [1, 200])
  func asyncLazy(tasks: Int) async throws {
    try await expectOneRunPerInstance(tasks: tasks) { container, _ in
      let shared: AsyncLazy<RCHandler> = try await container.resolveAsync()
      let read = try await together(tasks) { _ in
        let own: AsyncLazy<RCHandler> = try await container.resolveAsync()
        return (try await shared.value, try await own.value, try await own.value)
      }
      #expect(read.allSatisfy { $0.0 === read[0].0 && $0.1 === $0.2 })
      #expect(distinct(read.flatMap { [$0.0, $0.1] }) == tasks + 1)
      for (fromShared, fromOwn, _) in read {
        expectShape(of: fromShared)
        expectShape(of: fromOwn)
      }
      return read.flatMap { [$0.0, $0.1, $0.2] }
    }
  }

  @Test(
    "An AsyncProvider makes a graph per read, running each factory once per instance",
    arguments: [1, 200])
  func asyncProvider(tasks: Int) async throws {
    try await expectOneRunPerInstance(tasks: tasks) { container, _ in
      let provider: AsyncProvider<RCHandler> = try await container.resolveAsync()
      let read = try await together(tasks) { _ in
        (try await provider.value, try await provider.value)
      }
      let handlers = read.flatMap { [$0.0, $0.1] }
      #expect(distinct(handlers) == 2 * tasks)
      for handler in handlers { expectShape(of: handler) }
      return handlers
    }
  }

  @Test(
    "A synchronous component's AsyncLazy and AsyncProvider parameters run each factory once per instance",
    arguments: [1, 200])
  func awaitingParametersOfASynchronousComponent(tasks: Int) async throws {
    try await expectOneRunPerInstance(tasks: tasks) { container, runs in
      // A synchronous request: it awaits nothing until the delayed values are read.
      let jobs: RCJobs = try container.tryResolve()
      #expect(runs.all == ["RCJobs": 1])
      let read = try await together(tasks) { _ in
        (try await jobs.pool.value, try await jobs.sessions.value, try await jobs.handler.value)
      }
      #expect(distinct(read.map(\.1)) == tasks)
      #expect(distinct(read.map(\.2)) == 1)
      expectShape(of: read[0].2)
      return [jobs] + read.flatMap { [$0.0, $0.1, $0.2] as [any RCNode] }
    }
  }

  @Test(
    "initializeSingletonObjectsAsync makes each single once, and nothing else but what they keep",
    arguments: [1, 200])
  func initializeSingletonObjectsAsync(tasks: Int) async throws {
    try await expectOneRunPerInstance(tasks: tasks, kept: singlesKept) { container, _ in
      _ = try await together(tasks) { _ in try await container.initializeSingletonObjectsAsync() }
      // Made at boot, they are read synchronously.
      return [
        try container.tryResolve() as RCConfig,
        try container.tryResolve() as RCCatalog,
        try container.tryResolve() as RCDirectory,
      ]
    }
  }

  @Test(
    "A sync single over an async prototype runs the prototype's factory once under concurrent first requests",
    arguments: [1, 200])
  func singleOverAnAsyncPrototype(tasks: Int) async throws {
    try await expectOneRunPerInstance(tasks: tasks, kept: singlesKept) { container, runs in
      let directories = try await together(tasks) { _ in
        try await container.resolveAsync() as RCDirectory
      }
      #expect(distinct(directories) == 1)
      #expect(runs.count(of: RCSession.self) == 1)
      return directories
    }
  }

  @Test("Every async entry point at once runs each factory once per instance")
  func everyEntryPointAtOnce() async throws {
    let tasks = 200
    try await expectOneRunPerInstance(tasks: tasks) { container, _ in
      let scopes = (0..<4).map { _ in container.makeScope() }
      let provider: AsyncProvider<RCHandler> = try await container.resolveAsync()
      let lazy: AsyncLazy<RCHandler> = try await container.resolveAsync()
      let made = try await together(tasks) { index -> any RCNode in
        switch index % 5 {
        case 0: return try await container.resolveAsync() as RCHandler
        case 1: return try await scopes[index % scopes.count].resolveAsync() as RCScopedHandler
        case 2: return try await provider.value
        case 3: return try await lazy.value
        default:
          try await container.initializeSingletonObjectsAsync()
          return try container.tryResolve() as RCDirectory
        }
      }
      for scope in scopes { await scope.closeAwaitingHooks() }
      return made
    }
  }
}
