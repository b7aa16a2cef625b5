/// The usual ``DIStorage``: keeps every value until ``clean()``.
///
/// ```swift
/// let session = DIScope(name: "Session", storage: DICacheStorage(), policy: .single)
/// ```
public final class DICacheStorage: DIStorage {
  private let values = Locked<[DIStorageKey: DIStorageValue]>([:])

  /// Creates an empty storage.
  ///
  /// ```swift
  /// let storage = DICacheStorage()
  /// ```
  public init() {}

  /// The value kept for `key`.
  ///
  /// - Parameter key: The component.
  /// - Returns: The kept value, or nil.
  ///
  /// ```swift
  /// let kept = storage.value(for: key)
  /// ```
  public func value(for key: DIStorageKey) -> DIStorageValue? {
    values.withLock { $0[key] }
  }

  /// Keeps `value` for `key`.
  ///
  /// - Parameters:
  ///   - value: The instance, boxed.
  ///   - key: The component.
  ///
  /// ```swift
  /// storage.setValue(value, for: key)
  /// ```
  public func setValue(_ value: DIStorageValue, for key: DIStorageKey) {
    // The replaced value is released after the lock.
    _ = values.withLock { $0.updateValue(value, forKey: key) }
  }

  /// Forgets every value.
  ///
  /// ```swift
  /// storage.clean()
  /// ```
  public func clean() {
    // The values are released after the lock.
    _ = values.withLock { values in
      let dropped = values
      values = [:]
      return dropped
    }
  }

  /// Forgets every value and returns them, so the scope runs their `onClean` hooks.
  ///
  /// - Returns: The values that were kept.
  ///
  /// ```swift
  /// let dropped = storage.removeAll()
  /// ```
  public func removeAll() -> [DIStorageValue] {
    let dropped = values.withLock { values in
      let dropped = values
      values = [:]
      return dropped
    }
    return Array(dropped.values)
  }

  /// Forgets the value kept for `key` and returns it, so the scope runs its `onClean`
  /// hook.
  ///
  /// - Parameter key: The component.
  /// - Returns: The value that was kept, or nil.
  ///
  /// ```swift
  /// let dropped = storage.removeValue(for: key)
  /// ```
  public func removeValue(for key: DIStorageKey) -> DIStorageValue? {
    values.withLock { $0.removeValue(forKey: key) }
  }

  /// How many values are kept (weak ones that died included).
  ///
  /// ```swift
  /// print(storage.count)
  /// ```
  public var count: Int {
    values.withLock { $0.count }
  }
}
