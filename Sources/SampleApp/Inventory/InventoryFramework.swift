public import DIContainer
public import DIFrameworks
internal import DIParts
internal import OrderModel

/// Stock: the warehouse, its database and its audit log.
///
/// Registers ``StockService`` for the other frameworks, and its own ``ConnectionPool``
/// and ``AuditLog`` (in `InventoryStoragePart`), kept per framework.
///
/// ```swift
/// let container = DIContainer().append(framework: InventoryFramework.self)
/// let stock: any StockService = container.resolve()
/// ```
public final class InventoryFramework: DIFramework {
  /// Registers the warehouse and appends the storage part.
  ///
  /// - Parameter container: The container the framework is appended to.
  ///
  /// ```swift
  /// container.append(framework: InventoryFramework.self)  // calls load(container:) once
  /// ```
  public static func load(container: DIContainer) {
    container.append(part: InventoryStoragePart.self)
    container.register(Warehouse.init)
      .as((any StockService).self)
      .lifetime(.perFramework(.single))
  }
}
