internal import OrderModel

/// A way to reach a customer; Notifications collects its own with `manyInFramework`.
protocol Channel: AnyObject, Sendable {
  /// The channel's name in summaries: `email`, `sms`.
  var name: String { get }

  /// Sends `message` if the channel serves orders of this total; returns whether it did.
  func send(_ message: String, to customer: String, total: Int) -> Bool
}
