public import DIContainer
public import DIFrameworks

/// Stock: the warehouse and Inventory's own database pool.
///
/// ```swift
/// container.append(framework: InventoryFramework.self)
/// let stock: any StockService = try await container.resolveAsync()
/// ```
public final class InventoryFramework: DIFramework {
  /// Registers Inventory's pool (connects asynchronously, closes with `await`) and the
  /// warehouse, one of each per framework.
  ///
  /// - Parameter container: The container the framework is appended to.
  public static func load(container: DIContainer) {
    container.register { (tracker: ResourceTracker) async throws -> ConnectionPool in
      try await ConnectionPool.connect("inventory-db", tracker: tracker)
    }
    .lifetime(.perFramework(.single))
    .onClean { pool in await pool.close() }
    container.register(Warehouse.init).as((any StockService).self)
      .lifetime(.perFramework(.single))
  }
}
