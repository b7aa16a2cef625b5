import DIContainer
import DIFrameworks
import DIParts
import Synchronization
import Testing

/// SPEC.md, "Parts and frameworks": the snippet verbatim (its declarations nested here, its
/// statements in a test), and every rule of the list below it.
@Suite struct PartsAndFrameworksSpecTests {
  protocol Store: AnyObject {}
  final class FileStore: Store {}
  final class Invoicer {}
  protocol Logger: AnyObject {}
  final class CoreLogger: Logger {}

  enum CoreFramework: DIFramework {
    static func load(container: DIContainer) {
      container.register(CoreLogger.init).as(Logger.self)
    }
  }

  final class StoragePart: DIPart {
    static func load(container: DIContainer) {
      container.register(FileStore.init).as(Store.self).lifetime(.perPart(.single))
    }
  }
  final class BillingFramework: DIFramework {
    static func load(container: DIContainer) {
      container.import(CoreFramework.self)  // may use Core's components, one level deep
      container.append(part: StoragePart.self)
      container.register(Invoicer.init).lifetime(.perFramework(.single))
    }
  }

  @Test func theSnippetRunsAsWritten() throws {
    let container = DIContainer()
    weak var weakStore: Store?
    weak var weakInvoicer: Invoicer?
    do {
      container.append(framework: BillingFramework.self)
      let store: Store = container.resolve(from: BillingFramework.self)
      let invoicer: Invoicer = container.resolve(from: BillingFramework.self)
      let storeAgain: Store = container.resolve()
      #expect(store === storeAgain)
      weakStore = store
      weakInvoicer = invoicer
    }
    #expect(weakStore != nil && weakInvoicer != nil)
    // drops BillingFramework's .perFramework instances
    container.clean(framework: BillingFramework.self)
    #expect(weakInvoicer == nil)
    #expect(weakStore != nil, "clean(framework:) drops .perFramework instances only")
    container.clean(part: StoragePart.self)  // drops StoragePart's .perPart instances
    #expect(weakStore == nil)

    let graph = container.makeGraph()
    let store = try #require(graph.components.first { $0.type == FileStore.self })
    #expect(store.framework == "BillingFramework", "the innermost framework that loaded it")
    #expect(store.part == "StoragePart", "and the innermost part")
    let invoicer = try #require(graph.components.first { $0.type == Invoicer.self })
    #expect(invoicer.framework == "BillingFramework")
    #expect(invoicer.part == nil)
    let logger = try #require(graph.components.first { $0.type == CoreLogger.self })
    #expect(logger.framework == "CoreFramework")
  }

  // MARK: - Loading once

  static let loads = Mutex<[String: Int]>([:])

  static func loaded(_ name: String) {
    loads.withLock { $0[name, default: 0] += 1 }
  }

  static func loadCount(_ name: String) -> Int {
    loads.withLock { $0[name, default: 0] }
  }

  enum CountedPart: DIPart {
    static func load(container: DIContainer) {
      PartsAndFrameworksSpecTests.loaded("CountedPart")
    }
  }

  enum CountedFramework: DIFramework {
    static func load(container: DIContainer) {
      PartsAndFrameworksSpecTests.loaded("CountedFramework")
      container.append(part: CountedPart.self)
    }
  }

  @Test func aPartOrFrameworkAppendedTwiceToOneContainerLoadsOnce() {
    let container = DIContainer()
    let framesBefore = Self.loadCount("CountedFramework")
    let partsBefore = Self.loadCount("CountedPart")
    container.append(framework: CountedFramework.self)
    container.append(framework: CountedFramework.self)
    container.append(part: CountedPart.self)
    #expect(Self.loadCount("CountedFramework") == framesBefore + 1)
    #expect(Self.loadCount("CountedPart") == partsBefore + 1)
  }

  // MARK: - Modularity

