internal import DIContainer
internal import DIParts
internal import OrderModel

/// Billing's database and audit log: one of each per framework, closed when dropped.
final class PaymentsStoragePart: DIPart {
  static func load(container: DIContainer) {
    container.register(PaymentsDatabase.init)
      .as((any ConnectionPool).self)
      .as((any Resource).self)
      .lifetime(.perFramework(.single))
      .onClean { $0.close() }
    container.register(PaymentLedger.init)
      .as((any AuditLog).self)
      .as((any Resource).self)
      .lifetime(.perFramework(.single))
      .onClean { $0.close() }
  }
}
