public import DIContainer
public import DIParts
import Logging
import PostgresNIO
import ServiceLifecycle
import VaporDIContainer

/// PostgreSQL storage: a `PostgresClient` registered as a `Service` (the lifecycle runs its
/// `run()` while the application lives and stops it before the container shuts down), and
/// the store, made asynchronously (creating its table) once the client runs.
public final class PostgresStoragePart: DIPart {
  /// Registers the client and the store, one of each per container.
  ///
  /// - Parameter container: The container the part is appended to.
  public static func load(container: DIContainer) {
    container.register { (options: ServerOptions, logger: Logger) throws -> PostgresClient in
      guard case .postgres(let url) = options.database else {
        throw UsageError("PostgresStoragePart needs a PostgreSQL database in the options")
      }
      return PostgresClient(
        configuration: try ServerOptions.postgresConfiguration(url), backgroundLogger: logger)
    }
    .as((any Service).self)
    .lifetime(.perContainer(.single))

    container.register {
      (client: PostgresClient, logger: Logger) async throws -> PostgresBookmarkStore in
      try await DIMetrics.timed(PostgresBookmarkStore.self) {
        try await PostgresBookmarkStore.open(client: client, logger: logger)
      }
    }
    .as((any BookmarkStore).self)
    .lifetime(.perContainer(.single))
    .onClean { store in try await store.close() }
  }
}
