internal import Inventory
internal import OrderModel

/// Charges orders through the card gateway and records the result.
final class Invoicer: BillingService {
  /// The sales tax, in percent.
  static let taxRate = 8

  private let database: any ConnectionPool
  private let auditLog: any AuditLog
  private let gateway: CardGateway
  private let stock: any StockService

  init(
    database: any ConnectionPool, auditLog: any AuditLog, gateway: CardGateway,
    stock: any StockService
  ) {
    self.database = database
    self.auditLog = auditLog
    self.gateway = gateway
    self.stock = stock
  }

  func charge(_ order: Order, subtotal: Int) -> Invoice {
    let tax = (subtotal * Self.taxRate + 50) / 100
    let isPaid = gateway.authorize(subtotal + tax)
    let invoice = Invoice(orderID: order.id, subtotal: subtotal, tax: tax, isPaid: isPaid)
    database.execute("INSERT INTO invoices VALUES (?, ?, ?)")
    if isPaid {
      auditLog.record("Billing: charged #\(order.id) \(dollars(invoice.total))")
    } else {
      auditLog.record("Billing: declined #\(order.id) \(dollars(invoice.total))")
      stock.release(order)
    }
    return invoice
  }
}
