public import DIContainer

/// A group of registrations loaded into a container together.
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
  /// - Parameter container: The container the part is appended to.
  static func load(container: DIContainer)
}
