public import Hummingbird

/// A product and how many are left, as `GET /stock` shows it.
public struct StockItem: ResponseCodable, Sendable, Equatable {
  /// The product's stock-keeping unit.
  public var sku: String
  /// Its price, in cents.
  public var price: Int
  /// How many are left.
  public var available: Int
}
