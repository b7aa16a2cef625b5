/// The objects of one request (or job, or connection): the `.scoped` instances, made once
/// per scope and dropped, with their `onClean` hooks, when the scope closes.
///
/// Made by ``DIContainer/makeScope()`` (you close it) or ``DIContainer/scope(for:)`` (one
/// per owner object, closed once the owner is gone). A scope is cheap: it shares the
/// container's registrations, and it reuses the lock and the table of `.scoped` instances
/// of a closed scope that is gone, so a scope per request allocates only itself once the
/// first few requests are served.
///
/// A scope resolves like its container (``resolve(file:line:)``, `T?`, `many`, `by(tag:on:)`,
/// runtime arguments). Within it, a ``DILifetime/scoped`` component has one instance;
/// every other lifetime is served by the container as usual, so a `.perContainer`
/// instance resolved in a scope is the container's and outlives the scope. A `Lazy` or
/// `Provider` made in a scope resolves in that scope later; it holds the scope weakly,
/// and using it once the scope is closed or gone is a ``DIError``.
///
/// Thread-safe: threads may resolve in one scope at once (each `.scoped` instance is still
/// made once) while others close it. After ``close()``, every resolve is a ``DIError``.
/// A scope released without `close()` closes itself as it goes.
///
/// ```swift
/// container.register(RequestLog.init).lifetime(.scoped)
/// container.register(Handler.init)                 // .prototype, gets the scope's log
///
/// let scope = container.makeScope()
/// let handler: Handler = scope.resolve()
/// handler.handle(request)
/// scope.close()                                    // drops the RequestLog, runs its onClean
/// ```
public final class DIRequestScope: Sendable {
  /// How a scope holds its container: strongly for ``DIContainer/makeScope()``, weakly
  /// for ``DIContainer/scope(for:)``, whose scopes the container itself keeps.
  enum ContainerReference: Sendable {
    case strong(DIContainer)
    case weak(WeakReference)
  }

  /// The making under way of a `.scoped` instance of this scope.
  struct KeyedMaking {
    let key: ObjectIdentifier
    var making: Making
  }

  struct State: CreationState, Sendable {
    /// The kept `.scoped` instances, by component.
    var instances = SmallIdentityMap<Instance>()
    /// The makings under way, apart from the instances: a look-up for one (each making
    /// ends with two) copies no instance. Searched from the start: they are few (one per
    /// `.scoped` component being made at once, which a graph of nested ones bounds by its
    /// depth), and appending or removing one costs less than in a map.
    var makings: [KeyedMaking] = []
    /// The kept instances that have `onClean` hooks, to run when the scope closes.
    var teardowns: [Teardown] = []
    var isClosed = false
    /// One making at a time of each async `.scoped` component's instance in this scope.
    var asyncOnces: [ObjectIdentifier: AsyncOnce] = [:]
    /// The instance storage of this state's last scope, emptied when it closed, for the
    /// next scope to reuse (see ``OpenScopes``).
    var spareInstances: SmallIdentityMap<Instance>?
    /// The storage of an earlier scope's teardowns, emptied once its hooks ran: the next
    /// scope to close takes it in place of the teardowns it hands out, so a scope per
    /// request whose instances have hooks allocates no array for them.
    var spareTeardowns: [Teardown]?

    /// Makes this state, closed and held by nobody else, a new scope's, when it keeps no
    /// instance. Its async makings' coordinators go: no request can reach them through
    /// this state any more, and they hold no instance.
    ///
    /// - Returns: Whether it is reopened (false: it still has something to release).
    mutating func reopen() -> Bool {
      guard isClosed, instances.isEmpty, makings.isEmpty, teardowns.isEmpty else {
        return false
      }
      asyncOnces.removeAll(keepingCapacity: true)
      if let spare = spareInstances.take() { instances = spare }
      isClosed = false
      _checkInvariants()
      return true
    }

