/// One line of an order: a quantity of one product.
public struct OrderLine: Codable, Sendable, Equatable {
  /// The product's stock-keeping unit.
  public var sku: String
  /// How many.
  public var quantity: Int

  /// Makes a line.
  ///
  /// - Parameters:
  ///   - sku: The product.
  ///   - quantity: How many.
  public init(sku: String, quantity: Int) {
    self.sku = sku
    self.quantity = quantity
  }
}
