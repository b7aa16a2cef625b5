import DITestSupport
import Dispatch
import Foundation
import Testing

@testable import DIContainer

// The concrete `resolveAsync()` of a container and a scope, whose
// first attempt is synchronous and inlined where it is called, and of
// `closeAwaitingHooks()`, which runs hooks with no async step without suspending.
//
// Most tests are differential: the same registrations go into two containers, one asked
// through the concrete forms (`container.resolveAsync()`, `scope.resolveAsync()`), the
// other through `any DIResolver`, whose `resolveAsync()` takes the general async path;
// values, errors (their `description`) and factory calls must be the same.

// MARK: - Fixtures

private struct RVConnectFailed: Error {}
private struct RVSyncFailed: Error {}
private struct RVHookFailed: Error {}

/// How many times each factory ran, by name.
private final class RVCalls: Sendable {
  private let counts = LockedValue<[String: Int]>([:])

  func record(_ name: String) { counts.withLock { $0[name, default: 0] += 1 } }

  subscript(name: String) -> Int { counts.withLock { $0[name] ?? 0 } }

  var all: [String: Int] { counts.current }
}

/// An ordered log, shared by hooks and factories.
private final class RVLog: Sendable {
  private let lines = LockedValue<[String]>([])

  func append(_ line: String) { lines.withLock { $0.append(line) } }

  var all: [String] { lines.current }
}

private final class RVPool: Sendable {
  init() async throws { try await Task.sleep(for: .milliseconds(1)) }
}
private final class RVCache: Sendable {
  init() async { await Task.yield() }
}
private final class RVLeaf: Sendable {}
private final class RVShared: Sendable {}
private final class RVRepo: Sendable {
  let pool: RVPool
  let leaf: RVLeaf
  let shared: RVShared
  init(pool: RVPool, leaf: RVLeaf, shared: RVShared) {
    self.pool = pool
    self.leaf = leaf
    self.shared = shared
  }
}
private final class RVClient: Sendable {
  let cache: RVCache
  let shared: RVShared
  init(cache: RVCache, shared: RVShared) {
    self.cache = cache
    self.shared = shared
  }
}
private final class RVService: Sendable {
  let repo: RVRepo
  let client: RVClient
  let shared: RVShared
  init(repo: RVRepo, client: RVClient, shared: RVShared) {
    self.repo = repo
    self.client = client
    self.shared = shared
  }
}
private final class RVTop: Sendable {
  let service: RVService
  let leaf: Lazy<RVLeaf>
  let leaves: Provider<RVLeaf>
  let cache: AsyncLazy<RVCache>
  let pools: AsyncProvider<RVPool>
  init(
    service: RVService, leaf: Lazy<RVLeaf>, leaves: Provider<RVLeaf>, cache: AsyncLazy<RVCache>,
    pools: AsyncProvider<RVPool>
  ) {
    self.service = service
    self.leaf = leaf
    self.leaves = leaves
    self.cache = cache
    self.pools = pools
  }
}
/// A `.scoped` async component, and a handler over it and the deep graph.
private final class RVSession: Sendable {
  init() async { await Task.yield() }
}
private final class RVHandler: Sendable {
  let session: RVSession
  let service: RVService
  init(session: RVSession, service: RVService) {
    self.session = session
    self.service = service
  }
}

/// A graph whose async components sit at several depths, of several lifetimes:
/// `RVTop → RVService → RVRepo → RVPool` (async, `.perContainer`), `RVService → RVClient →
/// RVCache` (async, `.prototype`), `RVShared` (`.objectGraph`) below three components,
/// delayed parameters, and a `.scoped` async session under `RVHandler`.
private func makeDeepContainer(calls: RVCalls) -> DIContainer {
  let container = DIContainer()
  container.register { () async throws -> RVPool in
    calls.record("pool")
    return try await RVPool()
  }.lifetime(.perContainer(.single))
  container.register { () async -> RVCache in
    calls.record("cache")
    return await RVCache()
  }
  container.register { () -> RVLeaf in
    calls.record("leaf")
    return RVLeaf()
  }
  container.register { () -> RVShared in
    calls.record("shared")
    return RVShared()
  }.lifetime(.objectGraph)
  container.register { (pool: RVPool, leaf: RVLeaf, shared: RVShared) -> RVRepo in
    calls.record("repo")
    return RVRepo(pool: pool, leaf: leaf, shared: shared)
  }
  container.register { (cache: RVCache, shared: RVShared) -> RVClient in
    calls.record("client")
    return RVClient(cache: cache, shared: shared)
  }
  container.register { (repo: RVRepo, client: RVClient, shared: RVShared) -> RVService in
    calls.record("service")
    return RVService(repo: repo, client: client, shared: shared)
  }
  container.register {
    (
      service: RVService, leaf: Lazy<RVLeaf>, leaves: Provider<RVLeaf>,
      cache: AsyncLazy<RVCache>, pools: AsyncProvider<RVPool>
    ) -> RVTop in
    calls.record("top")
    return RVTop(service: service, leaf: leaf, leaves: leaves, cache: cache, pools: pools)
  }
  container.register { () async -> RVSession in
    calls.record("session")
    return await RVSession()
  }.lifetime(.scoped)
  container.register { (session: RVSession, service: RVService) -> RVHandler in
    calls.record("handler")
    return RVHandler(session: session, service: service)
  }
  return container
}

/// What can be compared of a deep graph across two containers: which instances are shared.
private struct RVShape: Equatable {
  let sharedWithinSyncPart: Bool
  let leafFromLazyIsKept: Bool
  let providerMakesNew: Bool

  init(_ top: RVTop) {
    let service = top.service
    sharedWithinSyncPart =
      service.shared === service.repo.shared && service.shared === service.client.shared
    leafFromLazyIsKept = top.leaf.value === top.leaf.value
    providerMakesNew = top.leaves.value !== top.leaves.value
  }
}

// Failing and special components.

