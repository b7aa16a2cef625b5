import DIContainer
import DITestSupport
import Testing

private protocol CSSessionService: AnyObject {}
private final class CSSession: CSSessionService {}
private final class CSOtherSession: CSSessionService {}
private final class CSCache {}
private final class CSToken {}
private final class CSKitten {
  let name: String
  init(name: String) { self.name = name }
}
private final class CSUser {
  let session: CSSession
  init(session: CSSession) { self.session = session }
}
private enum CSIndoor {}
private protocol CSPet: AnyObject {}
private final class CSNamed: CSPet {
  let name: String
  init(name: String) { self.name = name }
}
private enum CSScoped {}
private enum CSSingle {}

@Suite struct CleanServiceTests {
  @Test func dropsOnlyThatServicesInstances() {
    let container = DIContainer()
    container.register(CSSession.init).lifetime(.perContainer(.single))
    container.register(CSCache.init).lifetime(.perContainer(.single))
    let session = WeakBox<CSSession>()
    let cache: CSCache = container.resolve()
    do {
      let first: CSSession = container.resolve()
      session.object = first
    }
    #expect(session.object != nil, "kept by the container")
    container.clean(CSSession.self)
    #expect(session.object == nil, "the container no longer holds the Session")
    let again: CSCache = container.resolve()
    #expect(again === cache, "another service's instance stays")
  }

  @Test func theNextRequestMakesANewInstance() {
    let made = Counter()
    let container = DIContainer()
    container.register { () -> CSSession in
      made.next()
      return CSSession()
    }.lifetime(.perContainer(.single))
    let first: CSSession = container.resolve()
    container.clean(CSSession.self)
    let second: CSSession = container.resolve()
    #expect(first !== second)
    #expect(made.value == 2)
  }

  @Test func everyComponentAnsweringTheServiceIsDroppedUnderAnyTag() {
    let log = EventLog<String>()
    let container = DIContainer()
    container.register(CSSession.init).as(CSSessionService.self).lifetime(.perContainer(.single))
      .onClean { _ in log.append("Session") }
    container.register(CSOtherSession.init).as(CSSessionService.self, tag: CSIndoor.self)
      .lifetime(.perContainer(.single))
      .onClean { _ in log.append("OtherSession") }
    container.register(CSCache.init).lifetime(.perContainer(.single))
      .onClean { _ in log.append("Cache") }
    let _: CSSession = container.resolve()
    let _: CSOtherSession = container.resolve()
    let _: CSCache = container.resolve()
    container.clean(CSSessionService.self)
    #expect(log.all == ["OtherSession", "Session"], "newest first; the Cache stays")
  }

  @Test func hooksRunNewestFirstAcrossLifetimesAndScopes() {
    let log = EventLog<String>()
    let scope = DIScope(name: "Session")
    let container = DIContainer()
    container.register { CSNamed(name: "scoped") }.as(CSPet.self, tag: CSScoped.self)
      .lifetime(.custom(scope)).onClean { log.append($0.name) }
    container.register { CSNamed(name: "single") }.as(CSPet.self, tag: CSSingle.self)
      .lifetime(.perContainer(.single)).onClean { log.append($0.name) }
    // Made in the other order than registered: creation order decides.
    let _: CSPet = by(tag: CSSingle.self, on: container.resolve())
    let _: CSPet = by(tag: CSScoped.self, on: container.resolve())
    container.clean(CSPet.self)
    #expect(log.all == ["scoped", "single"])
  }

  @Test func theHooksOfDroppedInstancesRunNewestFirst() {
    let log = EventLog<String>()
    let container = DIContainer()
    container.register { CSKitten(name: arg($0)) }.lifetime(.multiton)
      .onClean { kitten in log.append(kitten.name) }
    container.register(CSCache.init).lifetime(.perContainer(.single))
      .onClean { _ in log.append("cache") }
    let _: CSKitten = container.resolve(arg: "Mimi")
    let _: CSCache = container.resolve()
    let _: CSKitten = container.resolve(arg: "Tom")
    let _: CSKitten = container.resolve(arg: "Kit")
    container.clean(CSKitten.self)
    #expect(log.all == ["Kit", "Tom", "Mimi"], "every multiton key, newest first")
    let mimi: CSKitten = container.resolve(arg: "Mimi")
    container.clean(CSKitten.self)
    #expect(log.all.last == "Mimi")
    _ = mimi
  }

  @Test func weakInstancesAreForgotten() {
    let container = DIContainer()
    container.register(CSSession.init).lifetime(.perContainer(.weak))
    let held: CSSession = container.resolve()
    let same: CSSession = container.resolve()
    #expect(held === same)
    container.clean(CSSession.self)
    let fresh: CSSession = container.resolve()
    #expect(fresh !== held, "no longer reused, though still held elsewhere")
  }

