/// Where a ``DIScope`` keeps its instances: implement it to make a scope forget its
/// instances after a time, beyond a size, or by any rule you like.
///
/// The scope asks for a value with ``value(for:)`` at every request; on a miss it makes the
/// instance (one at a time per component, so concurrent first requests make one instance)
/// and hands it to ``setValue(_:for:)``. Values are opaque `Sendable` boxes, so a storage
/// is written with a `Mutex` and no unsafe code. Methods are called from any thread; none
/// is called while the scope holds a lock. Release dropped values after your own lock is
/// released: an instance's `deinit` may use the container. (On Linux, ThreadSanitizer does
/// not see a contended `Mutex`'s hand-off and reports a race; the library's own storages
/// use a lock of their own, built on atomics and pthread calls that it sees, for that
/// reason.)
///
/// ```swift
/// import Synchronization
///
/// final class ExpiringStorage: DIStorage {
///   private let entries = Mutex<[DIStorageKey: (DIStorageValue, ContinuousClock.Instant)]>([:])
///   let lifetime: Duration
///   init(lifetime: Duration) { self.lifetime = lifetime }
///
///   func value(for key: DIStorageKey) -> DIStorageValue? {
///     entries.withLock { entries in
///       guard let (value, made) = entries[key] else { return nil }
///       return made.duration(to: .now) < lifetime ? value : nil
///     }
///   }
///   func setValue(_ value: DIStorageValue, for key: DIStorageKey) {
///     let old = entries.withLock { $0.updateValue((value, .now), forKey: key) }
///     _ = old   // released here, outside the lock
///   }
///   func clean() {
///     let old = entries.withLock { entries in
///       defer { entries = [:] }
///       return entries
///     }
///     _ = old
///   }
/// }
/// ```
public protocol DIStorage: Sendable {
  /// The value kept for `key`, or nil to make a new one.
  ///
  /// - Parameter key: The component whose instance is asked for.
  /// - Returns: The value last given to ``setValue(_:for:)`` for `key`, unless forgotten.
  ///
  /// ```swift
  /// let kept = storage.value(for: key)
  /// ```
  func value(for key: DIStorageKey) -> DIStorageValue?

  /// Keeps `value` for `key`, replacing any value kept for it.
  ///
  /// - Parameters:
  ///   - value: The new instance, boxed.
  ///   - key: The component it belongs to.
  ///
  /// ```swift
  /// storage.setValue(value, for: key)
  /// ```
  func setValue(_ value: DIStorageValue, for key: DIStorageKey)

  /// Forgets every value; called by ``DIScope/clean()`` through the default
  /// ``removeAll()``.
  ///
  /// ```swift
  /// storage.clean()
  /// ```
  func clean()

  /// Forgets every value and returns them, so the scope runs their `onClean` hooks
  /// (``DIComponentBuilder/onClean(_:)-3sk0e``); called by ``DIScope/clean()``.
  ///
  /// Return each forgotten value once: its hook runs once per value returned. The default
  /// implementation calls ``clean()`` and returns nothing, so no hook runs for a storage
  /// that does not implement it. Values a storage forgets on its own (expired, evicted,
  /// replaced) run no hook either.
  ///
  /// - Returns: The values that were kept.
  ///
  /// ```swift
  /// extension ExpiringStorage {
  ///   func removeAll() -> [DIStorageValue] {
  ///     let old = entries.withLock { entries in
  ///       defer { entries = [:] }
  ///       return entries
  ///     }
  ///     return old.values.map(\.0)
  ///   }
  /// }
  /// ```
  func removeAll() -> [DIStorageValue]

  /// Forgets the value kept for `key`, if any, and returns it, so the scope runs its
  /// `onClean` hook; called by ``DIContainer/clean(_:)`` for one component's instance.
  ///
  /// The default implementation forgets nothing and returns nil: ``DIContainer/clean(_:)``
  /// then leaves the instance in the storage and logs a warning.
  ///
  /// - Parameter key: The component whose instance to forget.
  /// - Returns: The value that was kept for `key`, or nil.
  ///
  /// ```swift
  /// extension ExpiringStorage {
  ///   func removeValue(for key: DIStorageKey) -> DIStorageValue? {
  ///     entries.withLock { $0.removeValue(forKey: key) }?.0
  ///   }
  /// }
  /// ```
  func removeValue(for key: DIStorageKey) -> DIStorageValue?
}

