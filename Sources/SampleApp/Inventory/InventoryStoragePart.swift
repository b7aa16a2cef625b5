internal import DIContainer
internal import DIParts
internal import OrderModel

/// Inventory's database and audit log: one of each per framework, closed when dropped.
final class InventoryStoragePart: DIPart {
  static func load(container: DIContainer) {
    container.register(StockDatabase.init)
      .as((any ConnectionPool).self)
      .as((any Resource).self)
      .lifetime(.perFramework(.single))
      .onClean { $0.close() }
    container.register(StockLedger.init)
      .as((any AuditLog).self)
      .as((any Resource).self)
      .lifetime(.perFramework(.single))
      .onClean { $0.close() }
  }
}
