internal import OrderModel

/// Sends a notification on every channel of Notifications and records it.
final class Notifier: NotificationService {
  private let auditLog: any AuditLog
  private let channels: [any Channel]

  init(auditLog: any AuditLog, channels: [any Channel]) {
    self.auditLog = auditLog
    self.channels = channels
  }

  func notify(_ order: Order, message: String, total: Int) -> [String] {
    let used = channels.filter { $0.send(message, to: order.customer, total: total) }.map(\.name)
    auditLog.record(
      "Notifications: told \(order.customer) #\(order.id) \(message) by "
        + used.joined(separator: ", "))
    return used
  }
}
