public import Logging
import SQLiteNIO

/// The bookmarks in an SQLite file, created with its table on first open.
public final class SQLiteBookmarkStore: BookmarkStore {
  private let connection: SQLiteConnection

  private init(connection: SQLiteConnection) {
    self.connection = connection
  }

  /// Opens (creating when missing) the database file at `path` and its table.
  ///
  /// - Parameters:
  ///   - path: The database file.
  ///   - logger: The connection's logger.
  /// - Returns: The open store.
  /// - Throws: SQLite's error when the file cannot be opened or the table made.
  public static func open(path: String, logger: Logger) async throws -> SQLiteBookmarkStore {
    let connection = try await SQLiteConnection.open(storage: .file(path: path), logger: logger)
    do {
      _ = try await connection.query(
        BookmarkSchema.createTable(idColumn: "INTEGER PRIMARY KEY AUTOINCREMENT"))
    } catch {
      try? await connection.close()
      throw error
    }
    return SQLiteBookmarkStore(connection: connection)
  }

  /// Saves `bookmark` and returns it with its id.
  public func add(_ bookmark: NewBookmark) async throws -> Bookmark {
    let rows = try await connection.query(
      "INSERT INTO bookmarks (url, title) VALUES (?, ?) RETURNING id",
      [.text(bookmark.url), .text(bookmark.title)])
    guard let id = rows.first?.column("id")?.integer else {
      throw StoreError.noIDReturned
    }
    return Bookmark(id: Int(id), url: bookmark.url, title: bookmark.title)
  }

  /// At most `limit` bookmarks, oldest first, skipping the first `offset`.
  public func list(limit: Int, offset: Int) async throws -> [Bookmark] {
    try await connection.query(
      "SELECT id, url, title FROM bookmarks ORDER BY id LIMIT ? OFFSET ?",
      [.integer(limit), .integer(offset)]
    ).compactMap(Self.bookmark)
  }

  /// The bookmark `id`, if there is one.
  public func find(id: Int) async throws -> Bookmark? {
    try await connection.query(
      "SELECT id, url, title FROM bookmarks WHERE id = ?", [.integer(id)]
    ).first.flatMap(Self.bookmark)
  }

  /// Deletes the bookmark `id`; `false` when there was none.
  public func delete(id: Int) async throws -> Bool {
    !(try await connection.query(
      "DELETE FROM bookmarks WHERE id = ? RETURNING id", [.integer(id)]
    ).isEmpty)
  }

  /// Closes the connection.
  public func close() async throws {
    try await connection.close()
  }

  private static func bookmark(_ row: SQLiteRow) -> Bookmark? {
    guard let id = row.column("id")?.integer, let url = row.column("url")?.string,
      let title = row.column("title")?.string
    else { return nil }
    return Bookmark(id: Int(id), url: url, title: title)
  }
}

/// A database answer the store cannot use.
enum StoreError: Error, CustomStringConvertible {
  /// An `INSERT … RETURNING id` that returned no id.
  case noIDReturned

  var description: String { "the database returned no id for the new bookmark" }
}
