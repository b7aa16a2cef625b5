internal import OrderModel
import Synchronization

/// Inventory's connection pool (simulated: it counts statements).
final class StockDatabase: ConnectionPool {
  let label: String
  private let tracker: ResourceTracker
  private let statements = Atomic(0)

  init(tracker: ResourceTracker) {
    self.tracker = tracker
    label = tracker.open("StockDatabase")
  }

  func execute(_ statement: String) {
    statements.add(1, ordering: .relaxed)
  }

  var statementCount: Int { statements.load(ordering: .relaxed) }

  func close() { tracker.close(label) }
}
