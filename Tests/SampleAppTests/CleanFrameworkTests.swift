import Billing
import DIContainer
import DIFrameworks
import DITestSupport
import Inventory
import Notifications
import OrderModel
import SampleAppCore
import Testing

@Suite struct CleanFrameworkTests {
  let container: DIContainer

  init() async throws {
    container = try await SampleContainer.start()
  }

  /// Cleans Billing, then makes its pool again as the next request would: asynchronously.
  private func cleanBilling() async throws {
    container.clean(framework: BillingFramework.self)
    let _: any BillingService = try await container.resolveAsync()
  }

  private func resources(of framework: any DIFramework.Type) -> [any Resource] {
    manyInFramework(container.resolve(from: framework))
  }

  @Test func cleanFrameworkDropsThatFrameworksPerFrameworkInstancesOnly() async throws {
    let billing = resources(of: BillingFramework.self)
    let inventory = resources(of: InventoryFramework.self)
    let notifications = resources(of: NotificationsFramework.self)

    try await cleanBilling()

    let billingAfter = resources(of: BillingFramework.self)
    #expect(
      billingAfter.map(\.label) == ["PaymentsDatabase#2", "PaymentLedger#2", "CardGateway#1"])
    #expect(billingAfter[0] !== billing[0])
    #expect(billingAfter[1] !== billing[1])
    #expect(billingAfter[2] === billing[2], "perPart: clean(framework:) keeps it")
    #expect(zip(resources(of: InventoryFramework.self), inventory).allSatisfy { $0 === $1 })
    #expect(zip(resources(of: NotificationsFramework.self), notifications).allSatisfy { $0 === $1 })
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func theContainerClosesAndReleasesWhatCleanFrameworkDropped() async throws {
    let tracker: ResourceTracker = try container.tryResolve()
    weak var pool: (any ConnectionPool)?
    weak var ledger: (any AuditLog)?
    do {
      let strong: any ConnectionPool = try container.tryResolve(from: BillingFramework.self)
      let strongLedger: any AuditLog = try container.tryResolve(from: BillingFramework.self)
      pool = strong
      ledger = strongLedger
    }
    #expect(pool != nil)
    container.clean(framework: BillingFramework.self)
    #expect(ledger == nil, "its synchronous hook ran during the clean")
    // The pool's async hook runs on a task of its own, which keeps it until it is closed.
    await tracker.waitUntilClosed("PaymentsDatabase#1")
    #expect(!tracker.isOpen("PaymentsDatabase#1"))
    // The hook's task lets the pool go once it returns: wait for that by the clock (a
    // count of short sleeps runs out early on a loaded machine), within the time limit.
    let deadline = ContinuousClock.now + TestEnvironment.limitDuration(40)
    while pool != nil, ContinuousClock.now < deadline {
      try await Task.sleep(for: .milliseconds(1))
    }
    #expect(pool == nil)
  }

  @Test func notificationsGetsBillingsNewLedgerAfterTheClean() async throws {
    let before: any AuditLog = try container.tryResolve(from: NotificationsFramework.self)
    try await cleanBilling()
    let after: any AuditLog = try container.tryResolve(from: NotificationsFramework.self)
    let billing: any AuditLog = try container.tryResolve(from: BillingFramework.self)
    #expect(after !== before)
    #expect(after === billing)
  }

  @Test func modulesCommandClosesExactlyTheDroppedResources() async {
    let result = await SampleCLI.run(["modules"])
    #expect(result.status == 0)
    #expect(result.output.contains("  closed: PaymentLedger#1, PaymentsDatabase#1\n"))
    #expect(result.output.contains("  opened: PaymentsDatabase#2, PaymentLedger#2\n"))
    #expect(
      result.output.contains(
        "BillingFramework        PaymentsDatabase#1  PaymentsDatabase#2  dropped\n"))
    #expect(
      result.output.contains(
        "BillingFramework        CardGateway#1       CardGateway#1       kept\n"))
    #expect(result.output.contains("NotificationsFramework now gets PaymentLedger#2"))
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func shutdownClosesEveryResourceOnceAwaitingThePools() async throws {
    let tracker: ResourceTracker = try container.tryResolve()
    try await cleanBilling()  // hands PaymentsDatabase#1's async close to a task
    await container.shutdown()
    let closed = tracker.takeEvents().filter { $0.hasPrefix("closed ") }
    #expect(closed.count == 8, "\(closed)")
    #expect(Set(closed).count == closed.count, "each once")
    for label in [
      "PaymentsDatabase#1", "PaymentsDatabase#2", "StockDatabase#1", "PaymentLedger#2",
      "StockLedger#1", "CardGateway#1", "SMTPConnection#1", "PaymentLedger#1",
    ] {
      #expect(!tracker.isOpen(label), "\(label)")
    }
    let error = #expect(throws: DIError.self) {
      let _: any AuditLog = try container.tryResolve(from: BillingFramework.self)
    }
    #expect(error?.code == .containerShutDown)
  }
}
