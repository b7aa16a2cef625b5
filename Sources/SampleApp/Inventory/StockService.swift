public import OrderModel

/// Reserves and releases stock; what Inventory offers the other frameworks.
///
/// ```swift
/// let stock: any StockService = container.resolve()
/// if case .reserved(let subtotal) = stock.reserve(order) { print(dollars(subtotal)) }
/// ```
public protocol StockService: AnyObject, Sendable {
  /// Takes the order's items out of stock if every line can be served.
  ///
  /// - Parameter order: The order.
  /// - Returns: The subtotal of the reserved items, or the first product short of stock
  ///   (nothing is reserved then).
  ///
  /// ```swift
  /// let reservation = stock.reserve(order)
  /// ```
  func reserve(_ order: Order) -> Reservation

  /// Puts a reserved order's items back in stock.
  ///
  /// - Parameter order: An order ``reserve(_:)`` reserved.
  ///
  /// ```swift
  /// stock.release(order)  // the payment was declined
  /// ```
  func release(_ order: Order)

  /// The quantity in stock of every product, by product name.
  ///
  /// ```swift
  /// for (sku, quantity) in stock.levels { print(sku, quantity) }
  /// ```
  var levels: [(sku: String, quantity: Int)] { get }
}
