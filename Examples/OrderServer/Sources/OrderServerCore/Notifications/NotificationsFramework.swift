public import DIContainer
public import DIFrameworks

/// Customer messages. Imports Billing and registers no pool: its notifier gets Billing's.
///
/// ```swift
/// container.append(framework: NotificationsFramework.self)
/// let notifier: any Notifier = try await container.resolveAsync()
/// ```
public final class NotificationsFramework: DIFramework {
  /// Imports Billing and registers the notifier.
  ///
  /// - Parameter container: The container the framework is appended to.
  public static func load(container: DIContainer) {
    container.import(BillingFramework.self)
    container.register(EmailNotifier.init).as((any Notifier).self)
      .lifetime(.perFramework(.single))
  }
}
