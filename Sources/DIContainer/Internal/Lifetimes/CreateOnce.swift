import Synchronization

/// A value being made: which request makes it, and what it has made so far.
struct Making: Sendable {
  /// The request making the value (``ResolutionRequest/identity``).
  let creator: ObjectIdentifier
  /// Identifies this making in ``WaitGraph``.
  let token: UInt64
  /// The instance published before its injections ran, served to its own request only.
  /// Boxed, so a making without one (the usual case) copies as plain values, not as an
  /// existential.
  var partial: PartialInstance?
  /// Whether another request waited for it.
  var hasWaiters = false
}

/// The instance a ``Making`` published before its injections ran.
final class PartialInstance: Sendable {
  let instance: Instance

  init(_ value: Any) {
    instance = Instance(value: value)
  }
}

/// What a ``CreationState`` holds for a key.
enum CreationProbe {
  case absent
  case ready(Instance)
  case making(Making)
}

/// State guarded by a ``Locked`` that keeps made values, and values being made, by key.
protocol CreationState {
  associatedtype Key
  /// What is kept for `key`: a made value, a making under way, or nothing.
  func probe(_ key: Key) -> CreationProbe
  /// The making under way for `key`, if any.
  func making(_ key: Key) -> Making?
  /// Records the making of the value for `key`, or forgets it (nil) when it was never
  /// stored.
  mutating func setMaking(_ making: Making?, for key: Key)
  /// Why no new making may start now (a closed request scope's state); nil when one may.
  var refusal: DIError? { get }
  /// Records `making` for `key`, which ``probe(_:)`` found absent.
  mutating func startMaking(_ making: Making, for key: Key)
  /// Forgets the making of `key` when it is `token`'s.
  ///
  /// - Returns: Whether the making kept for `key` had waiters.
  mutating func endMaking(_ key: Key, token: UInt64) -> Bool
}

extension CreationState {
  var refusal: DIError? { nil }

  mutating func startMaking(_ making: Making, for key: Key) {
    setMaking(making, for: key)
  }

  mutating func endMaking(_ key: Key, token: UInt64) -> Bool {
    guard let making = making(key) else { return false }
    if making.token == token { setMaking(nil, for: key) }
    return making.hasWaiters
  }
}

/// A ``CreationState`` that keeps one value: a cell.
protocol CellCreationState: CreationState where Key == Void {
  /// The kept value, if there is one.
  var readyValue: Instance? { get }
  /// The making under way, if any.
  var currentMaking: Making? { get set }
}

extension CellCreationState {
  func probe(_ key: Void) -> CreationProbe {
    if let ready = readyValue { return .ready(ready) }
    return currentMaking.map(CreationProbe.making) ?? .absent
  }

  func making(_ key: Void) -> Making? { currentMaking }

  mutating func setMaking(_ making: Making?, for key: Void) {
    currentMaking = making
  }
}

/// Hands the instance a making has made so far to its own request, before its injections
/// run (a cycle through them finds it).
struct Publisher<State: CreationState> {
  fileprivate let locked: Locked<State>
  fileprivate let key: State.Key

  func callAsFunction(_ partial: Any) {
    locked.withLock { state in
      guard var making = state.making(key) else { return }
      making.partial = PartialInstance(partial)
      state.setMaking(making, for: key)
    }
  }
}

