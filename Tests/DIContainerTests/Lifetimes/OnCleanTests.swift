import DIContainer
import DITestSupport
import Testing

/// Three levels: a `Repository` needs a `Pool`, a `Service` needs the `Repository`.
private final class Pool: @unchecked Sendable {
  var isClosed = false
  func close() { isClosed = true }
}
private final class Repository {
  let pool: Pool
  init(pool: Pool) { self.pool = pool }
}
private final class Service {
  let repository: Repository
  init(repository: Repository) { self.repository = repository }
}

private struct HookFailure: Error {}

@Suite struct OnCleanTests {
  /// Registers the three-level graph with `lifetime`, each hook appending its type's name.
  private func threeLevels(_ lifetime: DILifetime, log: EventLog<String>) -> DIContainer {
    let container = DIContainer()
    container.register(Pool.init).lifetime(lifetime).onClean { _ in log.append("Pool") }
    container.register(Repository.init).lifetime(lifetime)
      .onClean { _ in log.append("Repository") }
    container.register(Service.init).lifetime(lifetime).onClean { _ in log.append("Service") }
    return container
  }

  @Test func specSnippetCompilesAndCloseRunsOnClean() {
    let container = DIContainer()
    container.register(Pool.init)
      .lifetime(.perContainer(.single))
      .onClean { pool in pool.close() }
    let pool: Pool = container.resolve()
    #expect(!pool.isClosed)
    container.clean()
    #expect(pool.isClosed)
  }

  @Test func cleanRunsHooksOfAThreeLevelGraphDependentsFirst() {
    let log = EventLog<String>()
    let container = threeLevels(.perContainer(.single), log: log)
    let _: Service = container.resolve()
    container.clean()
    #expect(log.all == ["Service", "Repository", "Pool"])
  }

  @Test func orderIsCreationOrderNotRegistrationOrder() {
    let log = EventLog<String>()
    let container = DIContainer()
    // Registered dependents first; created dependencies first.
    container.register(Service.init).lifetime(.perContainer(.single))
      .onClean { _ in log.append("Service") }
    container.register(Repository.init).lifetime(.perContainer(.single))
      .onClean { _ in log.append("Repository") }
    container.register(Pool.init).lifetime(.perContainer(.single))
      .onClean { _ in log.append("Pool") }
    let _: Service = container.resolve()
    container.clean()
    #expect(log.all == ["Service", "Repository", "Pool"])
  }

  @Test func hookRunsExactlyOncePerInstance() {
    let counter = Counter()
    let container = DIContainer()
    container.register(Pool.init).lifetime(.perContainer(.single))
      .onClean { _ in counter.next() }
    let first: Pool = container.resolve()
    container.clean()
    container.clean()
    #expect(counter.value == 1)
    let second: Pool = container.resolve()
    #expect(first !== second)
    container.clean()
    #expect(counter.value == 2)
  }

  @Test func hookReceivesTheDroppedInstance() {
    let container = DIContainer()
    let seen = EventLog<String>()
    container.register(Pool.init).lifetime(.perContainer(.single))
      .onClean { pool in seen.append("\(ObjectIdentifier(pool).hashValue)") }
    let pool: Pool = container.resolve()
    container.clean()
    #expect(seen.all == ["\(ObjectIdentifier(pool).hashValue)"])
  }

  @Test func severalOnCleanCallsRunInCallOrder() {
    let log = EventLog<String>()
    let container = DIContainer()
    container.register(Pool.init).lifetime(.perContainer(.single))
      .onClean { _ in log.append("first") }
      .onClean { _ in log.append("second") }
    let _: Pool = container.resolve()
    container.clean()
    #expect(log.all == ["first", "second"])
  }

  @Test func multitonInstancesAreCleanedNewestFirst() {
    let log = EventLog<String>()
    let container = DIContainer()
    container.register { Kitten(name: arg($0)) }.lifetime(.multiton)
      .onClean { kitten in log.append(kitten.name) }
    let _: Kitten = container.resolve(arg: "Mimi")
    let _: Kitten = container.resolve(arg: "Tom")
    container.clean()
    #expect(log.all == ["Tom", "Mimi"])
  }

  @Test func weakInstanceThatIsGoneRunsNothing() {
    let counter = Counter()
    let container = DIContainer()
    container.register(Pool.init).lifetime(.perContainer(.weak))
      .onClean { _ in counter.next() }
    weak var gone: Pool?
    do {
      let pool: Pool = container.resolve()
      gone = pool
    }
    #expect(gone == nil)
    container.clean()
    #expect(counter.value == 0)
  }

