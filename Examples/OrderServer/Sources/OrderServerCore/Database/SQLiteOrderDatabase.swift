import Logging
import SQLiteNIO
import Synchronization

/// The orders in an SQLite file (one connection, which SQLite serializes), created with its
/// schema on first open.
public final class SQLiteOrderDatabase: OrderDatabase {
  private let connection: SQLiteConnection

  private init(connection: SQLiteConnection) {
    self.connection = connection
  }

  /// Opens (creating if needed) the database file at `path` and its `orders` table.
  ///
  /// - Parameters:
  ///   - path: The file; `:memory:` keeps the orders in memory.
  ///   - logger: The connection's logger.
  /// - Returns: The open database.
  /// - Throws: SQLite's error (a folder that does not exist, a file that is not a database).
  public static func open(path: String, logger: Logger) async throws -> SQLiteOrderDatabase {
    let storage: SQLiteConnection.Storage = path == ":memory:" ? .memory : .file(path: path)
    let connection = try await SQLiteConnection.open(storage: storage, logger: logger)
    do {
      try await connection.query(
        """
        CREATE TABLE IF NOT EXISTS orders (
          id INTEGER PRIMARY KEY AUTOINCREMENT, customer TEXT NOT NULL, items TEXT NOT NULL,
          total INTEGER NOT NULL, status TEXT NOT NULL)
        """, [], { _ in })
    } catch {
      try? await connection.close()
      throw error
    }
    return SQLiteOrderDatabase(connection: connection)
  }

  /// Saves `order` under the next number (`RETURNING id`).
  public func insert(_ order: Order) async throws -> Order {
    let rows = try await rows(
      "INSERT INTO orders (customer, items, total, status) VALUES (?, ?, ?, ?) RETURNING id",
      [
        .text(order.customer), .text(try OrderLines.text(order.items)), .integer(order.total),
        .text(order.status.rawValue),
      ])
    guard let id = rows.first?.column("id")?.integer else { throw MalformedOrderRow(id: 0) }
    var saved = order
    saved.id = id
    return saved
  }

  /// The order numbered `id`, if any.
  public func order(_ id: Int) async throws -> Order? {
    let rows = try await rows(
      "SELECT customer, items, total, status FROM orders WHERE id = ?", [.integer(id)])
    guard let row = rows.first else { return nil }
    guard let customer = row.column("customer")?.string,
      let items = row.column("items")?.string,
      let total = row.column("total")?.integer,
      let status = row.column("status")?.string.flatMap(OrderStatus.init(rawValue:))
    else { throw MalformedOrderRow(id: id) }
    return Order(
      id: id, customer: customer, items: try OrderLines.items(items), total: total,
      status: status)
  }

  /// Closes the connection.
  public func close() async {
    try? await connection.close()
  }

  /// The rows of a statement.
  private func rows(_ sql: String, _ binds: [SQLiteData]) async throws -> [SQLiteRow] {
    let rows = Mutex<[SQLiteRow]>([])
    try await connection.query(sql, binds) { row in rows.withLock { $0.append(row) } }
    return rows.withLock { $0 }
  }
}
