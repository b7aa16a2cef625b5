import Synchronization

/// The changes of one request (`.scoped`): what a handler stages is saved by `commit()`;
/// what is not committed when the request's scope closes is rolled back (dropped).
public final class UnitOfWork: Sendable {
  private static let serials = Atomic(0)

  /// A number no other unit of work of the process has.
  public let serial: Int
  /// The request's log: the same instance the request's other components get.
  public let log: RequestLog
  private let database: any OrderDatabase
  private let staged = Mutex<[Order]>([])

  /// Makes the unit of work of a request.
  ///
  /// - Parameters:
  ///   - log: The request's log.
  ///   - database: Where committed orders go.
  public init(log: RequestLog, database: any OrderDatabase) {
    serial = Self.serials.add(1, ordering: .relaxed).newValue
    self.log = log
    self.database = database
  }

  /// Stages an order.
  ///
  /// - Parameter order: A new order.
  public func stage(_ order: Order) {
    staged.withLock { $0.append(order) }
  }

  /// Saves what was staged.
  ///
  /// - Returns: The orders as saved, numbered.
  /// - Throws: The database's error; what was not saved is dropped.
  public func commit() async throws -> [Order] {
    let orders = staged.withLock { staged in
      defer { staged.removeAll() }
      return staged
    }
    log.record("committed \(orders.count) orders")
    var saved: [Order] = []
    for order in orders { saved.append(try await database.insert(order)) }
    return saved
  }

  /// Rolls back what was not committed: its `onClean` hook.
  public func rollback() {
    let dropped = staged.withLock { staged in
      defer { staged.removeAll() }
      return staged.count
    }
    if dropped > 0 { log.record("rolled back \(dropped) orders") }
  }
}
