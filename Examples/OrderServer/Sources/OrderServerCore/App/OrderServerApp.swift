public import DIContainer
public import Hummingbird
import HummingbirdDIContainer
public import Logging
import Metrics
public import Prometheus

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
  ///   - metrics: The registry the process bootstrapped swift-metrics with
  ///     (``bootstrapMetrics()``), served as Prometheus text at `GET /metrics`; `nil`: no such
  ///     route.
  ///   - onServerRunning: Called with the port once the server listens.
  /// - Returns: The application; `runService()` serves until SIGTERM or SIGINT.
  public static func make(
    container: DIContainer, configuration: ApplicationConfiguration, logger: Logger,
    metrics: PrometheusCollectorRegistry? = nil,
    onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
  ) -> some ApplicationProtocol {
    let router = Router(context: DIBasicRequestContext.self)
    router.add(middleware: DIRequestScopeMiddleware(container: container))
    OrderRoutes.add(to: router)
    if let metrics {
      router.get("metrics") { _, _ in
        Response(
          status: .ok, headers: [.contentType: "text/plain; version=0.0.4"],
          body: ResponseBody(byteBuffer: ByteBuffer(bytes: metrics.emitToBuffer())))
      }
    }
    var app = Application(
      router: router, configuration: configuration,
      services: [DIContainerService(container: container, logger: logger)],
      onServerRunning: { await onServerRunning($0.localAddress?.port ?? 0) },
      logger: logger)
    app.beforeServerStarts { try await OrderContainer.openDatabase(container) }
    return app
  }

  /// Bootstraps swift-metrics with a new Prometheus registry, so the container's figures
  /// (`DIMetrics`: failed resolutions, the database's opening time) are kept. swift-metrics
  /// takes one bootstrap per process: a second call traps.
  ///
  /// - Returns: The registry, for ``make(container:configuration:logger:metrics:onServerRunning:)``.
  public static func bootstrapMetrics() -> PrometheusCollectorRegistry {
    let registry = PrometheusCollectorRegistry()
    MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
    return registry
  }
}
