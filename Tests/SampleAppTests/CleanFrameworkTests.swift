import Billing
import DIContainer
import DIFrameworks
import Inventory
import Notifications
import OrderModel
import SampleAppCore
import Testing

@Suite struct CleanFrameworkTests {
  let container = SampleContainer.make()

  private func resources(of framework: any DIFramework.Type) -> [any Resource] {
    manyInFramework(container.resolve(from: framework))
  }

  @Test func cleanFrameworkDropsThatFrameworksPerFrameworkInstancesOnly() {
    let billing = resources(of: BillingFramework.self)
    let inventory = resources(of: InventoryFramework.self)
    let notifications = resources(of: NotificationsFramework.self)

    container.clean(framework: BillingFramework.self)

    let billingAfter = resources(of: BillingFramework.self)
    #expect(
      billingAfter.map(\.label) == ["PaymentsDatabase#2", "PaymentLedger#2", "CardGateway#1"])
    #expect(billingAfter[0] !== billing[0])
    #expect(billingAfter[1] !== billing[1])
    #expect(billingAfter[2] === billing[2], "perPart: clean(framework:) keeps it")
    #expect(zip(resources(of: InventoryFramework.self), inventory).allSatisfy { $0 === $1 })
    #expect(zip(resources(of: NotificationsFramework.self), notifications).allSatisfy { $0 === $1 })
  }

  @Test func theContainerReleasesWhatCleanFrameworkDropped() {
    weak var pool: (any ConnectionPool)?
    do {
      let strong: any ConnectionPool = container.resolve(from: BillingFramework.self)
      pool = strong
    }
    #expect(pool != nil)
    container.clean(framework: BillingFramework.self)
    #expect(pool == nil)
  }

  @Test func notificationsGetsBillingsNewLedgerAfterTheClean() {
    let before: any AuditLog = container.resolve(from: NotificationsFramework.self)
    container.clean(framework: BillingFramework.self)
    let after: any AuditLog = container.resolve(from: NotificationsFramework.self)
    let billing: any AuditLog = container.resolve(from: BillingFramework.self)
    #expect(after !== before)
    #expect(after === billing)
  }

  @Test func modulesCommandClosesExactlyTheDroppedResources() {
    let result = SampleCLI.run(["modules"])
    #expect(result.status == 0)
    #expect(result.output.contains("  closed: PaymentsDatabase#1, PaymentLedger#1\n"))
    #expect(result.output.contains("  opened: PaymentsDatabase#2, PaymentLedger#2\n"))
    #expect(
      result.output.contains(
        "BillingFramework        PaymentsDatabase#1  PaymentsDatabase#2  dropped\n"))
    #expect(
      result.output.contains(
        "BillingFramework        CardGateway#1       CardGateway#1       kept\n"))
    #expect(result.output.contains("NotificationsFramework now gets PaymentLedger#2"))
  }
}