/// The one "create once" algorithm, shared by every caching lifetime (`.perContainer`,
/// `.perApplication`, `.single`, `.perFramework`, `.perPart`, `.multiton`, custom scopes,
/// request scopes), `Lazy` and ``AssociatedStorage``.
///
/// - One value per key under any contention: the first request claims the making; the
///   others wait on the state's condition, holding no lock (the state's lock is released
///   while they wait, and the making runs without it).
/// - The request making a value that asks for it again gets the instance published so far
///   (a cycle through injections) or a cycle error (asked for during its own initializer).
/// - A wait that would close a loop between requests (request A waits for what B makes,
///   while B waits for what A makes) is refused with a ``DIError`` instead of deadlocking;
///   another request's half-built instance is never handed out.
/// - A making that fails leaves nothing behind: a waiting request tries itself.
enum CreateOnce {
  /// The value kept for `key` in `locked`, or the one `make` makes now, which `store` then
  /// keeps (under the lock, in the same step that ends the making).
  ///
  /// - Parameters:
  ///   - make: Makes the value; receives a ``Publisher`` to hand its own request the
  ///     instance before its injections run.
  ///   - store: Keeps the made value in the state, replacing the making; what it returns
  ///     comes back with it.
  /// - Returns: The value, and what `store` returned when this call made it.
  @inline(__always)
  static func value<State: CreationState, Stored>(
    in locked: Locked<State>, key: State.Key, for request: ResolutionRequest,
    make: (Publisher<State>) throws(DIError) -> Instance,
    store: (inout State, Instance) -> Stored
  ) throws(DIError) -> (Instance, Stored?) {
    try valueOrOpen(
      in: locked, key: key, for: request,
      make: { (publisher) throws(DIError) in (try make(publisher), true) }, store: store,
      leaveOpen: { _, _ in })  // `make` always reports a complete value.
  }

  /// Like ``value(in:key:for:make:store:)``, but `make` also says whether its value is
  /// complete. An incomplete one (its request has postponed work still to run on it) is
  /// not kept now: its making stays open, other requests wait, and `leaveOpen` receives
  /// it, to commit once the value is complete (or abandon).
  ///
  /// `claimed` is the token of a making the caller already claimed for `request`, under
  /// the same lock as it read the state (as ``claim(in:key:by:)`` claims one): the making
  /// goes on from there.
  @inline(__always)
  static func valueOrOpen<State: CreationState, Stored>(
    in locked: Locked<State>, key: State.Key, for request: ResolutionRequest,
    claimed: UInt64? = nil,
    make: (Publisher<State>) throws(DIError) -> (Instance, complete: Bool),
    store: (inout State, Instance) -> Stored,
    leaveOpen: (Instance, OpenMaking<State>) -> Void
  ) throws(DIError) -> (Instance, Stored?) {
    let token: UInt64
    if let claimed {
      token = claimed
    } else {
      switch try claim(in: locked, key: key, by: request.identity) {
      case .ready(let instance): return (instance, nil)
      case .reentered(let partial):
        guard let partial else { throw DIError(.cycle) }
        return (partial, nil)
      case .claimed(let claimed): token = claimed
      }
    }
    let instance: Instance
    let complete: Bool
    do throws(DIError) {
      (instance, complete) = try make(Publisher(locked: locked, key: key))
    } catch {
      finish(locked, key: key, token: token) { _ in }
      throw error
    }
    guard complete else {
      // Its own request goes on using it; the others wait for the commit.
      Publisher(locked: locked, key: key)(instance.value)
      leaveOpen(instance, OpenMaking(locked: locked, key: key, token: token))
      return (instance, nil)
    }
    let stored = finish(locked, key: key, token: token) { store(&$0, instance) }
    return (instance, stored)
  }

  private enum Claim {
    case ready(Instance)
    case reentered(Instance?)
    case claimed(token: UInt64)
  }

  @inline(__always)
  private static func claim<State: CreationState>(
    in locked: Locked<State>, key: State.Key, by me: ObjectIdentifier
  ) throws(DIError) -> Claim {
    try locked.withLockWaiting { (state, waiter) throws(DIError) -> Claim in
      while true {
        switch state.probe(key) {
        case .ready(let instance):
          return .ready(instance)
        case .absent:
          if let refusal = state.refusal { throw refusal }
          return .claimed(token: startMaking(in: &state, key: key, by: me))
        case .making(var making):
          if making.creator == me { return .reentered(making.partial?.instance) }
          guard WaitGraph.begin(me, waitingFor: making.creator, token: making.token) else {
            throw DIError(.waitLoop)
          }
          if !making.hasWaiters {
            making.hasWaiters = true
            state.setMaking(making, for: key)
          }
          waiter.wait()
          WaitGraph.end(me)
        }
      }
    }
  }

