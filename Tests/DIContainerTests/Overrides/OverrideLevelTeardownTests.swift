// `withOverrides`: what an override level keeps, and that it drops it with its hooks when the
// operation ends (SPEC, "Overrides, defaults and inspection"). Every top-level type is
// prefixed `OT`.

import DIContainer
import DITestSupport
import Testing

final class OTGateway: Sendable {
  let name: String
  init(name: String) { self.name = name }
}

final class OTCache: Sendable {}

struct OTFailure: Error {}

@Suite struct OverrideLevelTeardownTests {
  @Test func anOverridesCachedInstanceIsDroppedWithItsHookWhenTheOperationReturns() async throws {
    let container = DIContainer()
    container.register { OTGateway(name: "live") }.lifetime(.perContainer(.single))
    let cleaned = EventLog<String>()
    let made = WeakBox<OTGateway>()
    try await container.withOverrides { level in
      level.register { OTGateway(name: "stub") }
        .lifetime(.perContainer(.single))
        .onClean { gateway in cleaned.append(gateway.name) }
    } operation: {
      let first: OTGateway = try container.tryResolve()
      let second: OTGateway = try await container.resolveAsync()
      #expect(first === second)
      #expect(first.name == "stub")
      made.object = first
      #expect(cleaned.all.isEmpty)
    }
    #expect(cleaned.all == ["stub"])
    #expect(made.object == nil)
    let live: OTGateway = try container.tryResolve()
    #expect(live.name == "live")
  }

  @Test func theLevelIsDroppedWithItsHooksWhenTheOperationThrows() async throws {
    let container = DIContainer()
    let cleaned = EventLog<String>()
    await #expect(throws: OTFailure.self) { () async throws in
      try await container.withOverrides { level in
        level.register { OTGateway(name: "stub") }
          .lifetime(.perContainer(.single))
          .onClean { gateway in cleaned.append(gateway.name) }
      } operation: {
        let _: OTGateway = try container.tryResolve()
        throw OTFailure()
      }
    }
    #expect(cleaned.all == ["stub"])
    // Nothing of the level stays: the container has no gateway of its own.
    #expect(throws: DIError.self) { let _: OTGateway = try container.tryResolve() }
  }

  @Test func theSynchronousFormDropsTheLevelBeforeItReturns() throws {
    let container = DIContainer()
    let cleaned = EventLog<String>()
    let name: String = try container.withOverrides { level in
      level.register { OTGateway(name: "stub") }
        .lifetime(.perContainer(.single))
        .onClean { gateway in cleaned.append(gateway.name) }
    } operation: {
      let gateway: OTGateway = try container.tryResolve()
      return gateway.name
    }
    #expect(name == "stub")
    #expect(cleaned.all == ["stub"])
  }

  @Test func theContainersOwnCachedInstancesOutliveTheLevel() async throws {
    let container = DIContainer()
    let cleaned = EventLog<String>()
    container.register(OTCache.init)
      .lifetime(.perContainer(.single))
      .onClean { _ in cleaned.append("cache") }
    let before: OTCache = try container.tryResolve()
    let inside: OTCache = try await container.withOverrides { level in
      level.register { OTGateway(name: "stub") }
    } operation: {
      try container.tryResolve()
    }
    let after: OTCache = try container.tryResolve()
    #expect(before === inside)
    #expect(before === after)
    #expect(cleaned.all.isEmpty)
  }

  @Test func aRequestScopeLeftOpenInsideIsClosedWithItsHooks() async throws {
    let container = DIContainer()
    let cleaned = EventLog<String>()
    container.register { OTGateway(name: "scoped") }
      .lifetime(.scoped)
      .onClean { gateway in cleaned.append(gateway.name) }
    try await container.withOverrides { _ in
    } operation: {
      let scope = container.makeScope()
      let _: OTGateway = try scope.tryResolve()
    }
    #expect(cleaned.all == ["scoped"])
  }

  @Test func aDelayedValueMadeInsideFailsAfterTheOperationInsteadOfKeepingTheLevel() async throws {
    let container = DIContainer()
    let lazy: Lazy<OTGateway> = try await container.withOverrides { level in
      level.register { OTGateway(name: "stub") }.lifetime(.perContainer(.single))
    } operation: {
      try container.tryResolve()
    }
    #expect(throws: DIError.self) { try lazy.tryValue() }
  }
}
