public import Logging
public import PostgresNIO

/// The bookmarks in PostgreSQL, through a `PostgresClient` whose `run()` the lifecycle runs
/// (it is registered `.as(Service.self)`); the table is created when the store is made.
public final class PostgresBookmarkStore: BookmarkStore {
  private let client: PostgresClient
  private let logger: Logger
  /// The advisory lock the table's creation takes.
  private static let schemaLock = 0x626f_6f6b

  private init(client: PostgresClient, logger: Logger) {
    self.client = client
    self.logger = logger
  }

  /// Makes the store of `client` and creates its table; `client.run()` must be running.
  ///
  /// - Parameters:
  ///   - client: The pool.
  ///   - logger: The queries' logger.
  /// - Returns: The store.
  /// - Throws: PostgreSQL's error when the table cannot be made.
  public static func open(client: PostgresClient, logger: Logger) async throws
    -> PostgresBookmarkStore
  {
    // Under a transaction-scoped advisory lock: two servers starting at once would otherwise
    // both try to create the table's types, and one would fail on a unique violation.
    try await client.withTransaction(logger: logger) { connection in
      _ = try await connection.query(
        "SELECT pg_advisory_xact_lock(\(Self.schemaLock))", logger: logger)
      _ = try await connection.query(
        PostgresQuery(unsafeSQL: BookmarkSchema.createTable(idColumn: "BIGSERIAL PRIMARY KEY")),
        logger: logger)
    }
    return PostgresBookmarkStore(client: client, logger: logger)
  }

  /// Saves `bookmark` and returns it with its id.
  public func add(_ bookmark: NewBookmark) async throws -> Bookmark {
    let rows = try await client.query(
      "INSERT INTO bookmarks (url, title) VALUES (\(bookmark.url), \(bookmark.title)) RETURNING id",
      logger: logger)
    for try await id in rows.decode(Int.self) {
      return Bookmark(id: id, url: bookmark.url, title: bookmark.title)
    }
    throw StoreError.noIDReturned
  }

  /// At most `limit` bookmarks, oldest first, skipping the first `offset`.
  public func list(limit: Int, offset: Int) async throws -> [Bookmark] {
    let rows = try await client.query(
      "SELECT id, url, title FROM bookmarks ORDER BY id LIMIT \(limit) OFFSET \(offset)",
      logger: logger)
    var bookmarks: [Bookmark] = []
    for try await (id, url, title) in rows.decode((Int, String, String).self) {
      bookmarks.append(Bookmark(id: id, url: url, title: title))
    }
    return bookmarks
  }

  /// The bookmark `id`, if there is one.
  public func find(id: Int) async throws -> Bookmark? {
    let rows = try await client.query(
      "SELECT id, url, title FROM bookmarks WHERE id = \(id)", logger: logger)
    for try await (id, url, title) in rows.decode((Int, String, String).self) {
      return Bookmark(id: id, url: url, title: title)
    }
    return nil
  }

  /// Deletes the bookmark `id`; `false` when there was none.
  public func delete(id: Int) async throws -> Bool {
    let rows = try await client.query(
      "DELETE FROM bookmarks WHERE id = \(id) RETURNING id", logger: logger)
    for try await _ in rows.decode(Int.self) { return true }
    return false
  }

  /// Logs that the store is done; the pool's connections close when the lifecycle stops
  /// the client's `run()`, which happens before the container shuts down.
  public func close() async throws {
    logger.debug("PostgreSQL bookmark store closed")
  }
}
