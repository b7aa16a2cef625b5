/// A customer's order, as the sample's frameworks pass it along.
///
/// ```swift
/// let order = Order(id: 1, customer: "ada", lines: [OrderLine(sku: "mug", quantity: 2)])
/// ```
public struct Order: Sendable, Equatable {
  /// The order number, from 1.
  public let id: Int
  /// Who placed the order.
  public let customer: String
  /// What was ordered; one line per product.
  public let lines: [OrderLine]

  /// Makes an order.
  ///
  /// - Parameters:
  ///   - id: The order number.
  ///   - customer: Who placed it.
  ///   - lines: What was ordered.
  ///
  /// ```swift
  /// let order = Order(id: 1, customer: "ada", lines: [OrderLine(sku: "mug", quantity: 2)])
  /// ```
  public init(id: Int, customer: String, lines: [OrderLine]) {
    self.id = id
    self.customer = customer
    self.lines = lines
  }

  /// How many items the order holds, over every line.
  ///
  /// ```swift
  /// print(order.itemCount)  // 2
  /// ```
  public var itemCount: Int { lines.reduce(0) { $0 + $1.quantity } }
}
