import Foundation

/// Where the orders and the stock are kept: SQLite (``SQLiteOrderDatabase``, a file, the
/// default) or PostgreSQL (``PostgresOrderDatabase``, when `DATABASE_URL` is set). Each is an
/// async component of the container: it opens with `await`, creates its schema (seeding the
/// stock on first start), and closes in an async `onClean` hook.
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

  /// Every product with its price and how many are left.
  ///
  /// - Returns: The stock, by SKU.
  /// - Throws: The database's error.
  func stock() async throws -> [StockItem]

  /// Takes the order's quantities out of stock in one transaction, all or nothing: two
  /// orders placed at once never take more than there is.
  ///
  /// - Parameter items: The order's lines (a product may appear on several).
  /// - Returns: The subtotal in cents, or `nil` when a product is short or unknown (nothing
  ///   taken).
  /// - Throws: The database's error.
  func reserve(_ items: [OrderLine]) async throws -> Int?

  /// Puts the order's quantities back.
  ///
  /// - Parameter items: The lines of a reserved order.
  /// - Throws: The database's error.
  func release(_ items: [OrderLine]) async throws

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

/// The `stock` table, the same in both databases: its schema, the products it starts with,
/// and the arithmetic of a reservation.
enum StockTable {
  /// The products a new database starts with.
  static let seed = [
    StockItem(sku: "apple", price: 1_20, available: 1_000_000),
    StockItem(sku: "bread", price: 3_50, available: 1_000_000),
    StockItem(sku: "coffee", price: 12_00, available: 1_000),
    StockItem(sku: "tea", price: 8_00, available: 5),
  ]

  /// Creates the table; the `CHECK` keeps the stock from going below zero, whatever a
  /// statement does.
  static let create = """
    CREATE TABLE IF NOT EXISTS stock (
      sku TEXT PRIMARY KEY, price BIGINT NOT NULL,
      available BIGINT NOT NULL CHECK (available >= 0))
    """

  /// Inserts the ``seed`` products that are not there yet: a restart keeps the stock left.
  static let insertSeed =
    "INSERT INTO stock (sku, price, available) VALUES "
    + seed.map { "('\($0.sku)', \($0.price), \($0.available))" }.joined(separator: ", ")
    + " ON CONFLICT (sku) DO NOTHING"

  /// Lists the stock.
  static let select = "SELECT sku, price, available FROM stock ORDER BY sku"

  /// The quantity wanted of each product, the lines of the same product added up, by SKU.
  static func wanted(_ items: [OrderLine]) -> [(sku: String, quantity: Int)] {
    items.reduce(into: [String: Int]()) { $0[$1.sku, default: 0] += $1.quantity }
      .sorted { $0.key < $1.key }.map { (sku: $0.key, quantity: $0.value) }
  }

  /// The subtotal of `wanted` at the prices of `stock`, or `nil` when a product is missing
  /// or has fewer than wanted.
  static func subtotal(
    _ wanted: [(sku: String, quantity: Int)], in stock: [String: StockItem]
  ) -> Int? {
    var subtotal = 0
    for (sku, quantity) in wanted {
      guard let item = stock[sku], item.available >= quantity else { return nil }
      subtotal += item.price * quantity
    }
    return subtotal
  }
}

/// A row that is not an order (a column missing or of the wrong kind).
struct MalformedOrderRow: Error, CustomStringConvertible {
  let id: Int
  var description: String { "order \(id): a column is missing or malformed" }
}

/// A row of the `stock` table that is not a product (a column missing or of the wrong kind).
struct MalformedStockRow: Error, CustomStringConvertible {
  var description: String { "stock: a row's column is missing or malformed" }
}
