public import DIContainer
public import Hummingbird
import HummingbirdDIContainer
public import Logging

/// Builds the server: the router with the request-scope middleware and the routes, and the
/// container's service (its `Service` components, then its shutdown), run before the HTTP
/// server so it stops after it.
public enum OrderServerApp {
  /// Makes the application of a booted container; the orders' database opens before the
  /// server listens.
  ///
  /// - Parameters:
  ///   - container: A container from `OrderContainer.make`, booted.
  ///   - configuration: Address and server name.
  ///   - logger: The server's logger.
  ///   - onServerRunning: Called with the port once the server listens.
  /// - Returns: The application; `runService()` serves until SIGTERM or SIGINT.
  public static func make(
    container: DIContainer, configuration: ApplicationConfiguration, logger: Logger,
    onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
  ) -> some ApplicationProtocol {
    let router = Router(context: DIBasicRequestContext.self)
    router.add(middleware: DIRequestScopeMiddleware(container: container))
    OrderRoutes.add(to: router)
    var app = Application(
      router: router, configuration: configuration,
      services: [DIContainerService(container: container, logger: logger)],
      onServerRunning: { await onServerRunning($0.localAddress?.port ?? 0) },
      logger: logger)
    app.beforeServerStarts { try await OrderContainer.openDatabase(container) }
    return app
  }
}
