import Hummingbird

/// The body of `POST /orders`.
public struct NewOrder: Codable, Sendable {
  /// The most of one product a line may ask for.
  public static let maximumQuantity = 10_000
  /// The most lines an order may have.
  public static let maximumLines = 100

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

  /// Checks what JSON decoding cannot: a customer, one to ``maximumLines`` lines, each with
  /// a product and a quantity from 1 to ``maximumQuantity``.
  ///
  /// - Throws: `HTTPError(.badRequest)` saying what is wrong.
  public func validate() throws {
    func reject(_ reason: String) -> HTTPError { HTTPError(.badRequest, message: reason) }
    if customer.isEmpty { throw reject("customer: must not be empty") }
    if items.isEmpty { throw reject("items: an order needs at least one line") }
    if items.count > Self.maximumLines {
      throw reject("items: at most \(Self.maximumLines) lines, not \(items.count)")
    }
    for (index, line) in items.enumerated() {
      if line.sku.isEmpty { throw reject("items[\(index)].sku: must not be empty") }
      if !(1...Self.maximumQuantity).contains(line.quantity) {
        throw reject(
          "items[\(index)].quantity: must be 1 to \(Self.maximumQuantity), not \(line.quantity)")
      }
    }
  }
}