private final class RVMissing: Sendable {}
private final class RVNeedsMissing: Sendable {
  init(missing: RVMissing) {}
}
private final class RVFailingPool: Sendable {
  init() async throws {
    await Task.yield()
    throw RVConnectFailed()
  }
}
private final class RVBrokenMid: Sendable {
  init(pool: RVFailingPool) {}
}
private final class RVBrokenTop: Sendable {
  init(mid: RVBrokenMid) {}
}
private final class RVSecondPool: Sendable {
  init() async { await Task.yield() }
}
private final class RVThrowingSync: Sendable {}
private final class RVThrowsAfterAsync: Sendable {
  init(pool: RVSecondPool, thrower: RVThrowingSync) {}
}
private protocol RVAmbiguous: AnyObject, Sendable {}
private final class RVAmbiguousOne: RVAmbiguous {}
private final class RVAmbiguousTwo: RVAmbiguous {}
private final class RVScopedAsync: Sendable {
  init() async {}
}
private final class RVNamed: Sendable {
  let name: String
  init(name: String) async { self.name = name }
}
private final class RVCycleA: Sendable {
  init(b: RVCycleB) async {}
}
private final class RVCycleB: Sendable {
  init(a: RVCycleA) async {}
}
private final class RVLoopA: Sendable {
  init(b: RVLoopB) async {}
}
private final class RVLoopB: Sendable {
  init(a: RVLoopA) async {}
}
private final class RVSyncInLoop: Sendable {
  init(mid: RVAsyncInLoop) {}
}
private final class RVAsyncInLoop: Sendable {
  init(back: RVSyncInLoop) async {}
}
private final class RVSelfNested: Sendable {}

/// Components whose requests fail, each for its own reason, plus what they need.
private func makeFailingContainer(calls: RVCalls) -> DIContainer {
  let container = DIContainer()
  container.register(RVNeedsMissing.init)
  container.register { () async throws -> RVFailingPool in
    calls.record("failingPool")
    return try await RVFailingPool()
  }
  container.register(RVBrokenMid.init)
  container.register(RVBrokenTop.init)
  container.register { () async -> RVSecondPool in
    calls.record("secondPool")
    return await RVSecondPool()
  }.lifetime(.perContainer(.single))
  container.register { () throws -> RVThrowingSync in
    calls.record("thrower")
    throw RVSyncFailed()
  }
  container.register(RVThrowsAfterAsync.init)
  container.register(RVAmbiguousOne.init).as(RVAmbiguous.self)
  container.register(RVAmbiguousTwo.init).as(RVAmbiguous.self)
  container.register(RVScopedAsync.init).lifetime(.scoped)
  container.register { (name: DIArg<String>) async -> RVNamed in
    calls.record("named")
    return await RVNamed(name: arg(name))
  }
  container.register(RVCycleA.init)
  container.register(RVCycleB.init)
  container.register(RVLoopA.init).lifetime(.perContainer(.single))
  container.register(RVLoopB.init).lifetime(.perContainer(.single))
  container.register(RVSyncInLoop.init)
  container.register(RVAsyncInLoop.init)
  return container
}

/// What a request gave, comparable across the two paths.
private enum RVOutcome: Equatable, CustomStringConvertible {
  case value
  case none
  case error(code: DIError.Code, description: String, path: [String], underlying: String?)

  init<T>(_ result: Result<T, DIError>) {
    switch result {
    case .success(let value):
      self = (value as? any RVOptional)?.isNil == true ? .none : .value
    case .failure(let error):
      self = .error(
        code: error.code, description: error.description, path: error.path.map(\.requested),
        underlying: error.underlyingError.map { "\(type(of: $0))" })
    }
  }

  var code: DIError.Code? {
    guard case .error(let code, _, _, _) = self else { return nil }
    return code
  }

  var path: [String]? {
    guard case .error(_, _, let path, _) = self else { return nil }
    return path
  }

  var description: String {
    switch self {
    case .value: "value"
    case .none: "nil"
    case .error(let code, let description, _, _): "error \(code): \(description)"
    }
  }
}

/// An `Optional`, whatever it wraps.
private protocol RVOptional {
  var isNil: Bool { get }
}

extension Optional: RVOptional {
  var isNil: Bool { self == nil }
}

/// A `T` through the container's concrete `resolveAsync()`.
private func direct<T>(_ type: T.Type, _ container: DIContainer) async -> Result<T, DIError> {
  do {
    return .success(try await container.resolveAsync() as T)
  } catch {
    return .failure(error)
  }
}

/// A `T` through the scope's concrete `resolveAsync()`.
private func direct<T>(_ type: T.Type, _ scope: DIRequestScope) async -> Result<T, DIError> {
  do {
    return .success(try await scope.resolveAsync() as T)
  } catch {
    return .failure(error)
  }
}

/// A `T` through the protocol's general `resolveAsync()`.
private func general<T>(_ type: T.Type, _ resolver: any DIResolver) async -> Result<T, DIError> {
  do {
    return .success(try await resolver.resolveAsync() as T)
  } catch {
    return .failure(error)
  }
}

/// The error `body` throws, if it throws one.
private func rvError(_ body: () async throws(DIError) -> Void) async -> DIError? {
  do {
    try await body()
    return nil
  } catch {
    return error
  }
}

// Hooked `.scoped` components, created oldest first: `RVHookA` ← `RVHookB` ← `RVHookC` ←
// `RVHookD`.

private final class RVHookA: Sendable {}
private final class RVHookB: Sendable {
  init(a: RVHookA) {}
}
private final class RVHookC: Sendable {
  init(b: RVHookB) {}
}
private final class RVHookD: Sendable {
  init(c: RVHookC) {}
}

/// A queue executor: an actor on it can tell whether code runs on it.
private final class RVQueueExecutor: SerialExecutor {
  static let key = DispatchSpecificKey<Int>()
  private let queue: DispatchQueue

  init() {
    queue = DispatchQueue(label: "ConcreteResolveAsyncTests.actor")
    queue.setSpecific(key: Self.key, value: 1)
  }

  static var isCurrent: Bool { DispatchQueue.getSpecific(key: key) == 1 }

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    let executor = asUnownedSerialExecutor()
    queue.async { job.runSynchronously(on: executor) }
  }

  func asUnownedSerialExecutor() -> UnownedSerialExecutor {
    UnownedSerialExecutor(ordinary: self)
  }
}

/// Records whether its factory ran on the actor's executor.
private final class RVWhere: Sendable {
  let onActor = RVQueueExecutor.isCurrent
}

/// An actor that asks from its own executor, as a `@MainActor` caller would.
private actor RVCaller {
  private let executor = RVQueueExecutor()
  nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

  /// Where `RVWhere`'s factory ran for each form: the concrete container's, the general,
  /// the concrete scope's, the general scope's; first, whether this actor runs here.
  func resolveEverywhere(_ container: DIContainer) async throws -> [Bool] {
    let general: any DIResolver = container
    let scope = container.makeScope()
    let generalScope: any DIResolver = scope
    let direct: RVWhere = try await container.resolveAsync()
    let reference: RVWhere = try await general.resolveAsync()
    let scoped: RVWhere = try await scope.resolveAsync()
    let scopedReference: RVWhere = try await generalScope.resolveAsync()
    scope.close()
    return [
      RVQueueExecutor.isCurrent, direct.onActor, reference.onActor, scoped.onActor,
      scopedReference.onActor,
    ]
  }

  /// Closes `scope` from this actor; whether it ran here.
  func close(_ scope: DIRequestScope) async -> Bool {
    await scope.closeAwaitingHooks()
    return RVQueueExecutor.isCurrent
  }
}

