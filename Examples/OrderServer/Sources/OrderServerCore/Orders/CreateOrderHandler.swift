import HTTPTypes
public import Hummingbird
import HummingbirdDIContainer

/// `POST /orders`: reserves the stock, charges the card, saves the order and notifies the
/// customer. Made per request; its unit of work and log are the request's.
public final class CreateOrderHandler: Sendable {
  private let work: UnitOfWork
  private let log: RequestLog
  private let stock: any StockService
  private let billing: any BillingService
  private let notifier: any Notifier

  /// Makes the handler of a request.
  ///
  /// - Parameters:
  ///   - work: The request's unit of work.
  ///   - log: The request's log.
  ///   - stock: Inventory's stock.
  ///   - billing: Billing's invoicer.
  ///   - notifier: Notifications' notifier.
  public init(
    work: UnitOfWork, log: RequestLog, stock: any StockService, billing: any BillingService,
    notifier: any Notifier
  ) {
    self.work = work
    self.log = log
    self.stock = stock
    self.billing = billing
    self.notifier = notifier
  }

  /// Places the order.
  ///
  /// - Parameter new: What the customer orders.
  /// - Returns: 201 with the order; headers name the request's id, unit of work and log
  ///   (`x-request-id`, `x-unit-of-work`, `x-request-log`, `x-unit-of-work-log`).
  /// - Throws: The database's error (the stock is taken in one transaction and the order
  ///   saved in another).
  public func create(_ new: NewOrder) async throws -> EditedResponse<Order> {
    var order = Order(
      id: 0, customer: new.customer, items: new.items, total: 0, status: .outOfStock)
    if let subtotal = try await stock.reserve(new.items) {
      if let total = try await billing.charge(new.items, subtotal: subtotal) {
        order.total = total
        order.status = .paid
      } else {
        order.status = .declined
      }
    }
    work.stage(order)
    let saved = try await work.commit()[0]
    notifier.notify(saved)
    log.record("order \(saved.id): \(saved.status.rawValue)")
    var headers = HTTPFields()
    headers[HTTPField.Name("x-request-id")!] = log.request.id
    headers[HTTPField.Name("x-unit-of-work")!] = "\(work.serial)"
    headers[HTTPField.Name("x-request-log")!] = "\(log.serial)"
    headers[HTTPField.Name("x-unit-of-work-log")!] = "\(work.log.serial)"
    return EditedResponse(status: .created, headers: headers, response: saved)
  }
}
