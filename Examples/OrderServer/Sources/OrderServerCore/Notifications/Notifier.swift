/// Tells customers what became of their orders: what Notifications offers.
public protocol Notifier: AnyObject, Sendable {
  /// Queues the message for an order.
  ///
  /// - Parameter order: The order, paid, declined or out of stock.
  func notify(_ order: Order)
}