extension DIStorage {
  /// Calls ``clean()`` and returns no value, so no `onClean` hook runs: implement it in your
  /// storage to have them run.
  ///
  /// ```swift
  /// _ = storage.removeAll()   // the same as storage.clean() here
  /// ```
  public func removeAll() -> [DIStorageValue] {
    clean()
    return []
  }

  /// Forgets nothing and returns nil: implement it in your storage so that
  /// ``DIContainer/clean(_:)`` drops one component's instance from it.
  ///
  /// - Parameter key: The component whose instance to forget.
  /// - Returns: nil.
  ///
  /// ```swift
  /// _ = storage.removeValue(for: key)   // nil: nothing is forgotten here
  /// ```
  public func removeValue(for key: DIStorageKey) -> DIStorageValue? {
    nil
  }
}

/// Identifies one component (one registration in one container) in a ``DIStorage``.
///
/// Opaque: compare and hash it, print it for logs. Two registrations never share a key,
/// even when the first one's container is gone.
///
/// ```swift
/// var kept: [DIStorageKey: DIStorageValue] = [:]
/// kept[key] = value
/// print(key)   // Cart (Sources/App/Wiring.swift:12)
/// ```
public struct DIStorageKey: Hashable, Sendable, CustomStringConvertible {
  /// A unique object per registration: holding it keeps its identity from being reused.
  final class Token: Sendable {
    let name: String
    init(name: String) { self.name = name }
  }

  let token: Token

  init(name: String) {
    token = Token(name: name)
  }

  /// Whether both keys name the same registration.
  ///
  /// ```swift
  /// if key == lastKey { print("same component") }
  /// ```
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.token === rhs.token
  }

  /// Hashes the registration's identity, so keys work in sets and dictionaries.
  ///
  /// ```swift
  /// var seen: Set<DIStorageKey> = []
  /// if seen.insert(key).inserted { print("first time") }
  /// ```
  public func hash(into hasher: inout Hasher) {
    hasher.combine(ObjectIdentifier(token))
  }

  /// The component's type and registration `file:line`.
  ///
  /// ```swift
  /// print(key.description)   // Cart (Sources/App/Wiring.swift:12)
  /// ```
  public var description: String { token.name }
}

/// An instance as a ``DIStorage`` keeps it: an opaque `Sendable` box.
///
/// For a scope with the `.weak` policy the box holds the instance weakly; ``isAlive``
/// tells whether it is still there, so a storage may purge dead boxes.
///
/// ```swift
/// entries = entries.filter { $0.value.isAlive }
/// ```
public struct DIStorageValue: Sendable {
  enum Content: Sendable {
    case strong(Instance)
    case weak(WeakReference)
  }

  let content: Content
  /// The component the instance was made for: a storage that hands it out for another
  /// key is caught, so an instance never comes out as another component's type.
  let key: DIStorageKey
  /// The component's `onClean` hook, if any, and when the instance was stored.
  let hook: CleanHook?
  let sequence: UInt64

  /// Boxes `instance`, weakly when `weak`; nil when `weak` and it is not an object.
  init?(_ instance: Instance, for key: DIStorageKey, weak: Bool, hook: CleanHook? = nil) {
    self.key = key
    self.hook = hook
    sequence = Teardown.nextSequence()
    if weak {
      guard let object = classInstance(instance.value) else { return nil }
      content = .weak(WeakReference(object))
    } else {
      content = .strong(instance)
    }
  }

  /// The instance, unless it was held weakly and is gone.
  var instance: Instance? {
    switch content {
    case .strong(let instance): instance
    case .weak(let reference): reference.object.map { Instance(value: $0) }
    }
  }

  /// What dropping this value runs: its hook on its instance, unless there is no hook or
  /// the instance is gone.
  var teardown: Teardown? {
    guard let hook, let instance else { return nil }
    return Teardown(instance: instance, sequence: sequence, hook: hook)
  }

  /// Whether the instance is still there (always true for a `.single` scope).
  ///
  /// ```swift
  /// let dead = entries.filter { !$0.value.isAlive }.keys
  /// ```
  public var isAlive: Bool { instance != nil }
}
