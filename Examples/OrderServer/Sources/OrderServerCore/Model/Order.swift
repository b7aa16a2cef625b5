public import Hummingbird

/// An order as the API shows it.
public struct Order: ResponseCodable, Sendable, Equatable {
  /// The order's number, from 1.
  public var id: Int
  /// Who ordered.
  public var customer: String
  /// What was ordered.
  public var items: [OrderLine]
  /// The total charged, tax included, in cents (0 when nothing was charged).
  public var total: Int
  /// What became of it.
  public var status: OrderStatus
}

/// What became of an order.
public enum OrderStatus: String, Codable, Sendable {
  /// Charged and reserved.
  case paid
  /// The card was declined; the stock was released.
  case declined
  /// Not enough stock.
  case outOfStock
}