// MARK: - Tests

@Suite struct ConcreteResolveAsyncTests {
  // MARK: Graphs

  @Test func aDeepGraphRunsItsFactoriesAndSharesItsInstancesAsTheGeneralPathDoes() async throws {
    let directCalls = RVCalls()
    let generalCalls = RVCalls()
    let container = makeDeepContainer(calls: directCalls)
    let resolver: any DIResolver = makeDeepContainer(calls: generalCalls)
    var firstPool: RVPool?
    for round in 0..<3 {
      let top: RVTop = try await container.resolveAsync()
      let reference: RVTop = try await resolver.resolveAsync()
      #expect(directCalls.all == generalCalls.all, "round \(round)")
      let shape = RVShape(top)
      #expect(shape == RVShape(reference), "round \(round)")
      #expect(shape.sharedWithinSyncPart && shape.leafFromLazyIsKept && shape.providerMakesNew)
      // The cached pool is made once; the prototype cache at every request.
      if let firstPool { #expect(top.service.repo.pool === firstPool) }
      firstPool = top.service.repo.pool
      #expect(try await top.pools.value === firstPool)
      _ = try await top.cache.value
      _ = try await reference.cache.value
    }
    #expect(directCalls["pool"] == 1)
    #expect(directCalls["top"] == generalCalls["top"])
    #expect(directCalls.all == generalCalls.all)
  }

  @Test func aScopeResolvesTheDeepGraphAsTheGeneralPathDoes() async throws {
    let directCalls = RVCalls()
    let generalCalls = RVCalls()
    let container = makeDeepContainer(calls: directCalls)
    let other = makeDeepContainer(calls: generalCalls)
    for round in 0..<2 {
      let scope = container.makeScope()
      let otherScope = other.makeScope()
      let resolver: any DIResolver = otherScope
      let handler: RVHandler = try await scope.resolveAsync()
      let again: RVHandler = try await scope.resolveAsync()
      let reference: RVHandler = try await resolver.resolveAsync()
      let referenceAgain: RVHandler = try await resolver.resolveAsync()
      #expect(handler.session === again.session)
      #expect(reference.session === referenceAgain.session)
      #expect(handler.service !== again.service)
      #expect(directCalls.all == generalCalls.all, "round \(round)")
      // The concrete and the general form of one scope share its session.
      let mixed: RVHandler = try await (scope as any DIResolver).resolveAsync()
      #expect(mixed.session === handler.session)
      _ = try await otherScope.resolveAsync() as RVHandler
      #expect(directCalls.all == generalCalls.all, "round \(round)")
      scope.close()
      otherScope.close()
    }
    #expect(directCalls["session"] == 2)
    #expect(directCalls["pool"] == 1)
  }

  @Test func delayedValuesAskedForAtTheTopBehaveAsTheGeneralPathsDo() async throws {
    let directCalls = RVCalls()
    let generalCalls = RVCalls()
    let container = makeDeepContainer(calls: directCalls)
    let resolver: any DIResolver = makeDeepContainer(calls: generalCalls)
    let lazy: Lazy<RVLeaf> = try await container.resolveAsync()
    let lazyReference: Lazy<RVLeaf> = try await resolver.resolveAsync()
    #expect(!lazy.wasMade && !lazyReference.wasMade)
    #expect(try lazy.tryValue() === lazy.tryValue())
    #expect(try lazyReference.tryValue() === lazyReference.tryValue())
    let provider: Provider<RVLeaf> = try await container.resolveAsync()
    let providerReference: Provider<RVLeaf> = try await resolver.resolveAsync()
    #expect(try provider.tryValue() !== provider.tryValue())
    #expect(try providerReference.tryValue() !== providerReference.tryValue())
    let asyncLazy: AsyncLazy<RVService> = try await container.resolveAsync()
    let asyncLazyReference: AsyncLazy<RVService> = try await resolver.resolveAsync()
    // Nothing async was made for the delayed values themselves.
    #expect(directCalls["pool"] == 0 && directCalls["service"] == 0)
    let service = try await asyncLazy.value
    let serviceReference = try await asyncLazyReference.value
    #expect(try await asyncLazy.value === service)
    #expect(try await asyncLazyReference.value === serviceReference)
    let pools: AsyncProvider<RVPool> = try await container.resolveAsync()
    let poolsReference: AsyncProvider<RVPool> = try await resolver.resolveAsync()
    #expect(try await pools.value === service.repo.pool)
    #expect(try await poolsReference.value === serviceReference.repo.pool)
    #expect(directCalls.all == generalCalls.all)
    #expect(directCalls["pool"] == 1)

    // A delayed value whose making fails fails alike, with the same text.
    let failing = makeFailingContainer(calls: RVCalls())
    let failingReference: any DIResolver = makeFailingContainer(calls: RVCalls())
    let brokenLazy: AsyncLazy<RVBrokenTop> = try await failing.resolveAsync()
    let brokenLazyReference: AsyncLazy<RVBrokenTop> = try await failingReference.resolveAsync()
    let broken = await rvError { () async throws(DIError) in _ = try await brokenLazy.value }
    let brokenReference = await rvError { () async throws(DIError) in
      _ = try await brokenLazyReference.value
    }
    #expect(broken?.code == .factoryFailed)
    #expect(broken?.description == brokenReference?.description)
    let throwing: Provider<RVThrowingSync> = try await failing.resolveAsync()
    let throwingReference: Provider<RVThrowingSync> = try await failingReference.resolveAsync()
    let thrown = Result { () throws(DIError) in try throwing.tryValue() }
    let thrownReference = Result { () throws(DIError) in try throwingReference.tryValue() }
    #expect(RVOutcome(thrown) == RVOutcome(thrownReference))
    #expect(RVOutcome(thrown).code == .factoryFailed)
    // An unresolvable `T` fails where the `Lazy` is asked for.
    let missing = await direct(Lazy<RVMissing>.self, failing)
    let missingReference = await general(Lazy<RVMissing>.self, failingReference)
    #expect(RVOutcome(missing).code == .notRegistered)
    #expect(RVOutcome(missing) == RVOutcome(missingReference))
  }

  @Test func optionalRequestsAreNilOrFailAsTheGeneralPathsAre() async throws {
    let directCalls = RVCalls()
    let generalCalls = RVCalls()
    let container = makeFailingContainer(calls: directCalls)
    let resolver: any DIResolver = makeFailingContainer(calls: generalCalls)

    // An async component not made yet is made.
    let pool = await direct(RVSecondPool?.self, container)
    let poolReference = await general(RVSecondPool?.self, resolver)
    #expect(try pool.get() != nil)
    #expect(try poolReference.get() != nil)
    // No candidate, several, one that needs a runtime argument: nil, nothing made.
    #expect(try await direct(RVMissing?.self, container).get() == nil)
    #expect(try await general(RVMissing?.self, resolver).get() == nil)
    #expect(try await direct((any RVAmbiguous)?.self, container).get() == nil)
    #expect(try await general((any RVAmbiguous)?.self, resolver).get() == nil)
    #expect(try await direct(RVNamed?.self, container).get() == nil)
    #expect(try await general(RVNamed?.self, resolver).get() == nil)
    // A failure below the chosen component, or of its async factory, is an error.
    let needsMissing = await direct(RVNeedsMissing?.self, container)
    let needsMissingReference = await general(RVNeedsMissing?.self, resolver)
    #expect(RVOutcome(needsMissing).code == .notRegistered)
    #expect(RVOutcome(needsMissing) == RVOutcome(needsMissingReference))
    let failing = await direct(RVFailingPool?.self, container)
    let failingReference = await general(RVFailingPool?.self, resolver)
    #expect(RVOutcome(failing).code == .factoryFailed)
    #expect(RVOutcome(failing) == RVOutcome(failingReference))
    let broken = await direct(RVBrokenTop?.self, container)
    let brokenReference = await general(RVBrokenTop?.self, resolver)
    #expect(RVOutcome(broken).path == ["RVBrokenTop", "RVBrokenMid", "RVFailingPool"])
    #expect(RVOutcome(broken) == RVOutcome(brokenReference))
    #expect(directCalls.all == generalCalls.all)
    #expect(directCalls["secondPool"] == 1)
    #expect(directCalls["named"] == 0)
  }

  @Test func manyTagsProtocolsAndChildContainersResolveAsTheGeneralPathDoes() async throws {
    func make(_ calls: RVCalls) -> DIContainer {
      let container = DIContainer()
      container.register { () -> RVSyncPlugin in
        calls.record("sync")
        return RVSyncPlugin()
      }.as(RVPlugin.self)
      container.register { () async -> RVAsyncPlugin in
        calls.record("async")
        return await RVAsyncPlugin()
      }.as(RVPlugin.self).lifetime(.perContainer(.single))
      container.register { () async -> RVTaggedPlugin in
        calls.record("tagged")
        return await RVTaggedPlugin()
      }.as(RVPlugin.self, tag: RVIndoor.self).lifetime(.perContainer(.single))
      return container
    }
    let directCalls = RVCalls()
    let generalCalls = RVCalls()
    let container = make(directCalls)
    let resolver: any DIResolver = make(generalCalls)

    let plugins: [any RVPlugin] = many(try await container.resolveAsync())
    let pluginsReference: [any RVPlugin] = many(try await resolver.resolveAsync())
    #expect(plugins.map { "\(type(of: $0))" } == pluginsReference.map { "\(type(of: $0))" })
    #expect(
      plugins.map { "\(type(of: $0))" } == ["RVSyncPlugin", "RVAsyncPlugin", "RVTaggedPlugin"])
    let tagged: any RVPlugin = by(tag: RVIndoor.self, on: try await container.resolveAsync())
    let taggedReference: any RVPlugin = by(
      tag: RVIndoor.self, on: try await resolver.resolveAsync())
    #expect(tagged is RVTaggedPlugin && taggedReference is RVTaggedPlugin)
    // One instance per component across its services.
    let asPlugin = plugins.first { $0 is RVAsyncPlugin }
    let asItself: RVAsyncPlugin = try await container.resolveAsync()
    #expect(asPlugin === asItself)
    #expect(try await container.resolveAsync() as RVTaggedPlugin === tagged)
    #expect(directCalls.all == generalCalls.all)

    // A child resolves its parent's prototype with its own override; the parent's async
    // singleton is the parent's.
    let parentCalls = RVCalls()
    let parentReferenceCalls = RVCalls()
    let parent = makeDeepContainer(calls: parentCalls)
    let parentReference = makeDeepContainer(calls: parentReferenceCalls)
    let child = DIContainer(parent: parent)
    let childReference = DIContainer(parent: parentReference)
    let override = RVLeaf()
    child.register { override }
    childReference.register { override }
    let repo: RVRepo = try await child.resolveAsync()
    let repoReference: RVRepo = try await (childReference as any DIResolver).resolveAsync()
    #expect(repo.leaf === override && repoReference.leaf === override)
    #expect(repo.pool === (try await parent.resolveAsync() as RVPool))
    #expect(parentCalls.all == parentReferenceCalls.all)
    #expect(parentCalls["pool"] == 1)
    // The child's scope too.
    let scope = child.makeScope()
    let handler: RVHandler = try await scope.resolveAsync()
    #expect(handler.service.repo.leaf === override)
    #expect(handler.service.repo.pool === repo.pool)
    scope.close()
  }

