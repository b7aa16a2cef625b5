/// Where the bookmarks are kept: SQLite (``SQLiteBookmarkStore``) or PostgreSQL
/// (``PostgresBookmarkStore``), both made asynchronously by the container, with their table
/// created, and closed asynchronously by it.
public protocol BookmarkStore: Sendable {
  /// Saves `bookmark` and returns it with its id.
  func add(_ bookmark: NewBookmark) async throws -> Bookmark
  /// At most `limit` bookmarks, oldest first, skipping the first `offset`.
  func list(limit: Int, offset: Int) async throws -> [Bookmark]
  /// The bookmark `id`, if there is one.
  func find(id: Int) async throws -> Bookmark?
  /// Deletes the bookmark `id`; `false` when there was none.
  func delete(id: Int) async throws -> Bool
  /// Closes the store: what the container's teardown awaits.
  func close() async throws
}

/// The table both stores use (the same SQL in both dialects, but for the id column).
enum BookmarkSchema {
  /// The `CREATE TABLE` statement, with `idColumn` the dialect's auto-numbered key.
  static func createTable(idColumn: String) -> String {
    "CREATE TABLE IF NOT EXISTS bookmarks (id \(idColumn), url TEXT NOT NULL, title TEXT NOT NULL)"
  }
}
