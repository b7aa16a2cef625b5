import DIContainer
import DITestSupport
import Testing

private final class Tenant {}
private final class Session {}
private final class Screen {}

/// `DIScope(name:storage:policy:parent:)`: cleaning a scope cleans its children, at any
/// depth; a parent holds its children weakly.
@Suite struct ScopeParentTests {
  @Test func cleaningAScopeCleansItsChildrenTransitively() {
    let tenant = DIScope(name: "Tenant")
    let session = DIScope(name: "Session", parent: tenant)
    let screen = DIScope(name: "Screen", parent: session)
    let container = DIContainer()
    container.register(Tenant.init).lifetime(.custom(tenant))
    container.register(Session.init).lifetime(.custom(session))
    container.register(Screen.init).lifetime(.custom(screen))
    let (t1, s1, c1): (Tenant, Session, Screen) = (
      container.resolve(), container.resolve(), container.resolve()
    )

    tenant.clean()

    let (t2, s2, c2): (Tenant, Session, Screen) = (
      container.resolve(), container.resolve(), container.resolve()
    )
    #expect(t2 !== t1)
    #expect(s2 !== s1)
    #expect(c2 !== c1, "the grandchild is cleaned too")
  }

  @Test func cleaningAChildLeavesItsParentAlone() {
    let session = DIScope(name: "Session")
    let screen = DIScope(name: "Screen", parent: session)
    let container = DIContainer()
    container.register(Session.init).lifetime(.custom(session))
    container.register(Screen.init).lifetime(.custom(screen))
    let (s1, c1): (Session, Screen) = (container.resolve(), container.resolve())

    screen.clean()

    let (s2, c2): (Session, Screen) = (container.resolve(), container.resolve())
    #expect(s2 === s1)
    #expect(c2 !== c1)
  }

  @Test func cleaningAParentRunsItsAndItsChildrensHooksNewestFirst() {
    let order = EventLog<String>()
    let session = DIScope(name: "Session")
    let first = DIScope(name: "First", parent: session)
    let second = DIScope(name: "Second", parent: session)
    let container = DIContainer()
    container.register(Session.init).lifetime(.custom(session))
      .onClean { _ in order.append("Session") }
    container.register(Screen.init).lifetime(.custom(first))
      .onClean { _ in order.append("First") }
    container.register(Tenant.init).lifetime(.custom(second))
      .onClean { _ in order.append("Second") }
    let _: (Session, Screen, Tenant) = (
      container.resolve(), container.resolve(), container.resolve()
    )

    session.clean()

    // One clean: every dropped instance's hook, in reverse order of creation.
    #expect(order.all == ["Second", "First", "Session"])
  }

  @Test func aParentDoesNotKeepItsChildrenAlive() {
    let session = DIScope(name: "Session")
    weak var weakScreen: DIScope?
    weak var weakCached: Screen?
    do {
      let screen = DIScope(name: "Screen", parent: session)
      let container = DIContainer()
      container.register(Screen.init).lifetime(.custom(screen))
      let cached: Screen = container.resolve()
      weakScreen = screen
      weakCached = cached
    }
    #expect(weakScreen == nil, "only its creator kept the child scope")
    #expect(weakCached == nil, "and with it what it kept")
    session.clean()  // a dead child is skipped
    let later = DIScope(name: "Later", parent: session)
    #expect(later.parent === session)
  }

  @Test func aChildKeepsItsParentAlive() {
    weak var weakSession: DIScope?
    let screen: DIScope
    do {
      let session = DIScope(name: "Session")
      weakSession = session
      screen = DIScope(name: "Screen", parent: session)
    }
    #expect(weakSession != nil)
    #expect(screen.parent?.name == "Session")
  }

  @Test func aScopeWithoutParentHasNone() {
    #expect(DIScope(name: "Session").parent == nil)
  }
}
