import DIContainer
import DIFrameworks
import DIParts
import Testing

// A container's default lifetime, clean(_:) of a service and description, with frameworks
// and parts registering into the container.

private final class FDStore {}
private final class FDInvoicer {
  let store: FDStore
  init(store: FDStore) { self.store = store }
}
private final class FDAudit {}

private enum FDStoragePart: DIPart {
  static func load(container: DIContainer) {
    container.register(file: "Billing/Storage.swift", line: 3, FDStore.init)
  }
}

private enum FDBillingFramework: DIFramework {
  static func load(container: DIContainer) {
    container.append(part: FDStoragePart.self)
    container.register(file: "Billing/Billing.swift", line: 7, FDInvoicer.init)
    container.register(file: "Billing/Billing.swift", line: 8, FDAudit.init)
      .lifetime(.perFramework(.single))
  }
}

@Suite struct FrameworkDefaultsAndInspectionTests {
  @Test func frameworksAndPartsRegisterWithTheContainersDefault() {
    let container = DIContainer(defaultLifetime: .perContainer(.single))
      .append(framework: FDBillingFramework.self)
    let first: FDInvoicer = container.resolve()
    let second: FDInvoicer = container.resolve()
    #expect(first === second)
    #expect(first.store === (container.resolve() as FDStore))
    let lifetimes = container.makeGraph().components.map { "\($0.lifetime)" }
    #expect(
      lifetimes == ["perContainer(.single)", "perContainer(.single)", "perFramework(.single)"])
  }

  @Test func aFrameworkAppendedToAChildUsesTheChildsDefault() {
    let parent = DIContainer(defaultLifetime: .perContainer(.single))
    let child = DIContainer(parent: parent, defaultLifetime: .prototype)
      .append(framework: FDBillingFramework.self)
    let first: FDInvoicer = child.resolve()
    let second: FDInvoicer = child.resolve()
    #expect(first !== second)
  }

  @Test func cleanOfAServiceDropsAFrameworksInstanceOnly() {
    let container = DIContainer(defaultLifetime: .perFramework(.single))
      .append(framework: FDBillingFramework.self)
    let invoicer: FDInvoicer = container.resolve()
    let audit: FDAudit = container.resolve()
    container.clean(FDInvoicer.self)
    let newInvoicer: FDInvoicer = container.resolve()
    #expect(newInvoicer !== invoicer)
    #expect(newInvoicer.store === invoicer.store, "the part's Store stays")
    #expect((container.resolve() as FDAudit) === audit)
  }

  @Test func theDescriptionNamesTheFrameworkAndPartOfEachRegistration() {
    let container = DIContainer().append(framework: FDBillingFramework.self)
    let made = container.description.split(separator: "\n").dropFirst().map(String.init)
    #expect(
      made == [
        "  FDStore: services FDStore; lifetime prototype; framework FDBillingFramework;"
          + " part FDStoragePart; Billing/Storage.swift:3",
        "  FDInvoicer: services FDInvoicer; lifetime prototype; framework FDBillingFramework;"
          + " Billing/Billing.swift:7",
        "  FDAudit: services FDAudit; lifetime perFramework(.single);"
          + " framework FDBillingFramework; Billing/Billing.swift:8",
      ])
  }
}
