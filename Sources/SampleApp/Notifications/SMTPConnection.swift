internal import OrderModel
import Synchronization

/// The connection to the mail relay (simulated: it counts messages).
final class SMTPConnection: Resource {
  let label: String
  private let tracker: ResourceTracker
  private let sent = Atomic(0)

  init(tracker: ResourceTracker) {
    self.tracker = tracker
    label = tracker.open("SMTPConnection")
  }

  func send(to recipient: String) {
    sent.add(1, ordering: .relaxed)
  }

  func close() { tracker.close(label) }
}
