internal import OrderModel

/// The client of the card processor (simulated: it declines charges over its limit).
final class CardGateway: Resource {
  /// The largest charge the processor accepts, in cents.
  static let limit = 120_00

  let label: String
  private let tracker: ResourceTracker

  init(tracker: ResourceTracker) {
    self.tracker = tracker
    label = tracker.open("CardGateway")
  }

  func authorize(_ amount: Int) -> Bool {
    amount <= Self.limit
  }

  func close() { tracker.close(label) }
}
