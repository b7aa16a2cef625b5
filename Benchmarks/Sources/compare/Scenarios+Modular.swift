import DIContainer
import DIFrameworks
import Swinject

extension Scenarios {
  /// S10: modular resolve. A prototype component of a framework that imports another asks
  /// for a `.perFramework(.single)` service with a candidate in each; the asking framework's
  /// own wins. Resolved with `resolve(from:)`, as if the framework asked.
  ///
  /// Hand-written: the component made with a lazily made shared store (`LazyShared`).
  /// Swinject has no frameworks: its nearest form is one container with the store
  /// `.container`-scoped and the handler transient.
  static let s10 = Scenario(
    id: "S10",
    title: "modular resolve: a .perFramework(.single) service from an importing framework",
    goal: nil
  ) {
    switch $0 {
    case .handWritten:
      Workload {
        let store = LazyShared { FeatureStore() }
        sink(store.value)
        return { count in for _ in 0..<count { sink(FeatureHandler(store: store.value)) } }
      }
    case .diContainer:
      Workload {
        let container = makeModularContainer()
        sink(container.resolve(from: ModularFeatureFramework.self) as FeatureHandler)
        return { count in
          for _ in 0..<count {
            sink(container.resolve(from: ModularFeatureFramework.self) as FeatureHandler)
          }
        }
      }
    case .swinject:
      Workload {
        let container = makeSwinjectModularContainer()
        sink(container.resolve(FeatureHandler.self)!)
        return { count in for _ in 0..<count { sink(container.resolve(FeatureHandler.self)!) } }
      }
    }
  }

  /// S10's container: the feature framework appended (it imports the core one).
  static func makeModularContainer() -> DIContainer {
    let container = DIContainer()
    container.append(framework: ModularFeatureFramework.self)
    return container
  }

  /// S10's nearest form in Swinject, which has no frameworks.
  static func makeSwinjectModularContainer() -> Container {
    let container = Container()
    container.register((any ModularStore).self) { _ in FeatureStore() }.inObjectScope(.container)
    container.register(FeatureHandler.self) { r in
      FeatureHandler(store: r.resolve((any ModularStore).self)!)
    }.inObjectScope(.transient)
    return container
  }
}
