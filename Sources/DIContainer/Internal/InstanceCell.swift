/// Where one component keeps its cached instance (`.perContainer`, `.perApplication`,
/// `.single`, `.perFramework`, `.perPart`).
///
/// Reading a ready instance takes only this cell's short lock. Creating one takes the
/// cell's creation lock, so concurrent first requests create exactly one instance, while no
/// lock shared with other components is held as the user's factory runs. A request that
/// re-enters the cell on the creating thread gets the instance made so far (a cycle through
/// property injection) or a cycle error, never a deadlock; so does a request from another
/// thread whose creator waits, directly or through other threads, for the requesting one
/// (see ``CreationWaits``).
final class InstanceCell: Sendable {
  private enum Slot {
    case empty
    case strong(Instance)
    case weak(WeakReference)
  }

  private struct State {
    var slot: Slot = .empty
    /// When the kept instance was stored (see ``Teardown/nextSequence()``).
    var sequence: UInt64 = 0
    /// The thread running the factory, and what it has made so far.
    var creator: ThreadIdentity?
    var partial: Instance?
  }

  private let state = Locked(State())
  private let creation = Lock()
  let isWeak: Bool

  init(weak: Bool) {
    self.isWeak = weak
  }

  /// The cached instance, if there is one.
  var current: Instance? {
    state.withLock { Self.read($0.slot) }
  }

  private static func read(_ slot: Slot) -> Instance? {
    switch slot {
    case .empty: nil
    case .strong(let instance): instance
    case .weak(let reference): reference.object.map { Instance(value: $0) }
    }
  }

  /// The cached instance, or the one `make` creates.
  ///
  /// `make` receives a callback to publish the instance to its own thread as soon as it
  /// exists, before its injections run.
  func instance(
    _ make: (_ publish: (Any) -> Void) throws(DIError) -> Any,
    onCycle: () -> DIError
  ) throws(DIError) -> Any {
    if let ready = current { return ready.value }
    return try create(make, onCycle: onCycle)
  }

  /// The slow path of ``instance(_:onCycle:)``: no instance yet.
  @inline(never)
  private func create(
    _ make: (_ publish: (Any) -> Void) throws(DIError) -> Any,
    onCycle: () -> DIError
  ) throws(DIError) -> Any {
    let me = ThreadIdentity.current
    enum Probe {
      case ready(Instance)
      case reentered(Instance?)
      case miss(creator: ThreadIdentity?)
    }
    let probe: Probe = state.withLock { state in
      if let ready = Self.read(state.slot) { return .ready(ready) }
      if state.creator == me { return .reentered(state.partial) }
      return .miss(creator: state.creator)
    }
    var waits = false
    switch probe {
    case .ready(let instance): return instance.value
    case .reentered(let partial):
      guard let partial else { throw onCycle() }
      return partial.value
    case .miss(let creator):
      guard let creator else { break }
      guard CreationWaits.begin(me, waitingFor: creator) else {
        // The creator waits for this thread: serve what it made so far, as on one thread.
        let (ready, partial) = state.withLock { (Self.read($0.slot), $0.partial) }
        guard let instance = ready ?? partial else { throw onCycle() }
        return instance.value
      }
      waits = true
    }
    return try creation.withLock { () throws(DIError) -> Instance in
      if waits { CreationWaits.end(me) }
      if let ready = current { return ready }
      state.withLock { $0.creator = me }
      do throws(DIError) {
        let value = try make { partial in
          state.withLock { $0.partial = Instance(value: partial) }
        }
        store(Instance(value: value))
        return Instance(value: value)
      } catch {
        state.withLock {
          $0.creator = nil
          $0.partial = nil
        }
        throw error
      }
    }.value
  }

  /// Keeps `instance` (weakly for a `.weak` lifetime when it is an object).
  private func store(_ instance: Instance) {
    let slot: Slot
    if isWeak {
      slot = classInstance(instance.value).map { .weak(WeakReference($0)) } ?? .empty
    } else {
      slot = .strong(instance)
    }
    let sequence = Teardown.nextSequence()
    state.withLock {
      $0.slot = slot
      $0.sequence = sequence
      $0.creator = nil
      $0.partial = nil
    }
  }

  /// Drops the cached instance and returns it with its creation stamp, so the caller runs
  /// its hook and releases it outside the lock. A weakly held instance that is gone is
  /// not returned.
  @discardableResult
  func clear() -> (instance: Instance, sequence: UInt64)? {
    state.withLock { state in
      let dropped = Self.read(state.slot)
      state.slot = .empty
      return dropped.map { ($0, state.sequence) }
    }
  }
}
