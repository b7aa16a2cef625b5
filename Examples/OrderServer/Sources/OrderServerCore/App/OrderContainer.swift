public import DIContainer
import DIFrameworks
import HummingbirdDIContainer

/// The server's composition: the three frameworks, the orders, and the per-request objects.
public enum OrderContainer {
  /// Registers everything the server needs in a new container.
  ///
  /// - Parameters:
  ///   - tracker: Where pools and request logs report; one per container.
  ///   - withNotifications: `false` leaves NotificationsFramework out: a misconfigured
  ///     graph (the order handler's `Notifier` is missing), which ``boot(_:)`` rejects.
  /// - Returns: The container, not validated yet.
  public static func make(tracker: ResourceTracker, withNotifications: Bool = true) -> DIContainer {
    let container = DIContainer()
    container.register { tracker }.lifetime(.perContainer(.single))
    if withNotifications {
      container.append(framework: NotificationsFramework.self)  // imports Billing
    } else {
      container.append(framework: BillingFramework.self)
    }
    container.register(OrderStore.init).lifetime(.perContainer(.single))
    // What one request owns: made once in its scope, dropped when the scope closes.
    container.register { HTTPRequestInfo() }.lifetime(.scoped)
    container.register(RequestLog.init).lifetime(.scoped).onClean { $0.close() }
    container.register(UnitOfWork.init).lifetime(.scoped).onClean { $0.rollback() }
    // The handlers, made per request.
    container.register(CreateOrderHandler.init).root()
    container.register(OrderQueryHandler.init).root()
    container.register(StockHandler.init).root()
    return container
  }

  /// Validates the graph, then connects the pools, before the server listens.
  ///
  /// - Parameter container: A container from ``make(tracker:withNotifications:)``.
  /// - Throws: The validation report (`DIGraphValidationError`) of a misconfigured graph;
  ///   the `DIError` of a pool that could not connect.
  public static func boot(_ container: DIContainer) async throws {
    try container.makeGraph().validate()
    let _: any StockService = try await container.resolveAsync()
    let _: any BillingService = try await container.resolveAsync()
    let _: any Notifier = try await container.resolveAsync()
  }
}
