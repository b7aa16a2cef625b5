import Synchronization

/// The orders (in memory), one store per container.
public final class OrderStore: Sendable {
  private let state = Mutex((nextID: 1, orders: [Int: Order]()))

  /// Makes an empty store.
  public init() {}

  /// Saves `order` under the next number.
  ///
  /// - Parameter order: The order, whose `id` is replaced.
  /// - Returns: The order as saved.
  public func insert(_ order: Order) -> Order {
    state.withLock { state in
      var saved = order
      saved.id = state.nextID
      state.nextID += 1
      state.orders[saved.id] = saved
      return saved
    }
  }

  /// The order numbered `id`, if any.
  ///
  /// - Parameter id: The order's number.
  /// - Returns: The order, or `nil`.
  public func order(_ id: Int) -> Order? { state.withLock { $0.orders[id] } }
}
