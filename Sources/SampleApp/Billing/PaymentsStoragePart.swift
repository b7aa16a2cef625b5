internal import DIContainer
internal import DIParts
internal import OrderModel

/// Billing's database (it connects and closes asynchronously) and audit log, per framework.
final class PaymentsStoragePart: DIPart {
  static func load(container: DIContainer) {
    container.register(PaymentsDatabase.init)
      .as((any ConnectionPool).self)
      .as((any Resource).self)
      .lifetime(.perFramework(.single))
      .onClean { await $0.close() }
    container.register(PaymentLedger.init)
      .as((any AuditLog).self)
      .as((any Resource).self)
      .lifetime(.perFramework(.single))
      .onClean { $0.close() }
  }
}