  @Test func aCustomScopeLosesOnlyThatComponentsInstance() {
    let log = EventLog<String>()
    let session = DIScope(name: "Session")
    let container = DIContainer()
    container.register(CSSession.init).lifetime(.custom(session))
      .onClean { _ in log.append("Session") }
    container.register(CSCache.init).lifetime(.custom(session))
      .onClean { _ in log.append("Cache") }
    let weakSession = WeakBox<CSSession>()
    do {
      let first: CSSession = container.resolve()
      weakSession.object = first
    }
    let cache: CSCache = container.resolve()
    container.clean(CSSession.self)
    #expect(log.all == ["Session"])
    #expect(weakSession.object == nil, "the scope's storage released it")
    let again: CSCache = container.resolve()
    #expect(again === cache, "the scope's other instance stays")
    session.clean()
    #expect(log.all == ["Session", "Cache"], "the dropped instance's hook does not run twice")
  }

  @Test func aStorageWithoutRemoveValueKeepsTheInstanceWithAWarning() {
    let storage = CSClearOnlyStorage()
    let session = DIScope(name: "Session", storage: storage)
    let container = DIContainer()
    container.register(CSSession.init).lifetime(.custom(session))
    let first: CSSession = container.resolve()
    let lines = DISetting.Log.capturing { container.clean(CSSession.self) }
    #expect(lines.contains { $0.contains("removeValue(for:)") && $0.contains("Session") })
    let second: CSSession = container.resolve()
    #expect(first === second)
  }

  @Test func frameworkAndPartLifetimesAreDroppedToo() {
    // `.perFramework` and `.perPart` outside any module behave as one module's instances:
    // clean(_:) drops them whatever their module.
    let container = DIContainer()
    container.register(CSSession.init).lifetime(.perFramework(.single))
    container.register(CSCache.init).lifetime(.perPart(.single))
    let session: CSSession = container.resolve()
    let cache: CSCache = container.resolve()
    container.clean(CSSession.self)
    container.clean(CSCache.self)
    #expect((container.resolve() as CSSession) !== session)
    #expect((container.resolve() as CSCache) !== cache)
  }

  @Test func dependentsOfTheDroppedInstanceStay() {
    let container = DIContainer()
    container.register(CSSession.init).lifetime(.perContainer(.single))
    container.register(CSUser.init).lifetime(.perContainer(.single))
    let user: CSUser = container.resolve()
    container.clean(CSSession.self)
    let sameUser: CSUser = container.resolve()
    #expect(sameUser === user)
    let session: CSSession = container.resolve()
    #expect(session !== user.session)
  }

  @Test func aChildDropsItsOwnInstancesNeverItsParents() {
    let parent = DIContainer()
    parent.register(CSSession.init).lifetime(.perContainer(.single))
    let child = DIContainer(parent: parent)
    child.register(CSCache.init).lifetime(.perContainer(.single))
    let session: CSSession = child.resolve()
    let lines = DISetting.Log.capturing { child.clean(CSSession.self) }
    #expect(lines.contains { $0.contains("parent container") })
    #expect((child.resolve() as CSSession) === session)
    parent.clean(CSSession.self)
    #expect((child.resolve() as CSSession) !== session)
  }

  @Test func anUnknownServiceIsAWarningAndDropsNothing() {
    let container = DIContainer()
    container.register(CSCache.init).lifetime(.perContainer(.single))
    let cache: CSCache = container.resolve()
    let lines = DISetting.Log.capturing { container.clean(CSSession.self) }
    #expect(lines.contains { $0.hasPrefix("warning") && $0.contains("CSSession") })
    #expect((container.resolve() as CSCache) === cache)
  }
}

/// Process-wide instances are global state: this suite is serialized.
@Suite(.serialized) struct CleanServiceProcessWideTests {
  @Test func processWideInstancesStayAsWithClean() {
    let container = DIContainer()
    container.register(CSToken.init).lifetime(.perApplication(.single))
    let token: CSToken = container.resolve()
    container.clean(CSToken.self)
    #expect((container.resolve() as CSToken) === token)
  }
}

/// A storage that implements only `clean()`: it cannot forget one value.
private final class CSClearOnlyStorage: DIStorage {
  private let values = LockedValue<[DIStorageKey: DIStorageValue]>([:])
  func value(for key: DIStorageKey) -> DIStorageValue? { values.withLock { $0[key] } }
  func setValue(_ value: DIStorageValue, for key: DIStorageKey) {
    values.withLock { $0[key] = value }
  }
  func clean() { values.withLock { $0 = [:] } }
}
