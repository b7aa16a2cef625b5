import DIContainer
import DITestSupport
import Foundation
import Testing

// `resolveAsync()` of a container or a scope makes its first attempt synchronously, inlined
// where it is called, and goes on through the async path only when that attempt meets an
// async component to make; `closeAwaitingHooks()` runs hooks with no async step without
// suspending. Each test compares the concrete forms with the same request made through
// `any DIResolver`, whose `resolveAsync()` takes the general async path.

private struct ConnectFailed: Error {}

private final class FAPool: Sendable {
  init() async throws {
    try await Task.sleep(for: .milliseconds(2))
  }
}

private final class FAFailingPool: Sendable {
  init() async throws {
    try await Task.sleep(for: .milliseconds(2))
    throw ConnectFailed()
  }
}

private final class FALeaf: Sendable {}

private final class FARepository: Sendable {
  let pool: FAPool
  let leaf: FALeaf
  init(pool: FAPool, leaf: FALeaf) {
    self.pool = pool
    self.leaf = leaf
  }
}

private final class FAService: Sendable {
  let repository: FARepository
  init(repository: FARepository) { self.repository = repository }
}

private final class FABroken: Sendable {
  init(pool: FAFailingPool) {}
}

private final class FANeedsMissing: Sendable {
  init(missing: FAMissing) {}
}

private final class FAMissing: Sendable {}

private protocol FAGateway: AnyObject {}

private protocol FAStore: Sendable {}
private final class FAAsyncStore: FAStore {
  init() async throws {
    try await Task.sleep(for: .milliseconds(1))
    throw ConnectFailed()
  }
}
private final class FASyncStore: FAStore {
  init() throws { throw ConnectFailed() }
}
private final class FAStoreUser: Sendable {
  init(store: any FAStore) {}
}
private struct FAValueGateway {}

private final class FAHooked: Sendable {}
private final class FAAsyncHooked: Sendable {
  let hooked: FAHooked
  init(hooked: FAHooked) { self.hooked = hooked }
}

/// How many times each factory ran, by name.
private final class FACalls: Sendable {
  private let counts = LockedValue<[String: Int]>([:])

  func record(_ name: String) { counts.withLock { $0[name, default: 0] += 1 } }

  subscript(name: String) -> Int { counts.withLock { $0[name] ?? 0 } }

  var all: [String: Int] { counts.current }
}

/// A container of a sync graph over an async `.perContainer(.single)` pool, counting each
/// factory's calls.
private func makeContainer(calls: FACalls) -> DIContainer {
  let container = DIContainer()
  container.register { () async throws -> FAPool in
    calls.record("pool")
    return try await FAPool()
  }.lifetime(.perContainer(.single))
  container.register { () -> FALeaf in
    calls.record("leaf")
    return FALeaf()
  }
  container.register { (pool: FAPool, leaf: FALeaf) -> FARepository in
    calls.record("repository")
    return FARepository(pool: pool, leaf: leaf)
  }
  container.register { (repository: FARepository) -> FAService in
    calls.record("service")
    return FAService(repository: repository)
  }
  container.register { () async throws -> FAFailingPool in try await FAFailingPool() }
  container.register(FABroken.init)
  container.register(FANeedsMissing.init)
  return container
}

@Suite struct AsyncFirstAttemptTests {
  @Test func aGraphThatMustAwaitRunsItsFactoriesAsTheGeneralPathDoes() async throws {
    let direct = FACalls()
    let general = FACalls()
    let directContainer = makeContainer(calls: direct)
    let generalContainer = makeContainer(calls: general)
    let resolver: any DIResolver = generalContainer

    // The first request meets the async pool: it is made, then the graph again.
    let first: FAService = try await directContainer.resolveAsync()
    let reference: FAService = try await resolver.resolveAsync()
    #expect(direct.all == general.all)
    #expect(direct["pool"] == 1)
    #expect(direct["service"] == 1)

    // Later requests have nothing to await: one synchronous attempt each.
    for _ in 0..<3 {
      let next: FAService = try await directContainer.resolveAsync()
      #expect(next !== first)
      #expect(next.repository.pool === first.repository.pool)
    }
    for _ in 0..<3 { _ = try await resolver.resolveAsync() as FAService }
    #expect(direct.all == general.all)
    #expect(direct["pool"] == 1)
    #expect(direct["service"] == 4)
    withExtendedLifetime(reference) {}
  }

