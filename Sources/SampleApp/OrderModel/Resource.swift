/// Something a framework opens and must close: a connection pool, a ledger, a client.
///
/// The sample's frameworks register their resources as `Resource` too, so an application
/// can list a framework's own with `manyInFramework`, and with an `onClean` hook that
/// closes them (`.onClean { await $0.close() }` for a connection pool, which closes
/// asynchronously), so the container closes those a clean or `shutdown()` drops.
///
/// ```swift
/// let resources: [any Resource] = manyInFramework(container.resolve(from: BillingFramework.self))
/// for resource in resources { print(resource.label) }  // PaymentsDatabase#1, …
/// ```
public protocol Resource: AnyObject, Sendable {
  /// The resource's kind and serial number in its container, such as `PaymentsDatabase#1`.
  var label: String { get }

  /// Closes the resource; closing it again does nothing. A connection pool suspends while
  /// its connections close; the other resources close at once.
  ///
  /// ```swift
  /// await pool.close()
  /// ```
  func close() async
}
