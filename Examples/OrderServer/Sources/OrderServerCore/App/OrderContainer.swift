public import DIContainer
import DIFrameworks
import HummingbirdDIContainer
public import Logging
import PostgresNIO
import ServiceLifecycle

/// The server's composition: the settings, the three frameworks, the orders' database, and
/// the per-request objects.
public enum OrderContainer {
  /// Registers everything the server needs in a new container.
  ///
  /// - Parameters:
  ///   - config: The settings: which database, and whether Notifications is in.
  ///   - tracker: Where pools and request logs report; one per container.
  ///   - logger: The server's logger, for the database clients.
  /// - Returns: The container, not validated yet.
  /// - Throws: ``UsageError`` for a `DATABASE_URL` that is not a PostgreSQL URL.
  public static func make(
    config: Config, tracker: ResourceTracker, logger: Logger = Logger(label: "order-server")
  ) throws(UsageError) -> DIContainer {
    let container = DIContainer()
    container.register { config }.lifetime(.perContainer(.single))
    container.register { tracker }.lifetime(.perContainer(.single))
    if config.withNotifications {
      container.append(framework: NotificationsFramework.self)  // imports Billing
    } else {
      container.append(framework: BillingFramework.self)
    }
    try registerDatabase(in: container, config: config, logger: logger)
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

  /// The orders' and the stock's database: PostgreSQL when the settings name one (its `PostgresClient` a
  /// `Service` component, run by `DIContainerService`), else the SQLite file; either opens
  /// with `await`, creates its schema, records its opening time (`DIMetrics.timed`), and
  /// closes in an async `onClean` hook.
  static func registerDatabase(in container: DIContainer, config: Config, logger: Logger)
    throws(UsageError)
  {
    guard let url = config.databaseURL else {
      let path = config.databasePath
      container.register { () async throws -> SQLiteOrderDatabase in
        try await DIMetrics.timed("SQLiteOrderDatabase") {
          try await SQLiteOrderDatabase.open(path: path, logger: logger)
        }
      }
      .as((any OrderDatabase).self)
      .lifetime(.perContainer(.single))
      .onClean { await $0.close() }
      return
    }
    guard let configuration = PostgresOrderDatabase.configuration(url: url) else {
      throw UsageError("DATABASE_URL: not a postgres://user:password@host:port/database URL")
    }
    container.register { PostgresClient(configuration: configuration, backgroundLogger: logger) }
      .as((any Service).self)
      .lifetime(.perContainer(.single))
    container.register { (client: PostgresClient) async throws -> PostgresOrderDatabase in
      try await DIMetrics.timed("PostgresOrderDatabase") {
        try await PostgresOrderDatabase.open(client: client, logger: logger)
      }
    }
    .as((any OrderDatabase).self)
    .lifetime(.perContainer(.single))
    .onClean { await $0.close() }
  }

  /// Validates the graph, then connects Billing's pool (through the notifier), before the
  /// server listens. The database, and the stock and invoicer that use it, are made later,
  /// once the service group runs (a `PostgresClient` answers only while its `run()` runs):
  /// ``openDatabase(_:)``.
  ///
  /// - Parameter container: A container from ``make(config:tracker:logger:)``.
  /// - Throws: The validation report (`DIGraphValidationError`) of a misconfigured graph;
  ///   the `DIError` of a pool that could not connect.
  public static func boot(_ container: DIContainer) async throws {
    try container.makeGraph().validate()
    let _: any Notifier = try await container.resolveAsync()
  }

  /// Opens the database, creates its schema and seeds the stock, then makes the warehouse
  /// and the invoicer: run before the server listens, while the container's `Service`
  /// components run.
  ///
  /// - Parameter container: A booted container.
  /// - Throws: The `DIError` of a database that could not be opened.
  public static func openDatabase(_ container: DIContainer) async throws {
    let _: any OrderDatabase = try await container.resolveAsync()
    let _: any StockService = try await container.resolveAsync()
    let _: any BillingService = try await container.resolveAsync()
  }
}