  @Test func weakInstanceStillAliveRunsItsHook() {
    let counter = Counter()
    let container = DIContainer()
    container.register(Pool.init).lifetime(.perContainer(.weak))
      .onClean { _ in counter.next() }
    let pool: Pool = container.resolve()
    container.clean()
    #expect(counter.value == 1)
    withExtendedLifetime(pool) {}
  }

  @Test func prototypeObjectGraphAndApplicationInstancesRunNoHook() {
    let counter = Counter()
    let container = DIContainer()
    container.register(Pool.init).onClean { _ in counter.next() }
    container.register(Repository.init).lifetime(.objectGraph).onClean { _ in counter.next() }
    container.register(Service.init).lifetime(.perApplication(.single))
      .onClean { _ in counter.next() }
    let _: Service = container.resolve()
    container.clean()
    #expect(counter.value == 0)
  }

  @Test func customScopeCleanRunsHooksDependentsFirst() {
    let log = EventLog<String>()
    let session = DIScope(name: "Session")
    let container = threeLevels(.custom(session), log: log)
    let _: Service = container.resolve()
    session.clean()
    #expect(log.all == ["Service", "Repository", "Pool"])
    session.clean()
    #expect(log.all.count == 3)
  }

  @Test func cleanScopeByNameRunsHooks() {
    let log = EventLog<String>()
    let container = threeLevels(.custom(name: "Session"), log: log)
    let _: Service = container.resolve()
    container.clean(scope: "Session")
    #expect(log.all == ["Service", "Repository", "Pool"])
  }

  @Test func requestScopeCloseRunsHooksDependentsFirst() {
    let log = EventLog<String>()
    let container = threeLevels(.scoped, log: log)
    let scope = container.makeScope()
    let _: Service = scope.resolve()
    #expect(log.all.isEmpty)
    scope.close()
    #expect(log.all == ["Service", "Repository", "Pool"])
    scope.close()
    #expect(log.all.count == 3)
  }

  @Test func requestScopeCloseAwaitingHooksRunsThemDependentsFirst() async throws {
    let log = EventLog<String>()
    let container = threeLevels(.scoped, log: log)
    for round in 1...3 {
      let scope = container.makeScope()
      let _: Service = try scope.tryResolve()
      await scope.closeAwaitingHooks()
      #expect(log.all.count == 3 * round)
      #expect(log.all.suffix(3) == ["Service", "Repository", "Pool"])
    }
  }

  @Test func mixedLifetimesCleanOnlyWhatEachCleanDrops() {
    let log = EventLog<String>()
    let container = DIContainer()
    container.register(Pool.init).lifetime(.perContainer(.single))
      .onClean { _ in log.append("Pool") }
    container.register(Repository.init).lifetime(.scoped)
      .onClean { _ in log.append("Repository") }
    container.register(Service.init).lifetime(.scoped).onClean { _ in log.append("Service") }
    let scope = container.makeScope()
    let _: Service = scope.resolve()
    scope.close()
    #expect(log.all == ["Service", "Repository"])
    container.clean()
    #expect(log.all == ["Service", "Repository", "Pool"])
  }
}

/// `DISetting.Log` is process-wide: these run in the serialized ``LogTests`` suite.
extension LogTests {
  @Test func throwingOnCleanHookIsLoggedAndTheOthersStillRun() {
    let lines = EventLog<String>()
    let savedFn = DISetting.Log.fn
    defer { DISetting.Log.fn = savedFn }
    DISetting.Log.fn = { level, message in lines.append("\(level): \(message)") }
    let ran = EventLog<String>()
    let container = DIContainer()
    container.register(Pool.init).lifetime(.perContainer(.single))
      .onClean { _ in ran.append("Pool") }
    container.register(Repository.init).lifetime(.perContainer(.single))
      .onClean { _ in throw HookFailure() }
    container.register(Service.init).lifetime(.perContainer(.single))
      .onClean { _ in ran.append("Service") }
    let _: Service = container.resolve()
    container.clean()
    #expect(ran.all == ["Service", "Pool"])
    #expect(
      lines.all.contains {
        $0.hasPrefix("error: onClean of Repository (") && $0.hasSuffix("threw: HookFailure()")
      })
  }
}
