/// An append-only record of what a framework did.
///
/// Inventory and Billing each register their own; a framework that has none gets the one
/// of the framework it imports. No tags, no names: modularity decides.
///
/// ```swift
/// let log: any AuditLog = container.resolve(from: BillingFramework.self)
/// log.record("Billing: charged #1 $48.60")
/// ```
public protocol AuditLog: Resource {
  /// Appends an entry.
  ///
  /// - Parameter entry: What happened, prefixed by who wrote it (`"Billing: …"`).
  ///
  /// ```swift
  /// log.record("Inventory: reserved #1")
  /// ```
  func record(_ entry: String)

  /// Every entry so far, oldest first.
  ///
  /// ```swift
  /// print(log.entries.count)
  /// ```
  var entries: [String] { get }
}
