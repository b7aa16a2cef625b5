internal import OrderModel

/// The stock and prices of the sample's four products.
final class Warehouse: StockService {
  private static let prices = ["cap": 18_00, "mug": 12_00, "poster": 9_00, "tee": 25_00]

  private let database: any ConnectionPool
  private let auditLog: any AuditLog
  private let stock = LockedState(["cap": 3, "mug": 6, "poster": 10, "tee": 4])

  init(database: any ConnectionPool, auditLog: any AuditLog) {
    self.database = database
    self.auditLog = auditLog
  }

  func reserve(_ order: Order) -> Reservation {
    let reservation = stock.withLock { stock -> Reservation in
      for line in order.lines where stock[line.sku, default: 0] < line.quantity {
        return .outOfStock(sku: line.sku)
      }
      var subtotal = 0
      for line in order.lines {
        stock[line.sku, default: 0] -= line.quantity
        subtotal += Self.prices[line.sku, default: 0] * line.quantity
      }
      return .reserved(subtotal: subtotal)
    }
    switch reservation {
    case .reserved:
      database.execute("UPDATE stock SET quantity = quantity - ? WHERE sku = ?")
      auditLog.record("Inventory: reserved #\(order.id) (\(order.itemCount) items)")
    case .outOfStock(let sku):
      auditLog.record("Inventory: #\(order.id) short of \(sku)")
    }
    return reservation
  }

  func release(_ order: Order) {
    stock.withLock { stock in
      for line in order.lines { stock[line.sku, default: 0] += line.quantity }
    }
    database.execute("UPDATE stock SET quantity = quantity + ? WHERE sku = ?")
    auditLog.record("Inventory: released #\(order.id)")
  }

  var levels: [(sku: String, quantity: Int)] {
    stock.withLock { stock in stock.sorted { $0.key < $1.key }.map { ($0.key, $0.value) } }
  }
}
