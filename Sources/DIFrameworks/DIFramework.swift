public import DIContainer

/// A module of an application: a group of registrations (and parts) that decides, by
/// modularity, which implementation its own components get.
///
/// A framework loads once per container, however often it is appended or imported.
/// Every component its ``load(container:)`` registers — directly or through the parts it
/// appends — belongs to it; a framework appended inside another one owns its own
/// components. When a service has several candidates, a component of the framework gets
/// the framework's own candidate first, then one of the frameworks it imports (one level
/// deep), then the `.default()` one.
///
/// ```swift
/// final class BillingFramework: DIFramework {
///   static func load(container: DIContainer) {
///     container.import(CoreFramework.self)
///     container.append(part: StoragePart.self)
///     container.register(Invoicer.init).lifetime(.perFramework(.single))
///   }
/// }
/// container.append(framework: BillingFramework.self)
/// ```
public protocol DIFramework {
  /// Registers the framework's components, parts and imports.
  ///
  /// Called by `append(framework:)` (or `import(_:)`) at most once per container.
  ///
  /// - Parameter container: The container the framework is appended to.
  ///
  /// ```swift
  /// final class BillingFramework: DIFramework {
  ///   static func load(container: DIContainer) {
  ///     container.import(CoreFramework.self)
  ///     container.register(Invoicer.init)
  ///   }
  /// }
  /// ```
  static func load(container: DIContainer)
}
