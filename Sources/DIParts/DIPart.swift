public import DIContainer

/// A group of registrations loaded into a container together.
///
/// A part loads once per container, however often it is appended. Every component its
/// ``load(container:)`` registers belongs to the part (for `.perPart` lifetimes and
/// `clean(part:)`) and to the framework whose `load` appended
/// it, if any (for modularity). A part that appends a framework does not own that
/// framework's components.
///
/// ```swift
/// final class StoragePart: DIPart {
///   static func load(container: DIContainer) {
///     container.register(FileStore.init).as(Store.self).lifetime(.perPart(.single))
///   }
/// }
/// container.append(part: StoragePart.self)
/// ```
public protocol DIPart {
  /// Registers the part's components.
  ///
  /// Called by `append(part:)` at most once per container.
  ///
  /// - Parameter container: The container the part is appended to.
  ///
  /// ```swift
  /// final class StoragePart: DIPart {
  ///   static func load(container: DIContainer) {
  ///     container.register(FileStore.init).as(Store.self)
  ///   }
  /// }
  /// ```
  static func load(container: DIContainer)
}
