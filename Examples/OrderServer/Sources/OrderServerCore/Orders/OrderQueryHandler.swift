import Hummingbird

/// `GET /orders/:id`: one saved order.
public final class OrderQueryHandler: Sendable {
  private let database: any OrderDatabase
  private let log: RequestLog

  /// Makes the handler of a request.
  ///
  /// - Parameters:
  ///   - database: The orders.
  ///   - log: The request's log.
  public init(database: any OrderDatabase, log: RequestLog) {
    self.database = database
    self.log = log
  }

  /// The order numbered `id`.
  ///
  /// - Parameter id: The order's number.
  /// - Returns: The order.
  /// - Throws: `HTTPError(.notFound)` when there is none; the database's error.
  public func order(_ id: Int) async throws -> Order {
    log.record("read order \(id)")
    guard let order = try await database.order(id) else {
      throw HTTPError(.notFound, message: "No order \(id)")
    }
    return order
  }
}
