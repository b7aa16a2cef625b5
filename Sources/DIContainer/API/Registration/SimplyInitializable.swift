/// A value ``AssociatedStorage`` can make by itself, with `init()`.
///
/// ```swift
/// final class Dependent: SimplyInitializable {
///   init() {}
/// }
/// let dependent: Dependent = storage.get(for: owner)
/// ```
///
/// A type that conforms to both this protocol and ``KeyObjectInitializable`` makes
/// `storage.get(for:)` ambiguous; pass the closure of ``AssociatedStorage/get(for:_:)``.
public protocol SimplyInitializable {
  /// Makes a value with no input.
  ///
  /// ```swift
  /// let dependent = Dependent()
  /// ```
  init()
}

/// A value ``AssociatedStorage`` can make from its key object, with `init(with:)`.
///
/// ```swift
/// final class Dependent: KeyObjectInitializable {
///   init(with keyObject: Owner) {}
/// }
/// let dependent: Dependent = storage.get(for: owner)
/// ```
///
/// The value should not keep a strong reference to its key object: the storage releases
/// the value once the key object is gone, which such a reference would never let happen.
public protocol KeyObjectInitializable {
  /// The type of the key objects this value is made for.
  associatedtype KeyObject: AnyObject

  /// Makes the value associated with `keyObject`.
  ///
  /// - Parameter keyObject: The object the value is associated with.
  ///
  /// ```swift
  /// let dependent = Dependent(with: owner)
  /// ```
  init(with keyObject: KeyObject)
}