  protocol Gateway: AnyObject {}
  final class OwnGateway: Gateway {}
  final class ImportedGateway: Gateway {}
  final class OtherGateway: Gateway {}
  final class BaseGateway: Gateway {}

  final class Checkout {
    let gateway: Gateway
    init(gateway: Gateway) { self.gateway = gateway }
  }

  enum PaymentsFramework: DIFramework {
    static func load(container: DIContainer) {
      container.register(ImportedGateway.init).as(Gateway.self)
    }
  }

  enum OtherFramework: DIFramework {
    static func load(container: DIContainer) {
      container.register(OtherGateway.init).as(Gateway.self)
    }
  }

  enum ShopFramework: DIFramework {
    static func load(container: DIContainer) {
      container.import(PaymentsFramework.self)
      container.register(OwnGateway.init).as(Gateway.self)
      container.register(Checkout.init)
    }
  }

  enum CashierFramework: DIFramework {
    static func load(container: DIContainer) {
      container.import(PaymentsFramework.self)
      container.register(Checkout.init)
    }
  }

  @Test func aFrameworksOwnCandidateWinsThenTheOneOfAFrameworkItImports() {
    let container = DIContainer()
    container.append(framework: OtherFramework.self)
    container.append(framework: ShopFramework.self)
    container.append(framework: CashierFramework.self)

    let fromShop: Gateway = container.resolve(from: ShopFramework.self)
    #expect(fromShop is OwnGateway)
    let fromCashier: Gateway = container.resolve(from: CashierFramework.self)
    #expect(fromCashier is ImportedGateway)

    let checkouts: [Checkout] = many(container.resolve())
    #expect(checkouts.count == 2)
    #expect(checkouts.contains { $0.gateway is OwnGateway }, "Shop's Checkout got Shop's own")
    #expect(
      checkouts.contains { $0.gateway is ImportedGateway }, "Cashier's got its import's")

    let fromOutside: Gateway? = container.resolve()
    #expect(fromOutside == nil, "outside every framework the three are ambiguous")
  }

  enum BaseFramework: DIFramework {
    static func load(container: DIContainer) {
      container.register(BaseGateway.init).as(Gateway.self)
    }
  }

  enum MiddleFramework: DIFramework {
    static func load(container: DIContainer) {
      container.import(BaseFramework.self)
    }
  }

  enum TopFramework: DIFramework {
    static func load(container: DIContainer) {
      container.import(MiddleFramework.self)
    }
  }

  @Test func importIsOneLevelDeep() {
    let container = DIContainer()
    container.append(framework: TopFramework.self)
    container.append(framework: OtherFramework.self)
    let fromMiddle: Gateway = container.resolve(from: MiddleFramework.self)
    #expect(fromMiddle is BaseGateway)
    let error = #expect(throws: DIError.self) {
      let _: Gateway = try container.tryResolve(from: TopFramework.self)
    }
    if case .ambiguous = error?.reason {
    } else {
      Issue.record(
        "Top does not import Base: expected .ambiguous, got \(String(describing: error))")
    }
  }

  final class Registry {
    let all: [Gateway]
    let own: [Gateway]
    init(all: [Gateway], own: [Gateway]) {
      self.all = all
      self.own = own
    }
  }

  enum RegistryFramework: DIFramework {
    static func load(container: DIContainer) {
      container.import(PaymentsFramework.self)
      container.register(OwnGateway.init).as(Gateway.self)
      container.register { Registry(all: many($0), own: manyInFramework($1)) }
    }
  }

  @Test func manyCollectsAcrossFrameworksManyInFrameworkOnlyWithinTheRequesters() {
    let container = DIContainer()
    container.append(framework: OtherFramework.self)
    container.append(framework: RegistryFramework.self)
    let registry: Registry = container.resolve()
    #expect(registry.all.count == 3)
    #expect(registry.own.count == 1)
    #expect(registry.own.first is OwnGateway)
  }
}
