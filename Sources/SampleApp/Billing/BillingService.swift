public import OrderModel

/// Charges orders; what Billing offers the other frameworks.
///
/// ```swift
/// let billing: any BillingService = container.resolve()
/// let invoice = billing.charge(order, subtotal: 45_00)
/// ```
public protocol BillingService: AnyObject, Sendable {
  /// Adds tax and charges the customer's card; a declined charge releases the stock.
  ///
  /// - Parameters:
  ///   - order: A reserved order.
  ///   - subtotal: The reserved items' price, in cents.
  /// - Returns: The invoice, paid or declined.
  ///
  /// ```swift
  /// let invoice = billing.charge(order, subtotal: 45_00)
  /// print(invoice.isPaid, dollars(invoice.total))
  /// ```
  func charge(_ order: Order, subtotal: Int) -> Invoice
}
