import Foundation
import Logging
public import PostgresNIO

/// The orders and the stock in PostgreSQL, through PostgresNIO's `PostgresClient` (a
/// connection pool whose `run()` the container's `DIContainerService` runs); the schema is
/// created, and the stock seeded, on open.
public final class PostgresOrderDatabase: OrderDatabase {
  private let client: PostgresClient
  private let logger: Logger

  /// The advisory lock's key while the schema is created.
  private static let schemaLock = 0x6f72_6465_7273

  private init(client: PostgresClient, logger: Logger) {
    self.client = client
    self.logger = logger
  }

  /// The client's configuration for a `postgres://user:password@host:port/database` URL
  /// (no TLS: the servers it is meant for are on loopback).
  ///
  /// - Parameter url: The URL, as `DATABASE_URL` gives it.
  /// - Returns: The configuration, or `nil` for a URL that is not a PostgreSQL one.
  public static func configuration(url: String) -> PostgresClient.Configuration? {
    guard let components = URLComponents(string: url),
      ["postgres", "postgresql"].contains(components.scheme), let host = components.host,
      let user = components.user
    else { return nil }
    let database = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : ""
    return PostgresClient.Configuration(
      host: host, port: components.port ?? 5432, username: user,
      password: components.password, database: database.isEmpty ? nil : database, tls: .disable)
  }

  /// Creates the `orders` and `stock` tables if needed, and the stock's first products. The client's `run()` must be running: call it
  /// once the service group has started (Hummingbird's `beforeServerStarts`).
  ///
  /// - Parameters:
  ///   - client: The client.
  ///   - logger: The queries' logger.
  /// - Returns: The database.
  /// - Throws: PostgreSQL's error (the server cannot be reached, authentication failed).
  public static func open(client: PostgresClient, logger: Logger) async throws
    -> PostgresOrderDatabase
  {
    // Servers starting together would race in CREATE TABLE IF NOT EXISTS (a unique
    // violation in the catalog): an advisory lock makes them take turns.
    try await client.withConnection { connection in
      try await connection.query("SELECT pg_advisory_lock(\(schemaLock))", logger: logger)
      do {
        try await connection.query(
          """
          CREATE TABLE IF NOT EXISTS orders (
            id BIGSERIAL PRIMARY KEY, customer TEXT NOT NULL, items TEXT NOT NULL,
            total BIGINT NOT NULL, status TEXT NOT NULL)
          """, logger: logger)
        try await connection.query(PostgresQuery(unsafeSQL: StockTable.create), logger: logger)
        try await connection.query(
          PostgresQuery(unsafeSQL: StockTable.insertSeed), logger: logger)
      } catch {
        _ = try? await connection.query("SELECT pg_advisory_unlock(\(schemaLock))", logger: logger)
        throw error
      }
      try await connection.query("SELECT pg_advisory_unlock(\(schemaLock))", logger: logger)
    }
    return PostgresOrderDatabase(client: client, logger: logger)
  }

  /// Saves `order` under the next number (`RETURNING id`).
  public func insert(_ order: Order) async throws -> Order {
    let items = try OrderLines.text(order.items)
    let rows = try await client.query(
      """
      INSERT INTO orders (customer, items, total, status)
      VALUES (\(order.customer), \(items), \(order.total), \(order.status.rawValue)) RETURNING id
      """, logger: logger)
    for try await (id, ) in rows.decode((Int,).self) {
      var saved = order
      saved.id = id
      return saved
    }
    throw MalformedOrderRow(id: 0)
  }

  /// The order numbered `id`, if any.
  public func order(_ id: Int) async throws -> Order? {
    let rows = try await client.query(
      "SELECT customer, items, total, status FROM orders WHERE id = \(id)", logger: logger)
    for try await (customer, items, total, status) in rows.decode(
      (String, String, Int, String).self)
    {
      guard let status = OrderStatus(rawValue: status) else { throw MalformedOrderRow(id: id) }
      return Order(
        id: id, customer: customer, items: try OrderLines.items(items), total: total,
        status: status)
    }
    return nil
  }

  /// Every product with its price and how many are left.
  public func stock() async throws -> [StockItem] {
    let rows = try await client.query(PostgresQuery(unsafeSQL: StockTable.select), logger: logger)
    var items: [StockItem] = []
    for try await (sku, price, available) in rows.decode((String, Int, Int).self) {
      items.append(StockItem(sku: sku, price: price, available: available))
    }
    return items
  }

  /// Takes the quantities out of stock in a transaction that first locks the products' rows
  /// (`FOR UPDATE`, in SKU order, so two orders never wait for each other) and checks them.
  public func reserve(_ items: [OrderLine]) async throws -> Int? {
    let wanted = StockTable.wanted(items)
    let skus = wanted.map(\.sku)
    let quantities = wanted.map(\.quantity)
    let logger = self.logger
    return try await client.withTransaction(logger: logger) { connection -> Int? in
      let rows = try await connection.query(
        """
        SELECT sku, price, available FROM stock WHERE sku = ANY(\(skus)) ORDER BY sku FOR UPDATE
        """, logger: logger)
      var stock: [String: StockItem] = [:]
      for try await (sku, price, available) in rows.decode((String, Int, Int).self) {
        stock[sku] = StockItem(sku: sku, price: price, available: available)
      }
      guard let subtotal = StockTable.subtotal(wanted, in: stock) else { return nil }
      try await connection.query(
        """
        UPDATE stock SET available = stock.available - wanted.quantity
        FROM unnest(\(skus)::text[], \(quantities)::bigint[]) AS wanted(sku, quantity)
        WHERE stock.sku = wanted.sku
        """, logger: logger)
      return subtotal
    }
  }

  /// Puts the quantities back in one statement.
  public func release(_ items: [OrderLine]) async throws {
    let wanted = StockTable.wanted(items)
    try await client.query(
      """
      UPDATE stock SET available = stock.available + wanted.quantity
      FROM unnest(\(wanted.map(\.sku))::text[], \(wanted.map(\.quantity))::bigint[])
        AS wanted(sku, quantity)
      WHERE stock.sku = wanted.sku
      """, logger: logger)
  }

  /// Nothing to close: the client's connections close when its `run()` ends, which the
  /// container's service ends before the container shuts down.
  public func close() async {}
}