  /// Ends the making `token` of `key`: `update` runs under the lock, then the making is
  /// forgotten unless `update` replaced it, and waiting requests wake.
  @inline(__always)
  fileprivate static func finish<State: CreationState, Result>(
    _ locked: Locked<State>, key: State.Key, token: UInt64,
    _ update: (inout State) -> Result
  ) -> Result {
    let (result, hadWaiters) = locked.withLock { state in
      // `update` keeps a value; no update touches the makings.
      let result = update(&state)
      return (result, state.endMaking(key, token: token))
    }
    if hadWaiters {
      WaitGraph.release(token)
      locked.broadcast()
    }
    return result
  }

  private static let nextToken = Atomic<UInt64>(0)

  /// Records the making of `key`, which `state` neither keeps nor makes and does not
  /// refuse, as `creator`'s, and returns its token: the claim of `valueOrOpen`, also made
  /// by a caller that read the state under the same lock (a request scope's first look).
  @inline(__always)
  static func startMaking<State: CreationState>(
    in state: inout State, key: State.Key, by creator: ObjectIdentifier
  ) -> UInt64 {
    let token = newToken()
    state.startMaking(Making(creator: creator, token: token), for: key)
    return token
  }

  /// A token no making had before.
  static func newToken() -> UInt64 {
    nextToken.wrappingAdd(1, ordering: .relaxed).newValue
  }
}

/// A making whose value is made but not kept yet: its request has postponed work to run on
/// it first. Other requests wait until ``commit(_:)``; ``abandon()`` lets them make their own.
struct OpenMaking<State: CreationState> {
  fileprivate let locked: Locked<State>
  fileprivate let key: State.Key
  fileprivate let token: UInt64

  /// Keeps the value with `store` and ends the making.
  func commit<Result>(_ store: (inout State) -> Result) -> Result {
    CreateOnce.finish(locked, key: key, token: token, store)
  }

  /// Ends the making without keeping the value (its request failed).
  func abandon() {
    CreateOnce.finish(locked, key: key, token: token) { _ in }
  }
}

/// Which request waits for which other request's making, so a wait that would close a
/// loop is refused instead of deadlocking. Only contended makings come here.
///
/// An async request may run inside others (``AsyncRequest/parent``), which may be awaiting
/// it: a request is taken to wait for whatever a request inside it waits for.
enum WaitGraph {
  private struct Wait {
    let creator: ObjectIdentifier
    let token: UInt64
    /// The requests the waiting one runs inside.
    let awaitedBy: [ObjectIdentifier]
  }

  /// Waiting request → the making it waits for.
  private static let waits = Locked<[ObjectIdentifier: Wait]>([:])

  /// Registers that `waiter` waits for the making `token` of `creator`, unless `creator`
  /// waits, directly or through other requests, for `waiter` or for a request in
  /// `awaitedBy`, which may be awaiting `waiter` (the async requests it runs inside).
  ///
  /// - Returns: Whether the wait is registered (false: waiting would deadlock).
  static func begin(
    _ waiter: ObjectIdentifier, waitingFor creator: ObjectIdentifier, token: UInt64,
    awaitedBy: [ObjectIdentifier] = []
  ) -> Bool {
    waits.withLock { waits in
      let closing = Set(awaitedBy + [waiter])
      var reached: Set<ObjectIdentifier> = []
      var next = [creator]
      while let request = next.popLast() {
        if closing.contains(request) { return false }
        guard reached.insert(request).inserted else { continue }
        // What `request` waits for, itself or through a request inside it.
        for (other, wait) in waits where other == request || wait.awaitedBy.contains(request) {
          next.append(wait.creator)
        }
      }
      waits[waiter] = Wait(creator: creator, token: token, awaitedBy: awaitedBy)
      return true
    }
  }

  /// `waiter` waits no more.
  static func end(_ waiter: ObjectIdentifier) {
    _ = waits.withLock { $0.removeValue(forKey: waiter) }
  }

  /// The making `token` is over: whoever waited for it waits no more.
  static func release(_ token: UInt64) {
    waits.withLock { waits in
      for (waiter, wait) in waits where wait.token == token { waits[waiter] = nil }
    }
  }
}
