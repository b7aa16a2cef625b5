public import DIContainer
public import DIParts
import Logging
import VaporDIContainer

/// SQLite storage: the store opens its file (creating it and the table) asynchronously and
/// closes it asynchronously when the container shuts down.
public final class SQLiteStoragePart: DIPart {
  /// Registers the store, one per container.
  ///
  /// - Parameter container: The container the part is appended to.
  public static func load(container: DIContainer) {
    container.register {
      (options: ServerOptions, logger: Logger) async throws -> SQLiteBookmarkStore in
      guard case .sqlite(let path) = options.database else {
        throw UsageError("SQLiteStoragePart needs an SQLite database in the options")
      }
      return try await DIMetrics.timed(SQLiteBookmarkStore.self) {
        try await SQLiteBookmarkStore.open(path: path, logger: logger)
      }
    }
    .as((any BookmarkStore).self)
    .lifetime(.perContainer(.single))
    .onClean { store in try await store.close() }
  }
}
