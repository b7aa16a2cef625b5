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
  /// The current snapshot, unretained (the registry keeps it); nil after a registration
  /// changes, until the next request publishes a new one.
  private let published = SnapshotPublication()
  /// The container whose registrations this one falls back on, if it is a child.
  @usableFromInline let parent: DIContainer?
  /// Whether a registration of this container is async (an async factory, injection or
  /// `postInit`): set at the registration, never cleared. An asynchronous request of a
  /// container where none is, nor in its parents, needs no plan (see ``AsyncPlan``).
  @usableFromInline let registersAsyncComponents = Atomic<Bool>(false)
  /// Whether every async component this container's requests can meet was found made and
  /// kept, and when (see ``keepsEveryAsyncInstance()``).
  let asyncInstancesVerdict = Atomic<UInt>(0)
  /// The request scopes this container opened that are still open, for ``shutdown()``.
  let openScopes = OpenScopes()
  /// The last module ``hasLoaded(_:)`` found loaded, as ``DIModuleID/bits``: a module
  /// stays loaded, so a request on behalf of the same framework as the last one checks
  /// with one load, with no lock and no hashing.
  let lastLoadedModule = Atomic<UInt>(0)
  /// The lifetime of the registrations made in this container that never call
  /// ``DIComponentBuilder/lifetime(_:)``: ``DILifetime/prototype`` unless the container was
  /// made with another one, or is the child of a container that was.
  ///
  /// ```swift
  /// let container = DIContainer(defaultLifetime: .objectGraph)
  /// print(container.defaultLifetime)   // objectGraph
  /// ```
  public let defaultLifetime: DILifetime

  /// Creates an empty container, whose registrations are ``DILifetime/prototype`` unless
  /// they set a lifetime.
  ///
  /// ```swift
  /// let container = DIContainer()
  /// ```
  public convenience init() {
    self.init(defaultLifetime: .prototype)
  }

  /// Creates an empty container whose registrations have `defaultLifetime` unless they set
  /// a lifetime of their own (Swinject's `defaultObjectScope`).
  ///
  /// Every registration made in this container gets it when it is made, those of the
  /// frameworks and parts appended to it too, synchronous and async factories alike; a
  /// later ``DIComponentBuilder/lifetime(_:)`` replaces it. Graph validation, `clean()` and
  /// the other cleans see the lifetime a registration ended with. A
  /// ``DILifetime/custom(name:)`` default names a scope of this container, as it does in
  /// `lifetime(_:)`.
  ///
  /// - Parameter defaultLifetime: The lifetime of registrations that set none.
  ///
  /// ```swift
  /// let container = DIContainer(defaultLifetime: .perContainer(.single))
  /// container.register(Config.init)                        // one per container
  /// container.register(Request.init).lifetime(.prototype)  // its own lifetime wins
  /// ```
  public init(defaultLifetime: DILifetime) {
    parent = nil
    self.defaultLifetime = defaultLifetime
    // The first container checks the runtime-layout reads before any resolution uses them.
    _ = UnsafeRuntimeLayout.checked
  }

  /// Creates a child of `parent`: a container that resolves from its own registrations
  /// first and then from its parent's, sharing the parent's cached instances.
  ///
  /// The candidate rules apply within each level, the child's first: when the child has
  /// candidates for a service, the parent's are not considered (two child candidates
  /// without `.default()` are ambiguous; a child's plain candidate beats a parent's
  /// `.test()`). A parent's `.prototype` and `.objectGraph` components resolved through
  /// the child see the child's registrations, so an override reaches deep into the
  /// graph; a parent's cached instances are made by the parent from its own
  /// registrations, so an override never leaks into an instance the parent shares. `many`
  /// collects the child's components, then the parent's.
  ///
  /// A parent never sees a child's registrations; `clean()` of a child drops only the
  /// child's instances; a child keeps its parent alive. Frameworks, parts, request scopes
  /// and graph validation work in a child (validating it includes what it resolves from
  /// its parent).
  ///
  /// The child's registrations that set no lifetime get `defaultLifetime`, or the parent's
  /// ``defaultLifetime`` when it is nil (see ``init(defaultLifetime:)``); the parent's
  /// registrations keep theirs.
  ///
  /// - Parameters:
  ///   - parent: The container to fall back on.
  ///   - defaultLifetime: The lifetime of the child's registrations that set none; nil
  ///     inherits the parent's.
  ///
  /// ```swift
  /// let tenant = DIContainer(parent: container)
  /// tenant.register(TenantStore.init).as(Store.self)   // overrides the parent's Store here
  /// let store: Store = tenant.resolve()
  /// let perTest = DIContainer(parent: container, defaultLifetime: .perContainer(.single))
  /// ```
  public init(parent: DIContainer, defaultLifetime: DILifetime? = nil) {
    self.parent = parent
    self.defaultLifetime = defaultLifetime ?? parent.defaultLifetime
    parent.registry.withLock { registry in
      registry.children.removeAll { $0.object == nil }
      registry.children.append(WeakReference(self))
    }
  }

  /// The registrations as requests read them, retained: for everything but requests,
  /// which read them through ``UnsafeSnapshotAccess``.
  var snapshot: Snapshot {
    // What the lock returns is released after it: a freed snapshot may release user closures.
    let (snapshot, _) = registry.withLock { registry in currentSnapshot(&registry) }
    return snapshot
  }

  /// The published snapshot, published now if there is none.
  @inline(__always)
  var publishedSnapshot: Unretained<Snapshot> {
    published.snapshot { snapshot }
  }

  /// The published snapshot, if there is one now.
  @inline(__always)
  var currentlyPublished: Unretained<Snapshot>? {
    published.current
  }

  /// The current snapshot, compiled and published now if the registrations changed; and
  /// the replaced snapshots that no request reads any more, for the caller to release
  /// after the lock.
  private func currentSnapshot(_ registry: inout Registry) -> (Snapshot, [Snapshot]) {
    if let current = registry.current, published.isPublished {
      return (current, [])
    }
    // A child reads its parent's snapshot under its own lock (never the other way round:
    // a parent tells its children about a registration after releasing its lock).
    let parentSnapshot = parent?.snapshot
    let snapshot =
      registry.isShutDown
      ? Snapshot(components: [], imports: [:], isShutDown: true)
      : Snapshot(
        components: registry.compile(for: self),
        imports: Self.imports(registry.imports, inheriting: parentSnapshot),
        loaded: registry.loaded,
        parent: parent.map { Snapshot.Level(container: $0, snapshot: parentSnapshot!) },
        hasAsyncComponents: registry.hasAsyncComponents)
    if let replaced = registry.current { registry.retired.append(replaced) }
    registry.current = snapshot
    if !registry.asyncReach.isEmpty { registry.asyncReach = [:] }
    // Before publishing: a request that finds this snapshot published finds a verdict found
    // on the replaced one outdated (see ``keepsEveryAsyncInstance()``).
    KeptAsyncInstances.changed()
    published.publish(snapshot)
    return (snapshot, Self.reclaimSnapshots(&registry.retired))
  }

  /// Removes from `retired` the snapshots that no thread's request reads (see
  /// ``UnsafeSnapshotAccess``) and returns them.
  static func reclaimSnapshots(_ retired: inout [Snapshot]) -> [Snapshot] {
    guard !retired.isEmpty else { return [] }
    let read = ResolutionRequest.all.withLock { requests in
      Set(requests.values.map { $0.hazard.load(ordering: .sequentiallyConsistent) })
    }
    var freed: [Snapshot] = []
    retired.removeAll { snapshot in
      let bits = Unretained(snapshot).address
      guard !read.contains(bits) else { return false }
      freed.append(snapshot)
      return true
    }
    return freed
  }

  /// Changes the registry and retires the published snapshot, this container's and its
  /// children's (theirs include this one's registrations).
  func edit<Result: Sendable>(_ change: (inout Registry) -> Result) -> Result {
    let (result, children) = registry.withLock { registry in
      let result = change(&registry)
      if registry.hasAsyncComponents { registersAsyncComponents.store(true, ordering: .relaxed) }
      published.withdraw()
      return (result, registry.children.isEmpty ? [] : registry.children.compactMap(\.object))
    }
    for case let child as DIContainer in children { child.retireSnapshot() }
    return result
  }

  /// The imports of a child's frameworks and of its parents' (a framework appended to a
  /// child may import one its parent loaded).
  private static func imports(
    _ own: [DIModuleID: Set<DIModuleID>], inheriting parent: Snapshot?
  ) -> [DIModuleID: Set<DIModuleID>] {
    guard let parent, !parent.imports.isEmpty else { return own }
    return own.merging(parent.imports) { $0.union($1) }
  }

  /// Retires the published snapshot, because the parent's registrations changed: under
  /// the lock, so a snapshot being made now from the parent's old registrations is
  /// retired once published.
  private func retireSnapshot() {
    edit { _ in }
  }
}