  // MARK: Errors

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func everyFailureReadsAsTheGeneralPathsInAContainerAndAScope() async {
    let directCalls = RVCalls()
    let generalCalls = RVCalls()
    let container = makeFailingContainer(calls: directCalls)
    let other = makeFailingContainer(calls: generalCalls)
    let scope = container.makeScope()
    let otherScope = other.makeScope()
    defer {
      scope.close()
      otherScope.close()
    }

    /// The outcomes of a `T` through the four forms: concrete and general, of a container
    /// and of a scope.
    func outcomes<T>(_ type: T.Type) async -> [RVOutcome] {
      [
        RVOutcome(await direct(T.self, container)),
        RVOutcome(await general(T.self, other)),
        RVOutcome(await direct(T.self, scope)),
        RVOutcome(await general(T.self, otherScope)),
      ]
    }
    func check<T>(
      _ type: T.Type, code: DIError.Code, path: [String]? = nil,
      sourceLocation: SourceLocation = #_sourceLocation
    ) async {
      let all = await outcomes(T.self)
      #expect(all[0].code == code, sourceLocation: sourceLocation)
      if let path { #expect(all[0].path == path, sourceLocation: sourceLocation) }
      #expect(all[0] == all[1], sourceLocation: sourceLocation)
      #expect(all[2] == all[3], sourceLocation: sourceLocation)
      #expect(all[0].code == all[2].code, sourceLocation: sourceLocation)
    }

    await check(RVMissing.self, code: .notRegistered, path: ["RVMissing"])
    await check(RVNeedsMissing.self, code: .notRegistered, path: ["RVNeedsMissing", "RVMissing"])
    // An async factory that throws below two synchronous components: the path names all.
    await check(
      RVBrokenTop.self, code: .factoryFailed, path: ["RVBrokenTop", "RVBrokenMid", "RVFailingPool"])
    // A synchronous factory that throws after the async component beside it was made.
    await check(
      RVThrowsAfterAsync.self, code: .factoryFailed, path: ["RVThrowsAfterAsync", "RVThrowingSync"])
    await check((any RVAmbiguous).self, code: .ambiguous)
    // An async component that needs a runtime argument, asked for without one.
    await check(RVNamed.self, code: .missingArgument)
    // Cycles through async components: an error naming the loop, not a hang.
    await check(RVCycleA.self, code: .cycle)
    await check(RVLoopA.self, code: .cycle)
    await check(RVSyncInLoop.self, code: .cycle)
    // Each form made the same async components, the same number of times; a throw caches
    // nothing, the pool made beside the throwing factory is kept.
    #expect(directCalls.all == generalCalls.all)
    #expect(directCalls["secondPool"] == 1)
    #expect(directCalls["named"] == 0)

    // A `.scoped` component outside a scope.
    let outside = await direct(RVScopedAsync.self, container)
    let outsideReference = await general(RVScopedAsync.self, other)
    #expect(RVOutcome(outside).code == .outsideScope)
    #expect(RVOutcome(outside) == RVOutcome(outsideReference))
    // In a scope it is made.
    #expect((try? await direct(RVScopedAsync.self, scope).get()) != nil)
  }

  @Test func anErrorCarriesTheFactorysErrorAndTheSameTextAsTryResolve() async throws {
    let container = makeFailingContainer(calls: RVCalls())
    let error = await rvError { () async throws(DIError) in
      _ = try await container.resolveAsync() as RVBrokenTop
    }
    #expect(error?.underlyingError is RVConnectFailed)
    // The synchronous form meets the async factory and says to await it; it still does.
    let sync = Result { () throws(DIError) -> RVBrokenTop in try container.tryResolve() }
    let syncReference = Result { () throws(DIError) -> RVBrokenTop in
      try (container as any DIResolver).tryResolve(arguments: [])
    }
    #expect(RVOutcome(sync).code == .asyncFactory)
    #expect(RVOutcome(sync) == RVOutcome(syncReference))
    guard case .failure(let asyncFactory) = sync else { return }
    #expect(asyncFactory.description.contains("resolveAsync"))
    #expect(asyncFactory.path.map(\.requested) == ["RVBrokenTop", "RVBrokenMid", "RVFailingPool"])
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func anAsyncFactoryThatAsksForItselfFailsWithACycle() async {
    func make(viaProtocol: Bool) -> DIContainer {
      let container = DIContainer()
      container.register { [weak container] () async throws -> RVSelfNested in
        guard let container else { return RVSelfNested() }
        if viaProtocol {
          _ = try await (container as any DIResolver).resolveAsync() as RVSelfNested
        } else {
          _ = try await container.resolveAsync() as RVSelfNested
        }
        return RVSelfNested()
      }.lifetime(.perContainer(.single))
      return container
    }
    let container = make(viaProtocol: false)
    let other = make(viaProtocol: true)
    let error = RVOutcome(await direct(RVSelfNested.self, container))
    let reference = RVOutcome(await general(RVSelfNested.self, other))
    #expect(error.code == .cycle)
    #expect(error == reference)
    // Nothing was kept: the next request fails again.
    #expect(RVOutcome(await direct(RVSelfNested.self, container)).code == .cycle)
  }

  @Test func aShutDownContainerFailsAsTheGeneralPathDoes() async throws {
    let container = makeDeepContainer(calls: RVCalls())
    let other = makeDeepContainer(calls: RVCalls())
    _ = try await container.resolveAsync() as RVService
    _ = try await (other as any DIResolver).resolveAsync() as RVService
    let scope = container.makeScope()
    let otherScope = other.makeScope()
    await container.shutdown()
    await other.shutdown()
    // The kept pool, a sync prototype, a graph over the pool, a missing type.
    let pool = await direct(RVPool.self, container)
    #expect(RVOutcome(pool).code == .containerShutDown)
    #expect(RVOutcome(pool) == RVOutcome(await general(RVPool.self, other)))
    let leaf = await direct(RVLeaf.self, container)
    #expect(RVOutcome(leaf).code == .containerShutDown)
    #expect(RVOutcome(leaf) == RVOutcome(await general(RVLeaf.self, other)))
    let service = await direct(RVService.self, container)
    #expect(RVOutcome(service).code == .containerShutDown)
    #expect(RVOutcome(service) == RVOutcome(await general(RVService.self, other)))
    let missing = await direct(RVMissing.self, container)
    #expect(RVOutcome(missing).code == .containerShutDown)
    #expect(RVOutcome(missing) == RVOutcome(await general(RVMissing.self, other)))
    // A scope it opened, closed by the shutdown.
    let handler = await direct(RVHandler.self, scope)
    #expect(RVOutcome(handler).code != nil)
    #expect(RVOutcome(handler) == RVOutcome(await general(RVHandler.self, otherScope)))
  }

  @Test func aClosedScopeAndAReleasedContainerFailAsTheGeneralPathDoes() async throws {
    let container = makeDeepContainer(calls: RVCalls())
    let scope = container.makeScope()
    _ = try await scope.resolveAsync() as RVHandler
    scope.close()
    for outcome in [
      RVOutcome(await direct(RVHandler.self, scope)),
      RVOutcome(await direct(RVSession.self, scope)),
      RVOutcome(await direct(RVLeaf.self, scope)),
    ] {
      #expect(outcome.code == .scopeClosed)
    }
    #expect(
      RVOutcome(await direct(RVHandler.self, scope))
        == RVOutcome(await general(RVHandler.self, scope)))
    #expect(
      RVOutcome(await direct(RVLeaf.self, scope)) == RVOutcome(await general(RVLeaf.self, scope)))

    // `scope(for:)` holds its container weakly.
    let owner = RVLeaf()
    var released: DIContainer? = makeDeepContainer(calls: RVCalls())
    let orphan = released!.scope(for: owner)
    released = nil
    let gone = await direct(RVHandler.self, orphan)
    #expect(RVOutcome(gone).code == .containerReleased)
    #expect(RVOutcome(gone) == RVOutcome(await general(RVHandler.self, orphan)))
    let goneLeaf = await direct(RVLeaf.self, orphan)
    #expect(RVOutcome(goneLeaf).code == .containerReleased)
    #expect(RVOutcome(goneLeaf) == RVOutcome(await general(RVLeaf.self, orphan)))
    withExtendedLifetime(owner) {}
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func aScopeClosedWhileItsAsyncInstanceIsMadeFailsAsTheGeneralPathDoes() async throws {
    for viaProtocol in [false, true] {
      let gate = Gate()
      let hooks = Counter()
      let container = DIContainer()
      container.register { () async -> RVScopedAsync in
        await gate.pass()
        return await RVScopedAsync()
      }.lifetime(.scoped).onClean { _ in hooks.next() }
      let scope = container.makeScope()
      let task = Task { () async throws -> RVScopedAsync in
        if viaProtocol {
          return try await (scope as any DIResolver).resolveAsync()
        }
        return try await scope.resolveAsync()
      }
      try await gate.awaitArrivals(1)
      scope.close()
      gate.open()
      let result = await outcome(of: task, within: 10)
      guard case .error(let error) = result else {
        Issue.record("viaProtocol \(viaProtocol): the request did not fail: \(result)")
        continue
      }
      #expect(error.code == .scopeClosed, "viaProtocol \(viaProtocol)")
      // The instance made for the closed scope was dropped: its hook ran once.
      #expect(hooks.value == 1, "viaProtocol \(viaProtocol)")
    }
  }

  // MARK: Concurrency

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func concurrentFirstRequestsMakeAnAsyncSingletonOnceAndAllGetIt() async throws {
    for _ in 0..<3 {
      let calls = RVCalls()
      let container = makeDeepContainer(calls: calls)
      let pools = try await withThrowingTaskGroup(of: ObjectIdentifier.self) { group in
        for index in 0..<8 {
          group.addTask {
            let service: RVService =
              index.isMultiple(of: 2)
              ? try await container.resolveAsync()
              : try await (container as any DIResolver).resolveAsync()
            return ObjectIdentifier(service.repo.pool)
          }
        }
        var all: Set<ObjectIdentifier> = []
        for try await pool in group { all.insert(pool) }
        return all
      }
      #expect(pools.count == 1)
      #expect(calls["pool"] == 1)
      #expect(calls["service"] >= 8)
    }
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func concurrentFirstRequestsInOneScopeMakeItsScopedInstanceOnce() async throws {
    let calls = RVCalls()
    let container = makeDeepContainer(calls: calls)
    for _ in 0..<3 {
      let scope = container.makeScope()
      let sessions = try await withThrowingTaskGroup(of: ObjectIdentifier.self) { group in
        for index in 0..<6 {
          group.addTask {
            let handler: RVHandler =
              index.isMultiple(of: 2)
              ? try await scope.resolveAsync()
              : try await (scope as any DIResolver).resolveAsync()
            return ObjectIdentifier(handler.session)
          }
        }
        var all: Set<ObjectIdentifier> = []
        for try await session in group { all.insert(session) }
        return all
      }
      #expect(sessions.count == 1)
      await scope.closeAwaitingHooks()
    }
    #expect(calls["session"] == 3)
    #expect(calls["pool"] == 1)
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func aCancelledMakingCachesNothingAndAWaiterThatWasNotCancelledTriesAgain() async throws {
    var makerOutcomes: [RVOutcome] = []
    for viaProtocol in [false, true] {
      let made = Counter()
      let container = DIContainer()
      container.register { () async throws -> RVSecondPool in
        // The first making waits until its task is cancelled; the next ones are quick.
        if made.next() == 1 { try await Task.sleep(for: .seconds(60)) }
        return await RVSecondPool()
      }.lifetime(.perContainer(.single))
      let resolve = { @Sendable () async throws -> RVSecondPool in
        if viaProtocol { return try await (container as any DIResolver).resolveAsync() }
        return try await container.resolveAsync()
      }
      let maker = Task { try await resolve() }
      while made.value < 1 { try await Task.sleep(for: .milliseconds(1)) }
      let waiter = Task { try await resolve() }
      try await Task.sleep(for: .milliseconds(50))
      maker.cancel()
      let makerOutcome = await outcome(of: maker, within: 10)
      guard case .error(let error) = makerOutcome else {
        Issue.record("viaProtocol \(viaProtocol): the cancelled making ended in \(makerOutcome)")
        continue
      }
      makerOutcomes.append(RVOutcome(Result<Void, DIError>.failure(error)))
      guard case .value(let pool) = await outcome(of: waiter, within: 10) else {
        Issue.record("viaProtocol \(viaProtocol): the waiter did not get the pool")
        continue
      }
      #expect(made.value == 2, "viaProtocol \(viaProtocol)")
      #expect(try await resolve() === pool)
      #expect(made.value == 2)
    }
    #expect(makerOutcomes.count == 2)
    if makerOutcomes.count == 2 { #expect(makerOutcomes[0] == makerOutcomes[1]) }
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func aCancelledWaiterInAScopeThrowsWhileTheMakingGoesOn() async throws {
    let gate = Gate()
    let container = DIContainer()
    container.register { () async -> RVScopedAsync in
      await gate.pass()
      return await RVScopedAsync()
    }.lifetime(.scoped)
    let scope = container.makeScope()
    let maker = Task { () async throws -> RVScopedAsync in try await scope.resolveAsync() }
    try await gate.awaitArrivals(1)
    let waiter = Task { () async throws -> RVScopedAsync in try await scope.resolveAsync() }
    try await Task.sleep(for: .milliseconds(50))
    waiter.cancel()
    let cancelled = await outcome(of: waiter, within: 10)
    gate.open()
    if case .error(let error) = cancelled {
      #expect(error.code == .cancelled)
    } else {
      Issue.record("the cancelled waiter did not throw: \(cancelled)")
    }
    let made = try await maker.value
    #expect(try await scope.resolveAsync() as RVScopedAsync === made)
    #expect(gate.count == 1)
    scope.close()
  }

  // MARK: Isolation

  @Test func anActorsRequestRunsItsFactoriesWhereTheGeneralPathRunsThem() async throws {
    let container = DIContainer()
    container.register { RVWhere() }
    let places = try await RVCaller().resolveEverywhere(container)
    #expect(places[0], "the caller runs on its own executor")
    // A nonisolated `async` function runs off the caller's actor (SE-0338): the concrete
    // forms, inlined into the caller, must not run the first attempt on it.
    #expect(places[1] == places[2], "container: concrete \(places[1]), general \(places[2])")
    #expect(places[3] == places[4], "scope: concrete \(places[3]), general \(places[4])")
  }

  @Test func anActorsCloseRunsSynchronousHooksOffTheActorAsBefore() async throws {
    let onActor = LockedValue<Bool?>(nil)
    let container = DIContainer()
    container.register(RVHookA.init).lifetime(.scoped)
      .onClean { _ in onActor.withLock { $0 = RVQueueExecutor.isCurrent } }
    let scope = container.makeScope()
    _ = try await scope.resolveAsync() as RVHookA
    let callerOnActor = await RVCaller().close(scope)
    #expect(callerOnActor)
    #expect(onActor.current == false)
  }

  // MARK: closeAwaitingHooks

  @Test func closingWithOnlySynchronousHooksRunsThemAllNewestFirstBeforeReturning() async throws {
    let log = RVLog()
    let container = DIContainer()
    container.register(RVHookA.init).lifetime(.scoped)
      .onClean { _ in log.append("A") }
    container.register(RVHookB.init).lifetime(.scoped)
      .onClean { _ in log.append("B1") }
      .onClean { _ in log.append("B2") }
    container.register(RVHookC.init).lifetime(.scoped)
      .onClean { _ in log.append("C") }
    let scope = container.makeScope()
    _ = try await scope.resolveAsync() as RVHookC
    await scope.closeAwaitingHooks()
    #expect(log.all == ["C", "B1", "B2", "A"])
    #expect(scope.isClosed)
    // Twice, or after close(): nothing more runs.
    await scope.closeAwaitingHooks()
    scope.close()
    await scope.closeAwaitingHooks()
    #expect(log.all.count == 4)
    #expect(RVOutcome(await direct(RVHookC.self, scope)).code == .scopeClosed)
  }

  @Test func closingRunsMixedHooksOfSeveralInstancesInExactOrderAndLogsThrows() async throws {
    let log = RVLog()
    let container = DIContainer()
    container.register(RVHookA.init).lifetime(.scoped)
      .onClean { _ in log.append("A") }
    container.register(RVHookB.init).lifetime(.scoped)
      .onClean { (_: RVHookB) async throws in
        try await Task.sleep(for: .milliseconds(5))
        log.append("B1 async throws")
        throw RVHookFailed()
      }
      .onClean { _ in log.append("B2") }
    container.register(RVHookC.init).lifetime(.scoped)
      .onClean { _ in log.append("C1") }
      .onClean { (_: RVHookC) async in
        try? await Task.sleep(for: .milliseconds(5))
        log.append("C2 async")
      }
      .onClean { _ in log.append("C3") }
    container.register(RVHookD.init).lifetime(.scoped)
      .onClean { _ in
        log.append("D1 throws")
        throw RVHookFailed()
      }
      .onClean { _ in log.append("D2") }
    let scope = container.makeScope()
    _ = try await scope.resolveAsync() as RVHookD
    let lines = await DISetting.Log.capturingAsync { await scope.closeAwaitingHooks() }
    #expect(log.all == ["D1 throws", "D2", "C1", "C2 async", "C3", "B1 async throws", "B2", "A"])
    #expect(lines.filter { $0.contains("threw: RVHookFailed()") }.count == 2)
    #expect(lines.contains { $0.hasPrefix("error: onClean of RVHookD") })
    #expect(lines.contains { $0.hasPrefix("error: onClean of RVHookB") })
    await scope.closeAwaitingHooks()
    #expect(log.all.count == 8)
  }

  @Test func closingWithOnlySynchronousThrowingHooksLogsThemAndRunsTheOthers() async throws {
    let log = RVLog()
    let container = DIContainer()
    container.register(RVHookA.init).lifetime(.scoped)
      .onClean { _ in log.append("A") }
    container.register(RVHookB.init).lifetime(.scoped)
      .onClean { _ in throw RVHookFailed() }
      .onClean { _ in log.append("B2") }
    let scope = container.makeScope()
    _ = try await scope.resolveAsync() as RVHookB
    let lines = await DISetting.Log.capturingAsync { await scope.closeAwaitingHooks() }
    #expect(log.all == ["B2", "A"])
    #expect(lines.count == 1)
    #expect(lines.first?.hasPrefix("error: onClean of RVHookB") == true)
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func concurrentCloseAndCloseAwaitingHooksRunEachHookOnce() async throws {
    for withAsyncHook in [false, true] {
      let ran = Counter()
      let container = DIContainer()
      container.register(RVHookA.init).lifetime(.scoped).onClean { _ in ran.next() }
      container.register(RVHookB.init).lifetime(.scoped).onClean { _ in ran.next() }
      if withAsyncHook {
        container.register(RVHookC.init).lifetime(.scoped)
          .onClean { (_: RVHookC) async in
            await Task.yield()
            ran.next()
          }
      } else {
        container.register(RVHookC.init).lifetime(.scoped).onClean { _ in ran.next() }
      }
      let rounds = 8
      for _ in 0..<rounds {
        let scope = container.makeScope()
        _ = try await scope.resolveAsync() as RVHookC
        await withTaskGroup(of: Void.self) { group in
          group.addTask { await scope.closeAwaitingHooks() }
          group.addTask { scope.close() }
          group.addTask { await scope.closeAwaitingHooks() }
        }
        #expect(scope.isClosed)
        if !withAsyncHook {
          // Synchronous hooks ran before whichever call ran them returned.
          #expect(ran.value % 3 == 0)
        }
      }
      // An async step that close() started runs on a task of its own: wait for it.
      let deadline = ContinuousClock.now + .seconds(TestEnvironment.limit(10))
      while ran.value < 3 * rounds, ContinuousClock.now < deadline {
        try await Task.sleep(for: .milliseconds(2))
      }
      try await Task.sleep(for: .milliseconds(20))
      #expect(ran.value == 3 * rounds, "withAsyncHook \(withAsyncHook)")
    }
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func aShutdownRacingCloseAwaitingHooksRunsEachHookOnceBeforeBothReturn() async throws {
    for round in 0..<6 {
      let ran = Counter()
      let container = DIContainer()
      container.register(RVHookA.init).lifetime(.scoped).onClean { _ in ran.next() }
      container.register(RVHookB.init).lifetime(.scoped)
        .onClean { (_: RVHookB) async in
          await Task.yield()
          ran.next()
        }
      container.register(RVHookC.init).lifetime(.scoped).onClean { _ in ran.next() }
      let scope = container.makeScope()
      _ = try await scope.resolveAsync() as RVHookC
      await withTaskGroup(of: Void.self) { group in
        group.addTask { await container.shutdown() }
        group.addTask { await scope.closeAwaitingHooks() }
      }
      // Whichever dropped the instances, `shutdown()` waits for every hook.
      #expect(ran.value == 3, "round \(round)")
      #expect(scope.isClosed)
      let after = await direct(RVHookA.self, scope)
      #expect(RVOutcome(after).code != nil)
    }
  }

  // MARK: The synchronous forms

  @Test func theSynchronousFormsStillResolveAndFailAsBefore() async throws {
    let calls = RVCalls()
    let container = makeDeepContainer(calls: calls)
    let scope = container.makeScope()
    defer { scope.close() }
    // Before the async pool is made: the error that says to await, the same through the
    // concrete and the protocol's `tryResolve`, of a container and a scope.
    let before = Result { () throws(DIError) -> RVRepo in try container.tryResolve() }
    let beforeReference = Result { () throws(DIError) -> RVRepo in
      try (container as any DIResolver).tryResolve(arguments: [])
    }
    let beforeScoped = Result { () throws(DIError) -> RVRepo in try scope.tryResolve() }
    #expect(RVOutcome(before).code == .asyncFactory)
    #expect(RVOutcome(before) == RVOutcome(beforeReference))
    #expect(RVOutcome(before) == RVOutcome(beforeScoped))
    #expect(RVOutcome(before).path == ["RVRepo", "RVPool"])
    #expect(calls["pool"] == 0)

    // Once it is made, the trapping `resolve()` returns the cached instance, in a
    // container and a scope.
    let pool: RVPool = try await container.resolveAsync()
    let repo: RVRepo = try container.tryResolve()
    #expect(repo.pool === pool)
    #expect(try (container.tryResolve() as RVPool) === pool)
    #expect(try (scope.tryResolve() as RVRepo).pool === pool)
    let optional: RVPool? = try container.tryResolve()
    #expect(optional === pool)
    let missing: RVMissing? = try container.tryResolve()
    #expect(missing == nil)
    // The `.scoped` async session is still made only asynchronously.
    let session = Result { () throws(DIError) -> RVSession in try scope.tryResolve() }
    #expect(RVOutcome(session).code == .asyncFactory)
    let made: RVSession = try await scope.resolveAsync()
    #expect(try (scope.tryResolve() as RVSession) === made)
    #expect(calls["pool"] == 1)
    #expect(calls["session"] == 1)
  }

  @Test func theTrappingResolveOfAContainerPrintsTheErrorAndTheCallersLine() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      synchronously {
        let container = DIContainer()
        container.register { () async -> RVSecondPool in await RVSecondPool() }
        container.register(RVThrowsAfterAsync.init)
        container.register { () throws -> RVThrowingSync in throw RVSyncFailed() }
        let _: RVThrowsAfterAsync = container.resolve()
      }
    }
    let printed = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(printed.contains("Cannot resolve RVThrowsAfterAsync"))
    #expect(printed.contains("path: RVThrowsAfterAsync → RVSecondPool"))
    #expect(printed.contains("resolveAsync()"))
    #expect(printed.contains("requested at: DIContainerTests/ConcreteResolveAsyncTests.swift:"))
  }

  @Test func theTrappingResolveOfAScopePrintsTheErrorAndTheCallersLine() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      synchronously {
        let container = DIContainer()
        container.register(RVNeedsMissing.init)
        let _: RVNeedsMissing = container.makeScope().resolve()
      }
    }
    let printed = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(printed.contains("Cannot resolve RVNeedsMissing: RVMissing is not registered."))
    #expect(printed.contains("requested at: DIContainerTests/ConcreteResolveAsyncTests.swift:"))
  }

  @Test func aLazyResolvedByTheTrappingResolveNamesItsLineWhenItsValueFails() async {
    // `resolve()` hands its caller's place to the delayed value it makes at the top.
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      synchronously {
        let container = DIContainer()
        container.register { () throws -> RVThrowingSync in throw RVSyncFailed() }
        let lazy: Lazy<RVThrowingSync> = container.resolve()
        _ = lazy.value
      }
    }
    let printed = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(printed.contains("RVSyncFailed"))
    #expect(
      printed.contains(
        "the Lazy<RVThrowingSync> was resolved at DIContainerTests/ConcreteResolveAsyncTests.swift:"
      ))
  }

  @Test func aLazyResolvedByResolveAsyncSaysItsLineIsUnknownAsTheGeneralPathDoes() async {
    // Neither async form knows its caller's line: the concrete one must not invent one.
    let direct = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let container = DIContainer()
      container.register { () throws -> RVThrowingSync in throw RVSyncFailed() }
      let lazy: Lazy<RVThrowingSync> = try await container.resolveAsync()
      synchronously { _ = lazy.value }
    }
    let general = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let container = DIContainer()
      container.register { () throws -> RVThrowingSync in throw RVSyncFailed() }
      let lazy: Lazy<RVThrowingSync> = try await (container as any DIResolver).resolveAsync()
      synchronously { _ = lazy.value }
    }
    for result in [direct, general] {
      let printed = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
      #expect(printed.contains("RVSyncFailed"))
      #expect(printed.contains("was resolved by a form that does not know its caller's line"))
    }
  }

  @Test func aRuntimeArgumentGoesThroughEveryAsyncForm() async throws {
    let calls = RVCalls()
    let container = makeFailingContainer(calls: calls)
    let named: RVNamed = try await container.resolveAsync(arg: "Mimi")
    let namedReference: RVNamed = try await (container as any DIResolver).resolveAsync(arg: "Mimi")
    #expect(named.name == "Mimi" && namedReference.name == "Mimi")
    let scope = container.makeScope()
    let scoped: RVNamed = try await scope.resolveAsync(arg: "Tom")
    #expect(scoped.name == "Tom")
    scope.close()
    // Without the argument: the same error, whichever form.
    let missing = await direct(RVNamed.self, container)
    let missingReference = await general(RVNamed.self, container)
    let missingArguments = await rvError { () async throws(DIError) in
      _ = try await container.resolveAsync(arguments: []) as RVNamed
    }
    #expect(RVOutcome(missing).code == .missingArgument)
    #expect(RVOutcome(missing) == RVOutcome(missingReference))
    #expect(missingArguments?.code == .missingArgument)
    #expect(RVOutcome(Result<Void, DIError>.failure(missingArguments!)) == RVOutcome(missing))
    #expect(calls["named"] == 3)
  }
}

private protocol RVPlugin: AnyObject, Sendable {}
private enum RVIndoor {}
private final class RVSyncPlugin: RVPlugin {}
private final class RVAsyncPlugin: RVPlugin {
  init() async { await Task.yield() }
}
private final class RVTaggedPlugin: RVPlugin {
  init() async { await Task.yield() }
}
