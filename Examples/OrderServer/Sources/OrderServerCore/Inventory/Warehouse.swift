import Synchronization

/// The stock, kept in Inventory's database (simulated by a table in memory).
final class Warehouse: StockService {
  private let pool: ConnectionPool
  private let stock: Mutex<[String: StockItem]>

  init(pool: ConnectionPool) {
    self.pool = pool
    let items = [
      StockItem(sku: "apple", price: 1_20, available: 1_000_000),
      StockItem(sku: "bread", price: 3_50, available: 1_000_000),
      StockItem(sku: "coffee", price: 12_00, available: 1_000),
      StockItem(sku: "tea", price: 8_00, available: 5),
    ]
    stock = Mutex(Dictionary(uniqueKeysWithValues: items.map { ($0.sku, $0) }))
  }

  func list() -> [StockItem] {
    pool.execute("SELECT * FROM stock")
    return stock.withLock { $0.values.sorted { $0.sku < $1.sku } }
  }

  func reserve(_ items: [OrderLine]) -> Int? {
    pool.execute("UPDATE stock SET available = available - ?")
    return stock.withLock { stock -> Int? in
      var subtotal = 0
      for line in items {
        guard line.quantity > 0, let item = stock[line.sku], item.available >= line.quantity
        else { return nil }
        subtotal += item.price * line.quantity
      }
      for line in items { stock[line.sku]?.available -= line.quantity }
      return subtotal
    }
  }

  func release(_ items: [OrderLine]) {
    pool.execute("UPDATE stock SET available = available + ?")
    stock.withLock { stock in
      for line in items { stock[line.sku]?.available += line.quantity }
    }
  }
}
