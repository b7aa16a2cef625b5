import DIContainer
import DITestSupport
import Testing

/// SPEC.md, "Overrides, defaults and inspection (beyond the peers)": the snippet as written,
/// and the rules of its prose.
@Suite struct OverridesDefaultsInspectionSpecTests {
  protocol Clock: Sendable { var now: Int { get } }
  struct SystemClock: Clock { let now = 1 }
  struct FixedClock: Clock { let now = 42 }
  final class Report: Sendable {
    let clock: any Clock
    init(clock: any Clock) { self.clock = clock }
  }
  final class Session {}
  final class Avatar {
    let size: Int
    init(size: Int) { self.size = size }
  }
  final class User {
    let name: String
    let avatar: Avatar
    init(name: String, avatar: Avatar) {
      self.name = name
      self.avatar = avatar
    }
  }

  @Test func theSnippetRunsAsWritten() async throws {
    let shared = DIContainer()
    shared.register(SystemClock.init).as(Clock.self)
    shared.register(Report.init)
    do {
      let container = shared
      try await container.withOverrides { c in
        c.register(FixedClock.init).as(Clock.self)
      } operation: {
        let report: Report = try await container.resolveAsync()  // built with FixedClock
        #expect(report.clock.now == 42)
      }
      let report: Report = try await container.resolveAsync()
      #expect(report.clock.now == 1)
    }

    // Lifetime of registrations that set none:
    let container = DIContainer(defaultLifetime: .objectGraph)
    container.register(Session.init)
    container.register { Avatar(size: arg($0)) }
    container.register { User(name: arg($0), avatar: $1) }
    container.clean(Session.self)  // drops the cached instances that answer Session (hooks run)
    print(container)  // one line per registration
    let user: User = try container.tryResolve(
      arguments: .for(Avatar.self, 128), .for(User.self, "ann"))
    #expect(user.name == "ann")
    #expect(user.avatar.size == 128)
    #expect("\(container.defaultLifetime)" == "objectGraph")
  }

  @Test func theSynchronousFormOfWithOverridesExists() throws {
    let container = DIContainer()
    container.register(SystemClock.init).as(Clock.self)
    container.register(Report.init)
    let report: Report = try container.withOverrides { c in
      c.register(FixedClock.init).as(Clock.self)
    } operation: {
      try container.tryResolve()
    }
    #expect(report.clock.now == 42)
  }

  @Test func aChildWithoutADefaultLifetimeInheritsItsParents() throws {
    let parent = DIContainer(defaultLifetime: .perContainer(.single))
    let child = DIContainer(parent: parent)
    let own = DIContainer(parent: parent, defaultLifetime: .prototype)
    child.register(Session.init)
    own.register(Session.init)
    #expect(try child.tryResolve() as Session === child.tryResolve() as Session)
    #expect(try own.tryResolve() as Session !== own.tryResolve() as Session)
  }

  @Test func descriptionNeverResolves() {
    let container = DIContainer()
    let made = Counter()
    container.register { () -> Session in
      _ = made.next()
      return Session()
    }
    .lifetime(.perContainer(.single))
    let text = "\(container)"
    #expect(text.contains("Session"))
    #expect(made.value == 0)
  }

  @Test func argumentsForATypeTheRequestNeverBuildsAreExtraArguments() {
    let container = DIContainer()
    container.register(Session.init)
    let error = #expect(throws: DIError.self) {
      let _: Session = try container.tryResolve(arguments: .for(Avatar.self, 128))
    }
    #expect(error?.code == .extraArguments)
  }
}
