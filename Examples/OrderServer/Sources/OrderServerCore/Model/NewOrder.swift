/// The body of `POST /orders`.
public struct NewOrder: Codable, Sendable {
  /// Who orders.
  public var customer: String
  /// What they order.
  public var items: [OrderLine]

  /// Makes a request body.
  ///
  /// - Parameters:
  ///   - customer: Who orders.
  ///   - items: What they order.
  public init(customer: String, items: [OrderLine]) {
    self.customer = customer
    self.items = items
  }
}
