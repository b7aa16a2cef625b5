internal import Billing
public import DIContainer
public import DIFrameworks
internal import DIParts
internal import OrderModel

/// Tells customers what happened to their order, by e-mail and text message.
///
/// Notifications has no ``OrderModel/AuditLog`` of its own: it imports
/// ``Billing/BillingFramework``, so its notifier writes into Billing's ledger, though
/// Inventory registers a ledger too.
///
/// ```swift
/// let container = DIContainer().append(framework: NotificationsFramework.self)
/// let notifications: any NotificationService = container.resolve()
/// ```
public final class NotificationsFramework: DIFramework {
  /// Imports Billing, appends the messaging part and registers the notifier.
  ///
  /// - Parameter container: The container the framework is appended to.
  ///
  /// ```swift
  /// container.append(framework: NotificationsFramework.self)  // also appends Billing, Inventory
  /// ```
  public static func load(container: DIContainer) {
    container.import(BillingFramework.self)
    container.append(part: MessagingPart.self)
    container.register { Notifier(auditLog: $0, channels: manyInFramework($1)) }
      .as((any NotificationService).self)
  }
}
