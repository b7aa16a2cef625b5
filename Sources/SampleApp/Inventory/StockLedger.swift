internal import OrderModel
import Synchronization

/// Inventory's audit log: stock movements.
final class StockLedger: AuditLog {
  let label: String
  private let tracker: ResourceTracker
  private let lines = Mutex<[String]>([])

  init(tracker: ResourceTracker) {
    self.tracker = tracker
    label = tracker.open("StockLedger")
  }

  func record(_ entry: String) {
    lines.withLock { $0.append(entry) }
  }

  var entries: [String] { lines.withLock { $0 } }

  func close() { tracker.close(label) }
}