    /// The making of `key` under way, else its kept instance (never both: a making starts
    /// only for a key that has no instance).
    subscript(key: ObjectIdentifier) -> Creation {
      if let index = makingIndex(key) { return .making(makings[index].making) }
      return instances[key].map(Creation.ready) ?? .absent
    }

    subscript(making key: ObjectIdentifier) -> Making? {
      @inline(__always) get { makingIndex(key).map { makings[$0].making } }
      @inline(__always) set {
        guard let index = makingIndex(key) else {
          if let newValue { makings.append(KeyedMaking(key: key, making: newValue)) }
          return
        }
        if let newValue {
          makings[index].making = newValue
        } else {
          removeMaking(at: index)
        }
      }
    }

    /// A closed scope makes no new instance.
    var refusal: DIError? { isClosed ? DIRequestScope.closedError : nil }

    /// Whether the instance of `key` is being made.
    func isMaking(_ key: ObjectIdentifier) -> Bool {
      makingIndex(key) != nil
    }

    /// Where the making of `key` is in `makings`. Searched from the end, with an index
    /// loop that reads the keys in place (`firstIndex(where:)` copied each making):
    /// makings usually end in the reverse order of their start.
    @inline(__always)
    private func makingIndex(_ key: ObjectIdentifier) -> Int? {
      var index = makings.count - 1
      while index >= 0, makings[index].key != key { index -= 1 }
      return index >= 0 ? index : nil
    }

    /// Removes the making at `index`, the last one usually (makings end in the reverse
    /// order of their start): the last takes its place.
    private mutating func removeMaking(at index: Int) {
      let last = makings.removeLast()
      if index < makings.count { makings[index] = last }
    }

    /// Keeps `instance` for `key`, unless the scope is closed: then it is refused, and
    /// the caller runs its hook. Called by the making of `key` that the caller's request
    /// claimed, before it ends: until then no other instance of `key` can be kept, so
    /// none is.
    ///
    /// - Returns: Whether the instance is kept.
    mutating func keep(_ instance: Instance, for key: ObjectIdentifier, hook: CleanHook?) -> Bool {
      guard !isClosed else { return false }
      instances.insertNew(instance, for: key)
      if let hook {
        teardowns.append(
          Teardown(instance: instance, sequence: Teardown.nextSequence(), hook: hook))
      }
      return true
    }

    func _checkInvariants() {
      #if DI_INTERNAL_CHECKS
        for (index, keyed) in makings.enumerated() {
          keyed.making._checkInvariants()
          precondition(instances[keyed.key] == nil, "a .scoped instance kept while being made")
          for earlier in makings[..<index] {
            precondition(earlier.key != keyed.key, "two makings of one .scoped instance")
            precondition(earlier.making.token != keyed.making.token, "two makings, one token")
          }
        }
        precondition(
          teardowns.count <= instances.entries.count, "a teardown without its kept instance")
        if isClosed {
          precondition(instances.isEmpty, "a closed scope keeps instances")
        }
      #endif
    }
  }

  let reference: ContainerReference
  let state: Locked<State>
  /// Where the container records this scope while it is open, for `shutdown()`.
  private let ticket: OpenScopes.Ticket

  init(container: DIContainer, holdingWeakly: Bool = false) {
    reference = holdingWeakly ? .weak(WeakReference(container)) : .strong(container)
    (state, ticket) = container.openScopes.open()
  }

  deinit {
    close()
  }

  /// Whether ``close()`` was called (or the scope's owner is gone, for
  /// ``DIContainer/scope(for:)``).
  ///
  /// ```swift
  /// scope.close()
  /// #expect(scope.isClosed)
  /// ```
  public var isClosed: Bool {
    state.withLock { $0.isClosed }
  }

  /// Drops the scope's `.scoped` instances and runs their `onClean` hooks, newest first
  /// (dependents before their dependencies); a hook that throws is logged and the others
  /// still run.
  ///
  /// Idempotent: a second call does nothing. The hooks run before the first call returns.
  /// Afterwards every resolve of this scope is a ``DIError``; an instance that another
  /// thread was making as the scope closed is dropped (its hook runs) and that resolve
  /// fails too.
  ///
  /// ```swift
  /// let scope = container.makeScope()
  /// defer { scope.close() }
  /// let handler: Handler = scope.resolve()
  /// ```
  public func close() {
    close { Teardown.run($0) }
  }

