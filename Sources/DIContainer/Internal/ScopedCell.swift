/// Where one component of a `.custom(scope)` lifetime meets its scope: the component's
/// ``DIStorageKey`` and the creation lock that makes concurrent first requests create one
/// instance.
///
/// Lives in the component's draft, so the key survives recompilation. Works like
/// ``InstanceCell``, except that the instance is kept by the scope's storage: a ready
/// instance costs one storage lookup; creation takes this component's creation lock only,
/// never a lock shared with other components, while the factory runs.
final class ScopedCell: Sendable {
  private struct Creation {
    var creator: ThreadIdentity?
    var partial: Instance?
  }

  let key: DIStorageKey
  private let state = Locked(Creation())
  private let creation = Lock()

  init(key: DIStorageKey) {
    self.key = key
  }

  /// The instance `scope` keeps for this component, or the one `make` creates (and the
  /// scope then keeps).
  func instance(
    in scope: DIScope, hook: CleanHook?,
    _ make: (_ publish: (Any) -> Void) throws(DIError) -> Any,
    onCycle: () -> DIError
  ) throws(DIError) -> Any {
    if let ready = scope.instance(for: key) { return ready.value }
    let me = ThreadIdentity.current
    let (creator, partial) = state.withLock { ($0.creator, $0.partial) }
    var waits = false
    if let creator {
      // Made so far on this thread (a cycle through injections), or by a thread that waits
      // for this one: served as on one thread, rather than deadlocking.
      if creator == me || !CreationWaits.begin(me, waitingFor: creator) {
        guard let partial else { throw onCycle() }
        return partial.value
      }
      waits = true
    }
    return try creation.withLock { () throws(DIError) -> Instance in
      if waits { CreationWaits.end(me) }
      if let ready = scope.instance(for: key) { return ready }
      state.withLock { $0.creator = me }
      defer { state.withLock { $0 = Creation() } }
      let value = try make { partial in
        state.withLock { $0.partial = Instance(value: partial) }
      }
      let instance = Instance(value: value)
      scope.keep(instance, for: key, hook: hook)
      return instance
    }.value
  }
}
