internal import Billing
public import DIContainer
public import DIFrameworks
internal import Inventory
internal import Notifications
internal import OrderModel

/// How the sample composes its container: three frameworks, the tracker, the pipeline.
///
/// ```swift
/// let container = SampleContainer.make()
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
}
