internal import OrderModel
import Synchronization

/// Inventory's connection pool (simulated: it counts statements).
final class StockDatabase: ConnectionPool {
  let label: String
  private let tracker: ResourceTracker
  private let statements = Atomic(0)

  /// Connects: a real pool opens its connections over the network, so it is made by an
  /// async factory (a tiny delay stands in for the round trips).
  init(tracker: ResourceTracker) async throws {
    try await Task.sleep(for: .milliseconds(1))
    self.tracker = tracker
    label = tracker.open("StockDatabase")
  }

  func execute(_ statement: String) {
    statements.add(1, ordering: .relaxed)
  }

  var statementCount: Int { statements.load(ordering: .relaxed) }

  /// Closes the connections, waiting for the server to acknowledge it.
  func close() async {
    try? await Task.sleep(for: .milliseconds(1))
    tracker.close(label)
  }
}