  @Test func errorsReadAsTheGeneralPathsDo() async {
    let direct = makeContainer(calls: FACalls())
    let general: any DIResolver = makeContainer(calls: FACalls())

    // A failure of the first, synchronous attempt.
    let missing = await Self.error { () async throws(DIError) in
      _ = try await direct.resolveAsync() as FANeedsMissing
    }
    let missingReference = await Self.error { () async throws(DIError) in
      _ = try await general.resolveAsync() as FANeedsMissing
    }
    #expect(missing?.code == .notRegistered)
    #expect(missing?.description == missingReference?.description)

    // A failure of an async factory the request went on to make, below another component:
    // the path names both.
    let broken = await Self.error { () async throws(DIError) in
      _ = try await direct.resolveAsync() as FABroken
    }
    let brokenReference = await Self.error { () async throws(DIError) in
      _ = try await general.resolveAsync() as FABroken
    }
    #expect(broken?.code == .factoryFailed)
    #expect(broken?.underlyingError is ConnectFailed)
    #expect(broken?.path.map(\.requested) == ["FABroken", "FAFailingPool"])
    #expect(broken?.description == brokenReference?.description)
  }

  @Test func anInstanceThatIsNoServiceIsTheGeneralPathsError() async {
    for inScope in [false, true] {
      let container = DIContainer()
      // An object and a value, each registered for a service it does not provide.
      container.register(FALeaf.init).as(FAGateway.self)
      container.register { FAValueGateway() }.as(Int.self)
      let scope = inScope ? container.makeScope() : nil
      let general: any DIResolver = scope ?? container
      let object = await Self.error { () async throws(DIError) in
        if let scope {
          _ = try await scope.resolveAsync() as any FAGateway
        } else {
          _ = try await container.resolveAsync() as any FAGateway
        }
      }
      let objectReference = await Self.error { () async throws(DIError) in
        _ = try await general.resolveAsync() as any FAGateway
      }
      #expect(object?.code == .notAService)
      #expect(object?.description.contains("FALeaf") == true)
      #expect(object?.description == objectReference?.description)
      let value = await Self.error { () async throws(DIError) in
        if let scope {
          _ = try await scope.resolveAsync() as Int
        } else {
          _ = try await container.resolveAsync() as Int
        }
      }
      #expect(value?.code == .notAService)
      #expect(value?.description.contains("FAValueGateway") == true)
    }
  }

  @Test func anAsyncFactorysFailureNamesTheServiceAskedForAsASynchronousOnesDoes() async {
    let asynchronous = DIContainer()
    asynchronous.register { () async throws -> FAAsyncStore in try await FAAsyncStore() }
      .as((any FAStore).self)
    asynchronous.register(FAStoreUser.init)
    let synchronous = DIContainer()
    synchronous.register { () throws -> FASyncStore in try FASyncStore() }
      .as((any FAStore).self)
    synchronous.register(FAStoreUser.init)

    let failed = await Self.error { () async throws(DIError) in
      _ = try await asynchronous.resolveAsync() as FAStoreUser
    }
    let reference = await Self.error { () async throws(DIError) in
      _ = try await synchronous.resolveAsync() as FAStoreUser
    }
    // The path names the service asked for, and the component in its step.
    #expect(failed?.path.map(\.requested) == ["FAStoreUser", "FAStore"])
    #expect(failed?.path.map(\.requested) == reference?.path.map(\.requested))
    #expect(failed?.path.last?.component?.contains("FAAsyncStore") == true)
    #expect(failed?.underlyingError is ConnectFailed)
  }

  @Test func anOptionalRequestThatMustAwaitIsMade() async throws {
    let container = makeContainer(calls: FACalls())
    let service: FAService? = try await container.resolveAsync()
    #expect(service != nil)
    let missing: FAMissing? = try await container.resolveAsync()
    #expect(missing == nil)
  }

