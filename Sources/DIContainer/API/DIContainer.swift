import Synchronization

/// A dependency-injection container: it holds registrations and makes the objects they
/// describe, with their dependencies, for the lifetime each one asks for.
///
/// ```swift
/// let container = DIContainer()
/// container.register(Cat.init).as(Animal.self).lifetime(.perContainer(.single))
/// let animal: Animal = container.resolve()
/// ```
///
/// Every method is thread-safe: any number of threads may register, resolve and clean at
/// once. Requests read an immutable snapshot of the registrations without taking a lock
/// shared with other requests; a registration makes the next request publish a new one.
///
/// The module and this class share the name `DIContainer`; to name another type of the
/// module where a local type hides it, use the module selector: `DIContainer::Provider`.
public final class DIContainer: Sendable {
  let registry = Locked(Registry())
  /// The request scopes of ``scope(for:)``, one per owner object.
  let ownerScopes = AssociatedStorage()
  /// The last published snapshot; nil after a registration changes, until the next request.
  private let published = Atomic<Unmanaged<Snapshot>?>(nil)

  /// Creates an empty container.
  ///
  /// ```swift
  /// let container = DIContainer()
  /// ```
  public init() {}

  /// The registrations as requests read them.
  var snapshot: Snapshot {
    unmanagedSnapshot.takeUnretainedValue()
  }

  /// The registrations as requests read them, without a reference count: the container
  /// keeps every snapshot it published for as long as it lives.
  var unmanagedSnapshot: Unmanaged<Snapshot> {
    if let published = published.load(ordering: .acquiring) { return published }
    return .passUnretained(publishSnapshot())
  }

  private func publishSnapshot() -> Snapshot {
    registry.withLock { registry in
      if let published = published.load(ordering: .acquiring) {
        return published.takeUnretainedValue()
      }
      let snapshot = Snapshot(components: registry.compile(), imports: registry.imports)
      registry.snapshots.append(snapshot)
      published.store(Unmanaged.passUnretained(snapshot), ordering: .releasing)
      return snapshot
    }
  }

  /// Changes the registry and retires the published snapshot.
  func edit<Result: Sendable>(_ change: (inout Registry) -> Result) -> Result {
    registry.withLock { registry in
      let result = change(&registry)
      published.store(nil, ordering: .releasing)
      return result
    }
  }
}
