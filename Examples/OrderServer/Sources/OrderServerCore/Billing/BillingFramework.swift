public import DIContainer
public import DIFrameworks

/// Payments: the invoicer and Billing's own database pool. Imports Inventory, whose stock the
/// invoicer puts back when a card is declined.
///
/// ```swift
/// container.append(framework: BillingFramework.self)   // also appends InventoryFramework
/// let billing: any BillingService = try await container.resolveAsync()
/// ```
public final class BillingFramework: DIFramework {
  /// Imports Inventory and registers Billing's pool and the invoicer.
  ///
  /// - Parameter container: The container the framework is appended to.
  public static func load(container: DIContainer) {
    container.import(InventoryFramework.self)
    container.register { (tracker: ResourceTracker) async throws -> ConnectionPool in
      try await ConnectionPool.connect("billing-db", tracker: tracker)
    }
    .lifetime(.perFramework(.single))
    .onClean { pool in await pool.close() }
    container.register(Invoicer.init).as((any BillingService).self)
      .lifetime(.perFramework(.single))
  }
}
