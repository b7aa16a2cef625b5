public import OrderModel

/// Tells customers about their orders; what Notifications offers the application.
///
/// ```swift
/// let notifications: any NotificationService = container.resolve()
/// let channels = notifications.notify(order, message: "paid", total: 48_60)  // ["email"]
/// ```
public protocol NotificationService: AnyObject, Sendable {
  /// Sends `message` about `order` on every channel that serves it.
  ///
  /// - Parameters:
  ///   - order: The order.
  ///   - message: What to tell the customer, such as `"paid"`.
  ///   - total: The order's total, in cents (0 when it was not charged).
  /// - Returns: The names of the channels used, such as `["email", "sms"]`.
  ///
  /// ```swift
  /// let channels = notifications.notify(order, message: "out of stock", total: 0)
  /// ```
  func notify(_ order: Order, message: String, total: Int) -> [String]
}
