/// The stock, kept in the `stock` table of the server's database (SQLite or PostgreSQL),
/// which takes an order's quantities out in one transaction.
final class Warehouse: StockService {
  private let database: any OrderDatabase

  init(database: any OrderDatabase) {
    self.database = database
  }

  func list() async throws -> [StockItem] {
    try await database.stock()
  }

  func reserve(_ items: [OrderLine]) async throws -> Int? {
    try await database.reserve(items)
  }

  func release(_ items: [OrderLine]) async throws {
    try await database.release(items)
  }
}
