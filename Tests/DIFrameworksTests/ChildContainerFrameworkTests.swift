import DIContainer
import DIFrameworks
import Testing

// Frameworks appended to a child container.

private protocol Gateway: AnyObject {}
private final class LiveGateway: Gateway {}
private final class FakeGateway: Gateway {}
private final class Checkout {
  let gateway: Gateway
  init(gateway: Gateway) { self.gateway = gateway }
}

private enum PaymentsFramework: DIFramework {
  static func load(container: DIContainer) {
    container.register(LiveGateway.init).as(Gateway.self).lifetime(.perFramework(.single))
  }
}

private enum FakePaymentsFramework: DIFramework {
  static func load(container: DIContainer) {
    container.register(FakeGateway.init).as(Gateway.self).lifetime(.perFramework(.single))
  }
}

private enum ShopFramework: DIFramework {
  static func load(container: DIContainer) {
    container.import(PaymentsFramework.self)
    container.register(Checkout.init)
  }
}

@Suite struct ChildContainerFrameworkTests {
  @Test func aFrameworkAppendedToAChildOverridesTheParentsForTheChildOnly() {
    let parent = DIContainer().append(framework: ShopFramework.self)
    let child = DIContainer(parent: parent).append(framework: FakePaymentsFramework.self)
    let checkout: Checkout = child.resolve()
    #expect(checkout.gateway is FakeGateway, "the parent's Checkout is a prototype: made here")
    let parentCheckout: Checkout = parent.resolve()
    #expect(parentCheckout.gateway is LiveGateway)
  }

  @Test func cleaningAFrameworkOfTheChildLeavesTheParentsInstances() {
    let parent = DIContainer().append(framework: PaymentsFramework.self)
    let child = DIContainer(parent: parent).append(framework: FakePaymentsFramework.self)
    let live: Gateway = parent.resolve()
    let fake: Gateway = child.resolve()
    child.clean(framework: FakePaymentsFramework.self)
    #expect(fake !== child.resolve() as Gateway)
    #expect(live === parent.resolve() as Gateway)
  }

  @Test func aChildValidatesWithItsParentsFrameworks() throws {
    let parent = DIContainer().append(framework: ShopFramework.self)
    let child = DIContainer(parent: parent)
    child.register { Checkout(gateway: $0) }.root()
    try child.makeGraph().validate()
  }
}

private final class AsyncStore: Sendable {
  init() async {}
}

private enum AsyncStoreFramework: DIFramework {
  static func load(container: DIContainer) {
    container.register(AsyncStore.init).lifetime(.perFramework(.single))
  }
}

@Suite struct ResolveAsyncFromTests {
  @Test func resolveAsyncFromAFrameworkAwaitsItsAsyncComponents() async throws {
    let container = DIContainer().append(framework: AsyncStoreFramework.self)
    let store: AsyncStore = try await container.resolveAsync(from: AsyncStoreFramework.self)
    #expect(store === (try container.tryResolve(from: AsyncStoreFramework.self) as AsyncStore))
  }
}
