import Billing
import DIContainer
import DIFrameworks
import Inventory
import Notifications
import OrderModel
import SampleAppCore
import Testing

@Suite struct ModularityTests {
  let container: DIContainer

  init() async throws {
    container = try await SampleContainer.start()
  }

  private func name(_ value: Any) -> String { String(describing: type(of: value)) }

  @Test func eachFrameworkWithItsOwnAuditLogGetsItsOwn() {
    let inventory: any AuditLog = container.resolve(from: InventoryFramework.self)
    let billing: any AuditLog = container.resolve(from: BillingFramework.self)
    #expect(name(inventory) == "StockLedger")
    #expect(name(billing) == "PaymentLedger")
  }

  @Test func eachFrameworkWithItsOwnConnectionPoolGetsItsOwn() {
    let inventory: any ConnectionPool = container.resolve(from: InventoryFramework.self)
    let billing: any ConnectionPool = container.resolve(from: BillingFramework.self)
    #expect(name(inventory) == "StockDatabase")
    #expect(name(billing) == "PaymentsDatabase")
  }

  @Test func notificationsFallsBackOnBillingsAuditLogThroughItsImport() {
    let notifications: any AuditLog = container.resolve(from: NotificationsFramework.self)
    let billing: any AuditLog = container.resolve(from: BillingFramework.self)
    #expect(notifications === billing)
  }

  @Test func notifierWritesIntoBillingsLedger() {
    let service: any NotificationService = container.resolve()
    let order = Order(id: 7, customer: "ada", lines: [OrderLine(sku: "mug", quantity: 1)])
    #expect(service.notify(order, message: "paid", total: 12_96) == ["email"])
    let billing: any AuditLog = container.resolve(from: BillingFramework.self)
    let inventory: any AuditLog = container.resolve(from: InventoryFramework.self)
    #expect(billing.entries == ["Notifications: told ada #7 paid by email"])
    #expect(inventory.entries.isEmpty)
  }

  @Test func askingOutsideEveryFrameworkIsAmbiguous() {
    let log: (any AuditLog)? = container.resolve()
    #expect(log == nil)
  }

  @Test func manyCollectsEveryFrameworksAuditLog() {
    let logs: [any AuditLog] = many(container.resolve())
    #expect(logs.map(name) == ["StockLedger", "PaymentLedger"])
  }

  @Test func manyInFrameworkListsOnlyTheFrameworksOwnResources() {
    let billing: [any Resource] = manyInFramework(container.resolve(from: BillingFramework.self))
    let notifications: [any Resource] = manyInFramework(
      container.resolve(from: NotificationsFramework.self))
    #expect(billing.map(\.label) == ["PaymentsDatabase#1", "PaymentLedger#1", "CardGateway#1"])
    #expect(notifications.map(\.label) == ["SMTPConnection#1"])
  }

  @Test func appendingNotificationsAloneLoadsTheFrameworksItImports() async throws {
    let container = DIContainer()
    container.register(ResourceTracker.init).lifetime(.perContainer(.single))
    container.append(framework: NotificationsFramework.self)
    let stock: (any StockService)? = try await container.resolveAsync()
    let billing: (any BillingService)? = try await container.resolveAsync()
    #expect(stock != nil)
    #expect(billing != nil)
  }
}
