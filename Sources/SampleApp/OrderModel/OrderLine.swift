/// One product of an order and how many of it.
///
/// ```swift
/// let line = OrderLine(sku: "mug", quantity: 2)
/// ```
public struct OrderLine: Sendable, Equatable {
  /// The product's stock-keeping unit, such as `"mug"`.
  public let sku: String
  /// How many were ordered, at least 1.
  public let quantity: Int

  /// Makes an order line.
  ///
  /// - Parameters:
  ///   - sku: The product.
  ///   - quantity: How many.
  ///
  /// ```swift
  /// let line = OrderLine(sku: "tee", quantity: 1)
  /// ```
  public init(sku: String, quantity: Int) {
    self.sku = sku
    self.quantity = quantity
  }
}
