import DIContainer
import DITestSupport
import Testing

private final class DLClock {}
private final class DLRequest {}
private final class DLReport {
  let clock: DLClock
  init(clock: DLClock) { self.clock = clock }
}
private final class DLPool {
  init() async {}
}
private final class DLPresenter {}
private final class DLRequestLog {}
private final class DLHandler {
  let log: DLRequestLog
  init(log: DLRequestLog) { self.log = log }
}

@Suite struct DefaultLifetimeTests {
  @Test func aContainerWithoutADefaultMakesPrototypes() {
    let container = DIContainer()
    container.register(DLClock.init)
    let first: DLClock = container.resolve()
    let second: DLClock = container.resolve()
    #expect(first !== second)
    if case .prototype = container.defaultLifetime {} else { Issue.record("not .prototype") }
  }

  @Test func registrationsThatSetNoLifetimeGetTheContainersDefault() {
    let container = DIContainer(defaultLifetime: .perContainer(.single))
    container.register(DLClock.init)
    let first: DLClock = container.resolve()
    let second: DLClock = container.resolve()
    #expect(first === second)
    container.clean()
    let third: DLClock = container.resolve()
    #expect(third !== first, "a .perContainer default is dropped by clean()")
  }

  @Test func anObjectGraphDefaultSharesOneInstanceWithinARequestOnly() {
    let container = DIContainer(defaultLifetime: .objectGraph)
    container.register(DLClock.init)
    container.register { DLPair(first: $0, second: $1) }
    let pair: DLPair = container.resolve()
    #expect(pair.first === pair.second)
    let other: DLPair = container.resolve()
    #expect(other.first !== pair.first)
  }

  @Test func anExplicitLifetimeWinsOverTheDefault() {
    let container = DIContainer(defaultLifetime: .perContainer(.single))
    container.register(DLRequest.init).lifetime(.prototype)
    let first: DLRequest = container.resolve()
    let second: DLRequest = container.resolve()
    #expect(first !== second)
    let lifetime = container.makeGraph().components[0].lifetime
    #expect("\(lifetime)" == "prototype")
  }

  @Test func anAsyncFactoryGetsTheDefault() async throws {
    let container = DIContainer(defaultLifetime: .perContainer(.single))
    container.register { () async -> DLPool in await DLPool() }
    let first: DLPool = try await container.resolveAsync()
    let second: DLPool = try await container.resolveAsync()
    #expect(first === second)
  }

  @Test func aRegistrationWithoutInitializerGetsTheDefaultToo() {
    let container = DIContainer(defaultLifetime: .perContainer(.weak))
    container.register(DLPresenter.self)
    #expect("\(container.makeGraph().components[0].lifetime)" == "perContainer(.weak)")
  }

  @Test func aChildWithoutADefaultInheritsItsParents() {
    let parent = DIContainer(defaultLifetime: .perContainer(.single))
    let child = DIContainer(parent: parent)
    #expect("\(child.defaultLifetime)" == "perContainer(.single)")
    child.register(DLClock.init)
    let first: DLClock = child.resolve()
    let second: DLClock = child.resolve()
    #expect(first === second)
    let grandchild = DIContainer(parent: child)
    #expect("\(grandchild.defaultLifetime)" == "perContainer(.single)")
  }

  @Test func aChildsOwnDefaultOverridesItsParentsForItsRegistrationsOnly() {
    let parent = DIContainer(defaultLifetime: .perContainer(.single))
    parent.register(DLClock.init)
    let child = DIContainer(parent: parent, defaultLifetime: .prototype)
    child.register(DLRequest.init)
    let first: DLRequest = child.resolve()
    let second: DLRequest = child.resolve()
    #expect(first !== second, "the child's registration is a prototype")
    let clock: DLClock = child.resolve()
    let parentClock: DLClock = parent.resolve()
    #expect(clock === parentClock, "the parent's registration keeps the parent's default")
  }

  @Test func aParentsDefaultDoesNotChangeWithAChilds() {
    let parent = DIContainer()
    let child = DIContainer(parent: parent, defaultLifetime: .perContainer(.single))
    parent.register(DLRequest.init)
    let first: DLRequest = child.resolve()
    let second: DLRequest = child.resolve()
    #expect(first !== second)
    #expect("\(parent.defaultLifetime)" == "prototype")
  }

  @Test func graphValidationSeesTheDefault() {
    let container = DIContainer(defaultLifetime: .perContainer(.single))
    container.register(DLRequestLog.init).lifetime(.scoped)
    container.register(DLHandler.init)
    let graph = container.makeGraph()
    #expect("\(graph.components[1].lifetime)" == "perContainer(.single)")
    // A default-lifetime holder of a `.scoped` component is a captive dependency.
    #expect(throws: (any Error).self) { try graph.validate() }
    let prototypes = DIContainer()
    prototypes.register(DLRequestLog.init).lifetime(.scoped)
    prototypes.register(DLHandler.init)
    #expect(throws: Never.self) { try prototypes.makeGraph().validate() }
  }

  @Test func aNamedCustomScopeDefaultPutsEveryRegistrationInThatScope() {
    let container = DIContainer(defaultLifetime: .custom(name: "Session"))
    container.register(DLClock.init)
    container.register(DLReport.init)
    let report: DLReport = container.resolve()
    let again: DLReport = container.resolve()
    #expect(report === again)
    #expect(report.clock === (container.resolve() as DLClock))
    let session = container.scope(named: "Session")
    #expect(session != nil)
    container.clean(scope: "Session")
    let fresh: DLReport = container.resolve()
    #expect(fresh !== report)
  }

  @Test func theRegistrationLogLineNamesTheDefault() {
    let lines = DISetting.Log.capturing {
      let container = DIContainer(defaultLifetime: .perContainer(.weak))
      container.register(DLClock.init)
    }
    #expect(lines.contains { $0.contains("DLClock") && $0.contains("perContainer(.weak)") })
  }
}

private final class DLPair {
  let first: DLClock
  let second: DLClock
  init(first: DLClock, second: DLClock) {
    self.first = first
    self.second = second
  }
}
