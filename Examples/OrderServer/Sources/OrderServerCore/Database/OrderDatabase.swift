import Foundation

/// Where the orders are kept: SQLite (``SQLiteOrderDatabase``, a file, the default) or
/// PostgreSQL (``PostgresOrderDatabase``, when `DATABASE_URL` is set). Each is an async
/// component of the container: it opens with `await`, creates its schema, and closes in an
/// async `onClean` hook.
public protocol OrderDatabase: Sendable {
  /// Saves `order` under the next number.
  ///
  /// - Parameter order: The order, whose `id` is replaced.
  /// - Returns: The order as saved.
  /// - Throws: The database's error.
  func insert(_ order: Order) async throws -> Order

  /// The order numbered `id`, if any.
  ///
  /// - Parameter id: The order's number.
  /// - Returns: The order, or `nil`.
  /// - Throws: The database's error.
  func order(_ id: Int) async throws -> Order?

  /// Closes the database: its `onClean` hook.
  func close() async
}

/// An order's lines as the `items` column keeps them: JSON text.
enum OrderLines {
  /// The column's text for `items`.
  static func text(_ items: [OrderLine]) throws -> String {
    String(decoding: try JSONEncoder().encode(items), as: UTF8.self)
  }

  /// The lines of a column's text.
  static func items(_ text: String) throws -> [OrderLine] {
    try JSONDecoder().decode([OrderLine].self, from: Data(text.utf8))
  }
}

/// A row that is not an order (a column missing or of the wrong kind).
struct MalformedOrderRow: Error, CustomStringConvertible {
  let id: Int
  var description: String { "order \(id): a column is missing or malformed" }
}
