public import DIContainer
import DIFrameworks
import DIParts
public import Logging
public import Prometheus
public import Vapor
import VaporDIContainer

/// The server's composition: its container, its application, and the start-up that creates
/// the store (and its table) once the `Service` components run.
public enum BookmarkServerApp {
  /// The container of `options`: the options and the logger, the storage part the options
  /// choose (SQLite or PostgreSQL), the bookmarks framework.
  ///
  /// - Parameters:
  ///   - options: The server's options.
  ///   - logger: The logger of the components that log.
  /// - Returns: The container.
  public static func makeContainer(options: ServerOptions, logger: Logger) -> DIContainer {
    let container = DIContainer()
    container.register { options }.lifetime(.perContainer(.single))
    container.register { logger }.lifetime(.perContainer(.single))
    switch options.database {
    case .sqlite: container.append(part: SQLiteStoragePart.self)
    case .postgres: container.append(part: PostgresStoragePart.self)
    }
    container.append(framework: BookmarksFramework.self)
    return container
  }

  /// Sets `app` up with `container`: its address, the routes, the lifecycle (the `Service`
  /// components run before the server starts; the store, with its table, is made at boot;
  /// the container shuts down after the services have stopped).
  ///
  /// - Parameters:
  ///   - app: The application.
  ///   - container: The container of ``makeContainer(options:logger:)``.
  ///   - options: The server's options.
  ///   - metrics: The registry the process bootstrapped swift-metrics with, served at
  ///     `GET /metrics`; `nil`: no metrics (the container's are then a no-op).
  /// - Throws: The `DIError` of a component the routes need that cannot be made.
  public static func configure(
    _ app: Application, container: DIContainer, options: ServerOptions,
    metrics: PrometheusCollectorRegistry? = nil
  ) throws {
    app.http.server.configuration.hostname = options.hostname
    app.http.server.configuration.port = options.port
    app.logger.logLevel = options.logLevel
    app.use(container: container, addingMiddleware: false)
    app.lifecycle.use(StoreStartup(container: container))
    let counters: ServerCounters = try container.tryResolve(from: BookmarksFramework.self)
    BookmarkRoutes.add(
      to: app, scoped: app.grouped(DIRequestScopeMiddleware(container: container)),
      counters: counters)
    if let metrics {
      app.get("metrics") { _ -> String in
        var text: [UInt8] = []
        metrics.emit(into: &text)
        return String(decoding: text, as: UTF8.self)
      }
    }
  }
}

/// Makes the store at boot, after the `Service` components have started (the PostgreSQL
/// client must run before the table can be made), so a database that cannot be opened
/// stops the start-up with its error instead of failing the first request.
struct StoreStartup: LifecycleHandler {
  let container: DIContainer

  func didBootAsync(_ application: Application) async throws {
    let _: any BookmarkStore = try await container.resolveAsync()
  }
}
