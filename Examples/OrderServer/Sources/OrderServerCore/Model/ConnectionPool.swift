import Synchronization

/// A database connection pool (simulated): it connects asynchronously and closes with
/// `await`, and reports both to the ``ResourceTracker``.
public final class ConnectionPool: Sendable {
  /// The pool's name, such as `inventory-db`.
  public let name: String
  private let tracker: ResourceTracker
  private let isClosed = Atomic(false)
  private let queries = Atomic(0)

  private init(name: String, tracker: ResourceTracker) {
    self.name = name
    self.tracker = tracker
  }

  /// Connects a pool.
  ///
  /// - Parameters:
  ///   - name: The pool's name.
  ///   - tracker: Where the pool reports connecting and closing.
  /// - Returns: The connected pool.
  public static func connect(_ name: String, tracker: ResourceTracker) async throws
    -> ConnectionPool
  {
    try await Task.sleep(for: .milliseconds(5))  // the handshake
    tracker.opened(name)
    return ConnectionPool(name: name, tracker: tracker)
  }

  /// Runs a statement (counts it).
  ///
  /// - Parameter statement: The SQL.
  public func execute(_ statement: String) {
    if isClosed.load(ordering: .relaxed) { tracker.problem("\(name): query after close") }
    queries.add(1, ordering: .relaxed)
  }

  /// Closes the pool's connections; a second call is a problem the tracker notes.
  public func close() async {
    await Task.yield()  // the goodbye
    if isClosed.exchange(true, ordering: .relaxed) { tracker.problem("\(name): closed twice") }
    tracker.closed(name)
  }
}
