public import DIContainer
public import DIFrameworks

/// Stock: the warehouse, whose stock lives in the server's database (an async component the
/// container opens with `await`).
///
/// ```swift
/// container.append(framework: InventoryFramework.self)
/// let stock: any StockService = try await container.resolveAsync()
/// ```
public final class InventoryFramework: DIFramework {
  /// Registers the warehouse, one per framework.
  ///
  /// - Parameter container: The container the framework is appended to.
  public static func load(container: DIContainer) {
    container.register(Warehouse.init).as((any StockService).self)
      .lifetime(.perFramework(.single))
  }
}
