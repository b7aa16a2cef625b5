import DIContainer
import DIFrameworks

// S10's objects and frameworks: a framework that imports another, both with a candidate for
// the service its component needs.

/// S10's service, with a candidate in each of the two frameworks.
protocol ModularStore: AnyObject {}

/// The imported framework's candidate.
final class CoreStore: ModularStore {}

/// The asking framework's own candidate, which wins.
final class FeatureStore: ModularStore {}

/// S10's component: prototype, in the feature framework, needing a `ModularStore`.
final class FeatureHandler {
  let store: any ModularStore
  init(store: any ModularStore) { self.store = store }
}

/// S10's imported framework: its own `.perFramework(.single)` `ModularStore`.
enum ModularCoreFramework: DIFramework {
  static func load(container: DIContainer) {
    container.register(CoreStore.init).as((any ModularStore).self)
      .lifetime(.perFramework(.single))
  }
}

/// S10's asking framework: imports the core one, has its own `.perFramework(.single)`
/// `ModularStore` and the prototype `FeatureHandler` that needs one.
enum ModularFeatureFramework: DIFramework {
  static func load(container: DIContainer) {
    container.import(ModularCoreFramework.self)
    container.register(FeatureStore.init).as((any ModularStore).self)
      .lifetime(.perFramework(.single))
    container.register(FeatureHandler.init)
  }
}
