/// Charges through the card processor (simulated: it declines totals over $200) and records
/// the invoice in Billing's own database.
final class Invoicer: BillingService {
  /// The sales tax, in percent.
  static let taxRate = 8
  /// The largest total the processor accepts, in cents.
  static let limit = 200_00

  private let pool: ConnectionPool
  private let stock: any StockService

  init(pool: ConnectionPool, stock: any StockService) {
    self.pool = pool
    self.stock = stock
  }

  func charge(_ items: [OrderLine], subtotal: Int) async throws -> Int? {
    let total = subtotal + (subtotal * Self.taxRate + 50) / 100
    pool.execute("INSERT INTO invoices VALUES (?, ?)")
    guard total <= Self.limit else {
      try await stock.release(items)
      return nil
    }
    return total
  }
}