  /// Closes the scope like ``close()``, and returns once its instances' hooks, `async`
  /// ones included, have run.
  ///
  /// ```swift
  /// await scope.closeAwaitingHooks()
  /// ```
  @inlinable  // Hooks with nothing to await run with no suspension (Benchmarks/PROFILE.md).
  public func closeAwaitingHooks() async {
    guard let awaited = closeRunningSynchronousHooks() else { return }
    await awaited.run()
  }

  /// Closes the scope like ``close()`` and runs its instances' hooks now, when none of
  /// them has an `async` step; otherwise returns them, for
  /// ``closeAwaitingHooks()`` to await.
  @usableFromInline
  func closeRunningSynchronousHooks() -> AwaitedHooks? {
    var awaited: AwaitedHooks?
    close { teardowns in
      guard Teardown.mustAwait(teardowns) else { return Teardown.run(teardowns) }
      awaited = AwaitedHooks(teardowns: teardowns)
    }
    return awaited
  }

  /// Closes the scope and hands `hooks` the teardowns of the instances it dropped, after
  /// the scope's lock (nothing when it was closed already); their storage is kept then for
  /// the next scope of this state.
  private func close(runningHooks hooks: ([Teardown]) -> Void) {
    guard var (instances, teardowns) = Self.take(state) else { return }
    container?.openScopes.forget(ticket)
    hooks(teardowns)
    Self.keepStorage(of: &instances, &teardowns, in: state)
  }

  /// Closes the scope whose state is `state` and returns the teardowns of the instances
  /// it dropped (nil when it was closed already), for the caller to run: what
  /// `shutdown()` does with the scopes still open.
  static func drop(_ state: Locked<State>) -> [Teardown]? {
    guard let (taken, teardowns) = take(state) else { return nil }
    var instances = taken
    var handedOut: [Teardown] = []
    keepStorage(of: &instances, &handedOut, in: state)
    return teardowns
  }

  /// Closes the scope whose state is `state` and takes its instances and teardowns out
  /// (nil when it was closed already). Makings under way stay: each ends by finding the
  /// scope closed.
  private static func take(
    _ state: Locked<State>
  ) -> (SmallIdentityMap<Instance>, [Teardown])? {
    state.withLock { state in
      guard !state.isClosed else { return nil }
      state.isClosed = true
      var instances = SmallIdentityMap<Instance>()
      swap(&instances, &state.instances)
      // Most scopes' instances have no hooks: nothing to swap then.
      var teardowns: [Teardown] = []
      if !state.teardowns.isEmpty {
        teardowns = state.spareTeardowns.take() ?? []
        swap(&teardowns, &state.teardowns)
      }
      state._checkInvariants()
      return (instances, teardowns)
    }
  }

  /// Releases `instances` and `teardowns` here, after the lock, and keeps their emptied
  /// storage for the next scope of `state` when it is small.
  private static func keepStorage(
    of instances: inout SmallIdentityMap<Instance>, _ teardowns: inout [Teardown],
    in state: Locked<State>
  ) {
    let keepsInstances = instances.removeAllKeepingSmallStorage()
    // Storage that is not kept goes with the caller's copy.
    let keepsTeardowns = teardowns.capacity > 0 && teardowns.capacity <= keptTeardownCapacity
    if keepsTeardowns { teardowns.removeAll(keepingCapacity: true) }
    guard keepsInstances || keepsTeardowns else { return }
    state.withLock { state in
      if keepsInstances, state.spareInstances == nil { state.spareInstances = instances }
      if keepsTeardowns, state.spareTeardowns == nil { state.spareTeardowns = teardowns }
    }
  }

  /// The largest teardowns storage a closed scope keeps for the next.
  private static var keptTeardownCapacity: Int { 16 }
}
