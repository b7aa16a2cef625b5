public import DIContainer

/// A module of an application: a group of registrations (and parts) that decides, by
/// modularity, which implementation its own components get.
///
/// ```swift
/// final class BillingFramework: DIFramework {
///   static func load(container: DIContainer) {
///     container.register(Invoicer.init).lifetime(.perFramework(.single))
///   }
/// }
/// container.append(framework: BillingFramework.self)
/// ```
public protocol DIFramework {
  /// Registers the framework's components, parts and imports.
  ///
  /// - Parameter container: The container the framework is appended to.
  static func load(container: DIContainer)
}
