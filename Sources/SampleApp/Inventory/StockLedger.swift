internal import OrderModel

/// Inventory's audit log: stock movements.
final class StockLedger: AuditLog {
  let label: String
  private let tracker: ResourceTracker
  private let lines = LockedState<[String]>([])

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
