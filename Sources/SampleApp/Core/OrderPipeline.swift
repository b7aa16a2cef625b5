internal import Billing
internal import Inventory
internal import Notifications
internal import OrderModel

/// The application's entry point: an order goes through stock, billing and notification.
final class OrderPipeline: Sendable {
  private let stock: any StockService
  private let billing: any BillingService
  private let notifications: any NotificationService

  init(
    stock: any StockService, billing: any BillingService,
    notifications: any NotificationService
  ) {
    self.stock = stock
    self.billing = billing
    self.notifications = notifications
  }

  func process(_ order: Order) -> OrderOutcome {
    switch stock.reserve(order) {
    case .outOfStock(let sku):
      let channels = notifications.notify(order, message: "\(sku) out of stock", total: 0)
      return OrderOutcome(order: order, status: .outOfStock(sku), invoice: nil, channels: channels)
    case .reserved(let subtotal):
      let invoice = billing.charge(order, subtotal: subtotal)
      let channels = notifications.notify(
        order, message: invoice.isPaid ? "paid" : "declined", total: invoice.total)
      return OrderOutcome(
        order: order, status: invoice.isPaid ? .paid : .declined, invoice: invoice,
        channels: channels)
    }
  }
}
