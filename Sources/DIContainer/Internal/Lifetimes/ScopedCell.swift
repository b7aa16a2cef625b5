/// Where one component of a `.custom(scope)` lifetime meets its scope: the component's
/// ``DIStorageKey`` and the record of a making under way.
///
/// Lives in the component's draft, so the key survives recompilation. The instance is
/// kept by the scope's storage, which the library never calls while holding a lock: a
/// ready instance costs one storage lookup; a miss goes through ``CreateOnce``, so
/// concurrent first requests make one instance.
final class ScopedCell: Sendable {
  struct State: CreationState {
    var making: Making?
    /// The makings of an async component's instance, one at a time (``asyncOnce``).
    fileprivate var asyncOnce: AsyncOnce?

    /// Never `.ready`: the scope's storage keeps the instance, and is asked outside the
    /// lock, before and after claiming the making.
    subscript(_: Void) -> Creation {
      making.map(Creation.making) ?? .absent
    }

    subscript(making _: Void) -> Making? {
      get { making }
      set { making = newValue }
    }

    func _checkInvariants() {
      #if DI_INTERNAL_CHECKS
        making?._checkInvariants()
      #endif
    }
  }

  let key: DIStorageKey
  private let state = Locked(State())

  init(key: DIStorageKey) {
    self.key = key
  }

  /// One making at a time of an async component's instance for this key, across tasks.
  var asyncOnce: AsyncOnce {
    state.withLock { AsyncOnce.shared(in: &$0.asyncOnce) }
  }

  /// The instance `scope` keeps for this component, or the one `make` creates (and the
  /// scope then keeps; an incomplete one only once `request` settles it, see
  /// ``InstanceCell/instance(for:hook:_:)``).
  ///
  /// - Parameter retired: The component's container shut down (its scopes were dropped):
  ///   an instance made now is the request's only, its hook run at once, as a retired
  ///   cell's is.
  func instance(
    in scope: DIScope, hook: CleanHook?, for request: ResolutionRequest, retired: Bool,
    _ make: (_ publish: (Any) -> Void) throws(DIError) -> (Any, complete: Bool)
  ) throws(DIError) -> Any {
    if let ready = try scope.instance(for: key) { return ready.value }
    let key = key
    let keep = { (instance: Instance) in
      if retired {
        Teardown.drop(instance, sequence: Teardown.nextSequence(), hook: hook)
      } else {
        scope.keep(instance, for: key, hook: hook)
      }
    }
    let (instance, _) = try CreateOnce.valueOrOpen(
      in: state, key: (), for: request,
      make: { (publisher) throws(DIError) -> (Instance, complete: Bool) in
        // Made by the request that held the making before this one claimed it.
        if let ready = try scope.instance(for: key) { return (ready, true) }
        let (value, complete) = try make { publisher($0) }
        let instance = Instance(value: value)
        // The storage is called outside every lock of the library.
        if complete { keep(instance) }
        return (instance, complete)
      },
      store: { _, _ in () },
      leaveOpen: { instance, making in
        let keepIt = keep
        request.leaveOpen { keep in
          if keep { keepIt(instance) }
          making.abandon()  // Ends the making: the storage has the instance, or nothing.
          // Dropped by a request that backs off: its factory ran.
          if !keep, request.backoff != nil {
            Teardown.drop(instance, sequence: Teardown.nextSequence(), hook: hook)
          }
        }
      },
      drop: { Teardown.drop($0, sequence: Teardown.nextSequence(), hook: hook) })
    return instance.value
  }
}
