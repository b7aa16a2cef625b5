/// Where one component keeps its cached instance (`.perContainer`, `.perApplication`,
/// `.single`, `.perFramework`, `.perPart`, and one set of arguments of a `.multiton`).
///
/// A ready object held strongly is read with no lock at all (``UnsafePublishedObject``);
/// any other ready instance under this cell's short lock. Making one goes through
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

  struct State: CreationState {
    fileprivate var slot: Slot = .empty
    /// When the kept instance was stored (see ``Teardown/nextSequence()``).
    fileprivate var sequence: UInt64 = 0
    fileprivate var making: Making?
    /// Whether the cell holds its instance weakly when it is an object (a `.weak`
    /// lifetime).
    fileprivate let isWeak: Bool
    /// Set by ``retire()``: the cell is no longer reachable, so it keeps nothing more.
    fileprivate var isRetired = false
    /// The makings of an async component's instance, one at a time (``asyncOnce``).
    fileprivate var asyncOnce: AsyncOnce?

    fileprivate init(isWeak: Bool) {
      self.isWeak = isWeak
    }

    /// The making under way, else the kept instance: an object held weakly that died
    /// reads as absent.
    subscript(_: Void) -> Creation {
      if let making { return .making(making) }
      return readyValue.map(Creation.ready) ?? .absent
    }

    subscript(making _: Void) -> Making? {
      get { making }
      set { making = newValue }
    }

    /// Keeps `instance` (weakly for a `.weak` lifetime when it is an object), unless the
    /// cell is retired: then it comes back with its stamp, for its hook to run.
    mutating func keep(_ instance: Instance) -> (Instance, UInt64)? {
      let sequence = Teardown.nextSequence()
      guard !isRetired else { return (instance, sequence) }
      if isWeak {
        slot = classInstance(instance.value).map { .weak(WeakReference($0)) } ?? .empty
      } else {
        slot = .strong(instance)
      }
      self.sequence = sequence
      return nil
    }

    /// The kept instance, if there is one (a weakly held object only while it lives).
    var readyValue: Instance? {
      switch slot {
      case .empty: nil
      case .strong(let instance): instance
      case .weak(let reference): reference.object.map { Instance(value: $0) }
      }
    }

    func _checkInvariants() {
      #if DI_INTERNAL_CHECKS
        if let making {
          making._checkInvariants()
          precondition(readyValue == nil, "a cell keeps an instance while one is being made")
        }
        switch slot {
        case .empty: break
        case .strong:
          precondition(!isWeak, "a .weak lifetime's cell holds its instance strongly")
        case .weak:
          precondition(isWeak, "a cell holds its instance weakly for a lifetime that is not .weak")
        }
        if isRetired {
          guard case .empty = slot else { preconditionFailure("a retired cell keeps an instance") }
        }
      #endif
    }
  }

  private let state: Locked<State>
  /// The kept instance when it is an object held strongly, for reads without the lock.
  private let published = UnsafePublishedObject()
  let isWeak: Bool

  init(weak: Bool) {
    self.isWeak = weak
    state = Locked(State(isWeak: weak))
  }

  /// One making at a time of an async component's instance for this cell, across tasks.
  var asyncOnce: AsyncOnce {
    state.withLock { AsyncOnce.shared(in: &$0.asyncOnce) }
  }

  /// The cached instance, if there is one.
  var current: Instance? {
    state.withLock { $0.readyValue }
  }

  /// The cached instance when it is an object held strongly, read without the lock;
  /// `request` is the calling thread's. Nil does not mean there is none: ``current`` says.
  @inline(__always)
  func publishedObject(for request: ResolutionRequest) -> AnyObject? {
    published.read(for: request)
  }

  /// The cached instance, or the one `make` creates for `request`.
  ///
  /// `make` receives a callback to publish the instance to its own request as soon as it
  /// exists, before its injections run, and says whether the instance is complete: one
  /// with postponed work still to run is kept only when `request` settles it (see
  /// ``ResolutionRequest/settleOpenMakings(from:keep:)``); other requests wait until then.
  ///
  /// - Parameter hook: The component's `onClean`, run at once for an instance made for a
  ///   retired cell (which keeps nothing).
  func instance(
    for request: ResolutionRequest, hook: CleanHook?,
    _ make: (_ publish: (Any) -> Void) throws(DIError) -> (Any, complete: Bool)
  ) throws(DIError) -> Any {
    let (instance, late) = try CreateOnce.valueOrOpen(
      in: state, key: (), for: request,
      make: { (publisher) throws(DIError) in
        let (value, complete) = try make { publisher($0) }
        return (Instance(value: value), complete)
      },
      store: { state, instance in keep(instance, in: &state) },
      leaveOpen: { instance, making in
        request.leaveOpen { keep in
          guard keep else {
            making.abandon()
            // Dropped by a request that backs off: its factory ran.
            if request.backoff != nil { Self.drop((instance, Teardown.nextSequence()), hook: hook) }
            return
          }
          if let late = making.commit({ self.keep(instance, in: &$0) }) {
            Self.drop(late, hook: hook)
          }
        }
      },
      drop: { Self.drop(($0, Teardown.nextSequence()), hook: hook) })
    if let late = late ?? nil { Self.drop(late, hook: hook) }
    return instance.value
  }

  /// Keeps `instance` in `state` (see ``State/keep(_:)``), under the lock, and publishes
  /// it when it is an object held strongly.
  private func keep(_ instance: Instance, in state: inout State) -> (Instance, UInt64)? {
    let late = state.keep(instance)
    state._checkInvariants()
    if late == nil, !isWeak, let object = UnsafeExactCast.object(of: instance.value) {
      published.publish(object)
    }
    return late
  }

  /// Runs the hook of an instance made for a retired cell.
  private static func drop(_ late: (Instance, UInt64), hook: CleanHook?) {
    Teardown.drop(late.0, sequence: late.1, hook: hook)
  }

  /// Drops the cached instance and returns it with its creation stamp, so the caller runs
  /// its hook and releases it outside the lock. A weakly held instance that is gone is
  /// not returned.
  @discardableResult
  func clear() -> (instance: Instance, sequence: UInt64)? {
    drop(retiring: false)
  }

  /// Drops the cached instance, like ``clear()``, and keeps nothing from now on: an
  /// instance whose making is under way is handed to its request and dropped at once.
  func retire() -> (instance: Instance, sequence: UInt64)? {
    drop(retiring: true)
  }

  private func drop(retiring: Bool) -> (instance: Instance, sequence: UInt64)? {
    let (dropped, withdrawn) = state.withLock { state in
      if retiring { state.isRetired = true }
      let dropped = state.readyValue
      state.slot = .empty
      state._checkInvariants()
      return (dropped.map { ($0, state.sequence) }, published.withdraw())
    }
    // `dropped` holds the object until the caller is done with it.
    withdrawn.awaitReaders()
    // After the drop: a container that found this cell's instance kept finds out again.
    if dropped != nil { KeptAsyncInstances.changed() }
    return dropped
  }
}
