import DIContainer
import DIFrameworks
import Testing

@Suite struct FrameworkLifetimeTests {
  @Test func perFrameworkSingleIsOneInstancePerFramework() {
    let container = DIContainer()
      .append(framework: NorthFramework.self)
      .append(framework: SouthFramework.self)
    let north1: any Store = container.resolve(from: NorthFramework.self)
    let north2: any Store = container.resolve(from: NorthFramework.self)
    let south: any Store = container.resolve(from: SouthFramework.self)
    #expect(north1 === north2)
    #expect(north1 !== south)
  }

  @Test func cleanFrameworkDropsOneFrameworksInstancesAndLeavesAnothers() {
    let container = DIContainer()
      .append(framework: NorthFramework.self)
      .append(framework: SouthFramework.self)
    let north1: any Store = container.resolve(from: NorthFramework.self)
    let south1: any Store = container.resolve(from: SouthFramework.self)
    let depot1: Depot = container.resolve()
    container.clean(framework: NorthFramework.self)
    let north2: any Store = container.resolve(from: NorthFramework.self)
    let south2: any Store = container.resolve(from: SouthFramework.self)
    let depot2: Depot = container.resolve()
    #expect(north1 !== north2)
    #expect(south1 === south2)
    #expect(depot1 === depot2)  // .perContainer stays
  }

  @Test func cleanFrameworkReleasesTheInstance() {
    let container = DIContainer().append(framework: NorthFramework.self)
    weak var weakStore: NorthStore?
    do {
      let store: NorthStore = container.resolve()
      weakStore = store
    }
    #expect(weakStore != nil)
    container.clean(framework: NorthFramework.self)
    #expect(weakStore == nil)
  }

  @Test func perFrameworkWeakIsReleasedWhenNobodyHoldsIt() {
    let container = DIContainer().append(framework: SouthFramework.self)
    weak var weakCache: SouthCache?
    do {
      let cache: SouthCache = container.resolve()
      let again: SouthCache = container.resolve()
      #expect(cache === again)
      weakCache = cache
    }
    #expect(weakCache == nil)
  }

  @Test func containerCleanLeavesPerFrameworkInstances() {
    let container = DIContainer().append(framework: NorthFramework.self)
    let store1: NorthStore = container.resolve()
    container.clean()
    let store2: NorthStore = container.resolve()
    #expect(store1 === store2)
  }
}

private protocol Store: AnyObject, Sendable {}
private final class NorthStore: Store {}
private final class SouthStore: Store {}
private final class SouthCache: Sendable {}
private final class Depot: Sendable {}

private final class NorthFramework: DIFramework {
  static func load(container: DIContainer) {
    container.register(NorthStore.init).as((any Store).self).lifetime(.perFramework(.single))
    container.register(Depot.init).lifetime(.perContainer(.single))
  }
}

private final class SouthFramework: DIFramework {
  static func load(container: DIContainer) {
    container.register(SouthStore.init).as((any Store).self).lifetime(.perFramework(.single))
    container.register(SouthCache.init).lifetime(.perFramework(.weak))
  }
}
