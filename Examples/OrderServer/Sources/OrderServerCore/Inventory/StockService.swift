/// Stock levels: what Inventory offers the other frameworks.
public protocol StockService: AnyObject, Sendable {
  /// Every product with its price and how many are left, by SKU.
  ///
  /// - Returns: The stock.
  /// - Throws: The database's error.
  func list() async throws -> [StockItem]
  /// Takes the order's quantities out of stock, all or nothing.
  ///
  /// - Parameter items: The order's lines.
  /// - Returns: The subtotal in cents, or `nil` when some product is short (nothing taken).
  /// - Throws: The database's error.
  func reserve(_ items: [OrderLine]) async throws -> Int?
  /// Puts the order's quantities back.
  ///
  /// - Parameter items: The lines of a reserved order.
  /// - Throws: The database's error.
  func release(_ items: [OrderLine]) async throws
}