  @Test func aScopeMakesItsScopedAsyncInstanceOnceAndAwaitsWhatItMust() async throws {
    let container = DIContainer()
    let made = Counter()
    container.register { () async throws -> FAPool in
      made.next()
      return try await FAPool()
    }.lifetime(.scoped)
    container.register(FALeaf.init)
    container.register(FARepository.init)

    let scope = container.makeScope()
    let first: FARepository = try await scope.resolveAsync()
    let second: FARepository = try await scope.resolveAsync()
    #expect(first.pool === second.pool)
    #expect(made.value == 1)

    // Another scope has its own pool; the protocol's path shares this scope's.
    let other = container.makeScope()
    let elsewhere: FARepository = try await other.resolveAsync()
    let resolver: any DIResolver = scope
    let throughProtocol: FARepository = try await resolver.resolveAsync()
    #expect(elsewhere.pool !== first.pool)
    #expect(throughProtocol.pool === first.pool)
    #expect(made.value == 2)
    other.close()
    scope.close()
  }

  @Test func aClosedScopeFailsAsTheGeneralPathDoes() async {
    let container = makeContainer(calls: FACalls())
    let scope = container.makeScope()
    scope.close()
    let direct = await Self.error { () async throws(DIError) in
      _ = try await scope.resolveAsync() as FALeaf
    }
    let resolver: any DIResolver = scope
    let general = await Self.error { () async throws(DIError) in
      _ = try await resolver.resolveAsync() as FALeaf
    }
    #expect(direct?.code == .scopeClosed)
    #expect(direct?.description == general?.description)
  }

  @Test func aScopeWhoseContainerIsGoneFails() async {
    let owner = FALeaf()
    var container: DIContainer? = DIContainer()
    container?.register(FALeaf.init)
    let scope = container!.scope(for: owner)
    container = nil
    let error = await Self.error { () async throws(DIError) in
      _ = try await scope.resolveAsync() as FALeaf
    }
    #expect(error?.code == .containerReleased)
    withExtendedLifetime(owner) {}
  }

  @MainActor
  @Test func theMainActorResolvesAGraphThatMustAwait() async throws {
    let container = makeContainer(calls: FACalls())
    let service: FAService = try await container.resolveAsync()
    let again: FAService = try await container.resolveAsync()
    #expect(service.repository.pool === again.repository.pool)
  }

  @Test func closingRunsSynchronousHooksBeforeItReturnsNewestFirst() async throws {
    let log = LockedValue<[String]>([])
    let container = DIContainer()
    container.register(FAHooked.init).lifetime(.scoped)
      .onClean { _ in log.withLock { $0.append("hooked") } }
    container.register(FAAsyncHooked.init).lifetime(.scoped)
      .onClean { _ in log.withLock { $0.append("asyncHooked") } }
    let scope = container.makeScope()
    _ = try scope.tryResolve() as FAAsyncHooked
    await scope.closeAwaitingHooks()
    #expect(log.current == ["asyncHooked", "hooked"])
    #expect(scope.isClosed)
    // A second close has nothing to run.
    await scope.closeAwaitingHooks()
    #expect(log.current.count == 2)
  }

  @Test func closingAwaitsAsyncHooksInTheirPlace() async throws {
    let log = LockedValue<[String]>([])
    let container = DIContainer()
    container.register(FAHooked.init).lifetime(.scoped)
      .onClean { _ in log.withLock { $0.append("hooked") } }
    container.register(FAAsyncHooked.init).lifetime(.scoped)
      .onClean { _ in log.withLock { $0.append("asyncHooked: sync step") } }
      .onClean { (_: FAAsyncHooked) async in
        try? await Task.sleep(for: .milliseconds(20))
        log.withLock { $0.append("asyncHooked: async step") }
      }
    let scope = container.makeScope()
    _ = try scope.tryResolve() as FAAsyncHooked
    await scope.closeAwaitingHooks()
    // The newer instance's steps, the async one awaited, then the older instance's.
    #expect(
      log.current == ["asyncHooked: sync step", "asyncHooked: async step", "hooked"])
  }

  /// The `DIError` `body` throws, if it throws one.
  private static func error(
    _ body: () async throws(DIError) -> Void
  ) async -> DIError? {
    do {
      try await body()
      return nil
    } catch {
      return error
    }
  }
}
