import Logging
import SQLiteNIO
import Synchronization

/// The orders and the stock in an SQLite file (one connection, which SQLite serializes),
/// created with its schema and seeded with the stock on first open.
public final class SQLiteOrderDatabase: OrderDatabase {
  private let connection: SQLiteConnection
  /// Whether ``close()`` ran: sqlite-nio crashes on a connection closed twice.
  private let isClosed = Atomic<Bool>(false)

  private init(connection: SQLiteConnection) {
    self.connection = connection
  }

  /// Opens (creating if needed) the database file at `path`, its `orders` and `stock` tables,
  /// and the stock's first products.
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
      try await connection.query(StockTable.create, [], { _ in })
      try await connection.query(StockTable.insertSeed, [], { _ in })
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

  /// Every product with its price and how many are left.
  public func stock() async throws -> [StockItem] {
    try await rows(StockTable.select, []).map { row in
      guard let sku = row.column("sku")?.string, let price = row.column("price")?.integer,
        let available = row.column("available")?.integer
      else { throw MalformedStockRow() }
      return StockItem(sku: sku, price: price, available: available)
    }
  }

  /// Takes the quantities out of stock in one statement, which checks first that every
  /// product has enough: a statement is atomic, and the connection runs one at a time.
  public func reserve(_ items: [OrderLine]) async throws -> Int? {
    let wanted = StockTable.wanted(items)
    guard !wanted.isEmpty else { return 0 }
    let rows = try await rows(
      """
      WITH wanted(sku, quantity) AS (VALUES \(Self.pairs(wanted.count)))
      UPDATE stock
      SET available = available - (SELECT quantity FROM wanted WHERE wanted.sku = stock.sku)
      WHERE sku IN (SELECT sku FROM wanted)
        AND (SELECT count(*) FROM wanted JOIN stock AS s
             ON s.sku = wanted.sku AND s.available >= wanted.quantity) = \(wanted.count)
      RETURNING sku, price
      """, Self.binds(wanted))
    var prices: [String: Int] = [:]
    for row in rows {
      guard let sku = row.column("sku")?.string, let price = row.column("price")?.integer
      else { throw MalformedStockRow() }
      prices[sku] = price
    }
    guard prices.count == wanted.count else { return nil }  // nothing was taken
    return wanted.reduce(0) { $0 + (prices[$1.sku] ?? 0) * $1.quantity }
  }

  /// Puts the quantities back in one statement.
  public func release(_ items: [OrderLine]) async throws {
    let wanted = StockTable.wanted(items)
    guard !wanted.isEmpty else { return }
    _ = try await rows(
      """
      WITH wanted(sku, quantity) AS (VALUES \(Self.pairs(wanted.count)))
      UPDATE stock
      SET available = available + (SELECT quantity FROM wanted WHERE wanted.sku = stock.sku)
      WHERE sku IN (SELECT sku FROM wanted)
      """, Self.binds(wanted))
  }

  /// Closes the connection; a second call does nothing.
  public func close() async {
    guard !isClosed.exchange(true, ordering: .acquiringAndReleasing) else { return }
    try? await connection.close()
  }

  /// `(?, ?), (?, ?), …`: the placeholders of `count` pairs.
  private static func pairs(_ count: Int) -> String {
    Array(repeating: "(?, ?)", count: count).joined(separator: ", ")
  }

  /// The values of the `wanted` pairs, in order.
  private static func binds(_ wanted: [(sku: String, quantity: Int)]) -> [SQLiteData] {
    wanted.flatMap { [SQLiteData.text($0.sku), .integer($0.quantity)] }
  }

  /// The rows of a statement.
  private func rows(_ sql: String, _ binds: [SQLiteData]) async throws -> [SQLiteRow] {
    let rows = Mutex<[SQLiteRow]>([])
    try await connection.query(sql, binds) { row in rows.withLock { $0.append(row) } }
    return rows.withLock { $0 }
  }
}
