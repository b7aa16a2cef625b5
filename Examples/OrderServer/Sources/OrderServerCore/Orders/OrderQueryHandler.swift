import Hummingbird

/// `GET /orders/:id`: one saved order.
public final class OrderQueryHandler: Sendable {
  private let store: OrderStore
  private let log: RequestLog

  /// Makes the handler of a request.
  ///
  /// - Parameters:
  ///   - store: The orders.
  ///   - log: The request's log.
  public init(store: OrderStore, log: RequestLog) {
    self.store = store
    self.log = log
  }

  /// The order numbered `id`.
  ///
  /// - Parameter id: The order's number.
  /// - Returns: The order.
  /// - Throws: `HTTPError(.notFound)` when there is none.
  public func order(_ id: Int) throws -> Order {
    log.record("read order \(id)")
    guard let order = store.order(id) else { throw HTTPError(.notFound, message: "No order \(id)") }
    return order
  }
}
