/// Where one component keeps its cached instance (`.perContainer`, `.perApplication`,
/// `.single`, `.perFramework`, `.perPart`, and one set of arguments of a `.multiton`).
///
/// Reading a ready instance takes only this cell's short lock; making one goes through
/// ``CreateOnce``, so concurrent first requests make exactly one instance and no lock is
/// held while the factory runs.
///
/// Cleaning never loses an instance: an instance made while the cell is cleaned is kept
/// (the next clean drops it); a ``retire()``d cell (a `.multiton` cleaned) keeps nothing,
/// and its late instance comes back as a ``Teardown`` for the caller to run.
final class InstanceCell: Sendable {
  fileprivate enum Slot {
    case empty
    case strong(Instance)
    case weak(WeakReference)
  }

  struct State: CellCreationState {
    fileprivate var slot: Slot = .empty
    /// When the kept instance was stored (see ``Teardown/nextSequence()``).
    fileprivate var sequence: UInt64 = 0
    var currentMaking: Making?
    /// Set by ``retire()``: the cell is no longer reachable, so it keeps nothing more.
    fileprivate var isRetired = false

    var readyValue: Instance? {
      switch slot {
      case .empty: nil
      case .strong(let instance): instance
      case .weak(let reference): reference.object.map { Instance(value: $0) }
      }
    }
  }

  private let state = Locked(State())
  let isWeak: Bool

  init(weak: Bool) {
    self.isWeak = weak
  }

  /// The cached instance, if there is one.
  var current: Instance? {
    state.withLock { $0.readyValue }
  }

  /// The cached instance, or the one `make` creates for `request`.
  ///
  /// `make` receives a callback to publish the instance to its own request as soon as it
  /// exists, before its injections run.
  ///
  /// - Parameter hook: The component's `onClean`, run at once for an instance made for a
  ///   retired cell (which keeps nothing).
  func instance(
    for request: ResolutionRequest, hook: CleanHook?,
    _ make: (_ publish: (Any) -> Void) throws(DIError) -> Any
  ) throws(DIError) -> Any {
    let weak = isWeak
    let (instance, late) = try CreateOnce.value(
      in: state, key: (), for: request,
      make: { (publisher) throws(DIError) in Instance(value: try make { publisher($0) }) },
      store: { state, instance -> (Instance, UInt64)? in
        let sequence = Teardown.nextSequence()
        guard !state.isRetired else { return (instance, sequence) }
        if weak {
          state.slot = classInstance(instance.value).map { .weak(WeakReference($0)) } ?? .empty
        } else {
          state.slot = .strong(instance)
        }
        state.sequence = sequence
        return nil
      })
    if let (dropped, sequence) = late ?? nil, let hook {
      Teardown.run([Teardown(instance: dropped, sequence: sequence, hook: hook)])
    }
    return instance.value
  }

  /// Drops the cached instance and returns it with its creation stamp, so the caller runs
  /// its hook and releases it outside the lock. A weakly held instance that is gone is
  /// not returned.
  @discardableResult
  func clear() -> (instance: Instance, sequence: UInt64)? {
    state.withLock { state in
      let dropped = state.readyValue
      state.slot = .empty
      return dropped.map { ($0, state.sequence) }
    }
  }

  /// Drops the cached instance, like ``clear()``, and keeps nothing from now on: an
  /// instance whose making is under way is handed to its request and dropped at once.
  func retire() -> (instance: Instance, sequence: UInt64)? {
    state.withLock { state in
      state.isRetired = true
      let dropped = state.readyValue
      state.slot = .empty
      return dropped.map { ($0, state.sequence) }
    }
  }
}
