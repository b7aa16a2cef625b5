import Billing
import DIContainer
import Inventory
import OrderModel
import Testing

@testable import SampleAppCore

@Suite struct OrderRunTests {
  @Test func sameSeedGivesSameOrders() {
    var first = OrderGenerator(seed: 7)
    var second = OrderGenerator(seed: 7)
    var other = OrderGenerator(seed: 8)
    let orders = first.orders(20)
    #expect(orders == second.orders(20))
    #expect(orders != other.orders(20))
    #expect(orders.map(\.id) == Array(1...20))
  }

  @Test(arguments: [1, 10, 13, 42])
  func stockLeftIsStockMinusWhatWasPaidFor(seed: UInt64) async throws {
    let container = try await SampleContainer.start()
    let stock: any StockService = try container.tryResolve()
    let initial = Dictionary(uniqueKeysWithValues: stock.levels.map { ($0.sku, $0.quantity) })
    let pipeline: OrderPipeline = try container.tryResolve()
    var generator = OrderGenerator(seed: seed)
    let outcomes = generator.orders(30).map(pipeline.process)

    var expected = initial
    for outcome in outcomes where outcome.status == .paid {
      for line in outcome.order.lines { expected[line.sku, default: 0] -= line.quantity }
    }
    let left = Dictionary(uniqueKeysWithValues: stock.levels.map { ($0.sku, $0.quantity) })
    #expect(left == expected)
    #expect(left.values.allSatisfy { $0 >= 0 })
  }

  @Test func invoicesAddEightPercentTaxAndDeclineOverTheLimit() async throws {
    let container = try await SampleContainer.start()
    let billing: any BillingService = try container.tryResolve()
    let order = Order(id: 1, customer: "ada", lines: [OrderLine(sku: "tee", quantity: 2)])
    let small = billing.charge(order, subtotal: 50_00)
    let large = billing.charge(order, subtotal: 120_00)
    #expect(small.tax == 4_00)
    #expect(small.total == 54_00)
    #expect(small.isPaid)
    #expect(!large.isPaid)
  }

  @Test func runPrintsTheSameSummaryEveryTime() async {
    let result = await SampleCLI.run(["run"])
    #expect(result.status == 0)
    #expect(result == (await SampleCLI.run(["run", "--orders", "5", "--seed", "10"])))
    #expect(result.output.contains("paid 2 ($138.24), card declined 1, no stock 2\n"))
    #expect(
      result.output.contains("  PaymentLedger#1: 8 entries, from Billing 3, Notifications 5\n"))
  }

  @Test func runShutsDownClosingEveryResourceNewestFirstAwaitingThePools() async {
    let result = await SampleCLI.run(["run"])
    #expect(
      result.output.hasSuffix(
        "await container.shutdown(): closed SMTPConnection#1, CardGateway#1, PaymentLedger#1,"
          + " PaymentsDatabase#1, StockLedger#1, StockDatabase#1\n"))
  }

  @Test func aSynchronousRequestForAPoolNotConnectedYetSaysToResolveItAsynchronously() {
    let container = SampleContainer.make()
    let error = #expect(throws: DIError.self) {
      let _: any StockService = try container.tryResolve()
    }
    #expect(error?.code == .asyncFactory)
    #expect(error?.path.map(\.requested) == ["StockService", "ConnectionPool"])
  }
}
