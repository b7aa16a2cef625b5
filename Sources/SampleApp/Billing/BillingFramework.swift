public import DIContainer
public import DIFrameworks
internal import DIParts
internal import Inventory
internal import OrderModel

/// Payments: invoices, the card gateway, and Billing's own database and audit log.
///
/// Imports ``Inventory/InventoryFramework`` (to release stock when a payment is declined).
/// Inventory also registers a ``OrderModel/ConnectionPool`` and an ``OrderModel/AuditLog``,
/// yet Billing's components get Billing's own: modularity, no tags.
///
/// ```swift
/// let container = DIContainer().append(framework: BillingFramework.self)
/// let billing: any BillingService = container.resolve()
/// ```
public final class BillingFramework: DIFramework {
  /// Imports Inventory, appends Billing's parts and registers the invoicer.
  ///
  /// - Parameter container: The container the framework is appended to.
  ///
  /// ```swift
  /// container.append(framework: BillingFramework.self)  // also appends InventoryFramework
  /// ```
  public static func load(container: DIContainer) {
    container.import(InventoryFramework.self)
    container.append(part: PaymentsStoragePart.self)
    container.append(part: GatewayPart.self)
    container.register(Invoicer.init).as((any BillingService).self)
  }
}
