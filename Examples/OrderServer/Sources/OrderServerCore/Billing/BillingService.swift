/// Charges orders: what Billing offers the other frameworks.
public protocol BillingService: AnyObject, Sendable {
  /// Adds tax and charges the customer's card; a declined charge releases the stock.
  ///
  /// - Parameters:
  ///   - items: The reserved lines.
  ///   - subtotal: Their price, in cents.
  /// - Returns: The total charged, tax included, or `nil` when the card was declined.
  /// - Throws: The database's error while the stock is released.
  func charge(_ items: [OrderLine], subtotal: Int) async throws -> Int?
}
