internal import Billing
public import DIContainer
public import DIFrameworks
internal import Inventory
internal import Notifications
internal import OrderModel

/// How the sample composes its container: three frameworks, the tracker, the pipeline.
///
/// ```swift
/// let container = try await SampleContainer.start()
/// let stock: any StockService = container.resolve()
/// ```
public enum SampleContainer {
  /// The sample's frameworks, in the order the application appends them, with their names.
  ///
  /// ```swift
  /// for (name, framework) in SampleContainer.frameworks { print(name, framework) }
  /// ```
  public static var frameworks: [(name: String, type: any DIFramework.Type)] {
    [
      ("InventoryFramework", InventoryFramework.self),
      ("BillingFramework", BillingFramework.self),
      ("NotificationsFramework", NotificationsFramework.self),
    ]
  }

  /// Makes the sample's container.
  ///
  /// Billing imports Inventory and Notifications imports Billing, so appending
  /// `NotificationsFramework` alone would load all three; the application appends each
  /// anyway, and each loads once.
  ///
  /// - Parameter registersTracker: `false` leaves out the `ResourceTracker` every
  ///   resource needs, to show what validation reports.
  /// - Returns: A container with the three frameworks and the order pipeline (the root).
  ///
  /// ```swift
  /// let container = SampleContainer.make()
  /// ```
  public static func make(registersTracker: Bool = true) -> DIContainer {
    let container = DIContainer()
    if registersTracker {
      container.register(ResourceTracker.init).lifetime(.perContainer(.single))
    }
    container
      .append(framework: InventoryFramework.self)
      .append(framework: BillingFramework.self)
      .append(framework: NotificationsFramework.self)
    container.register(OrderPipeline.init).root()
    return container
  }

  /// Makes the sample's container and connects its pools, as a server does before it
  /// listens.
  ///
  /// The connection pools are made by async factories, which a synchronous `resolve()`
  /// cannot run. Resolving the root once with `resolveAsync()` awaits them; their
  /// `.perFramework` instances are then kept, so the commands' synchronous `resolve()`
  /// calls read them.
  ///
  /// - Returns: The container of ``make(registersTracker:)``, its pools connected.
  /// - Throws: The `DIError` of a pool that could not connect.
  ///
  /// ```swift
  /// let container = try await SampleContainer.start()
  /// // … serve …
  /// await container.shutdown()
  /// ```
  public static func start() async throws(DIError) -> DIContainer {
    let container = make()
    let _: OrderPipeline = try await container.resolveAsync()
    return container
  }
}
