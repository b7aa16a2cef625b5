/// What ``BillingService/charge(_:subtotal:)`` charged, or tried to.
///
/// ```swift
/// let invoice = billing.charge(order, subtotal: 45_00)
/// print(invoice.total)  // 4860: 8% tax added
/// ```
public struct Invoice: Sendable, Equatable {
  /// The order charged.
  public let orderID: Int
  /// The items' price, in cents.
  public let subtotal: Int
  /// The tax, in cents.
  public let tax: Int
  /// Whether the card was charged (`false`: the gateway declined it).
  public let isPaid: Bool

  /// The subtotal plus tax, in cents.
  ///
  /// ```swift
  /// print(dollars(invoice.total))
  /// ```
  public var total: Int { subtotal + tax }
}
