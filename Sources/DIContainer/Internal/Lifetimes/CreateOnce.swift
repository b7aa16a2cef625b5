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
  /// Whether another request waited for it (or backed off from it and waits for its end),
  /// or its own request was handed its partial instance: its end then takes the slow path
  /// (``CreateOnce`` wakes the waiters and forgets the partial instance handed out).
  var hasWaiters = false
  /// Whether its own request was handed ``partial`` (a cycle through injections): an
  /// instance made since may hold it, so the request cannot drop this making to back off.
  var servedPartial = false
}

/// The instance a ``Making`` published before its injections ran.
final class PartialInstance: Sendable {
  let instance: Instance

  init(_ value: Any) {
    instance = Instance(value: value)
  }
}

/// What a place holds for one key, as ``CreateOnce`` sees it: the one state every caching
/// lifetime, `Lazy`, a request scope and ``AssociatedStorage`` move through.
///
/// `absent` → `making` (a request claims it) → `ready` (its making's store keeps the value)
/// or `absent` again (the making failed, its value was refused, or a custom scope's storage
/// keeps it). A `ready` value may go back to `absent` too (cleaned, or a weakly held object
/// that died).
enum Creation {
  /// Nothing: the next request claims the making (unless the state refuses it).
  case absent
  /// A request makes the value: it alone may read what the making published; the others
  /// wait for it to end.
  case making(Making)
  /// The value is kept: every request gets it.
  case ready(Instance)

  /// The making under way, if this is one.
  @inline(__always)
  var making: Making? {
    if case .making(let making) = self { making } else { nil }
  }

  /// The kept value, if this is one.
  @inline(__always)
  var ready: Instance? {
    if case .ready(let instance) = self { instance } else { nil }
  }
}

/// State guarded by a ``Locked`` that holds a ``Creation`` for each key.
///
/// Internal checks: ``_checkInvariants()`` checks the state under the `DI_INTERNAL_CHECKS`
/// compilation condition (`swift test -Xswiftc -DDI_INTERNAL_CHECKS`) and is empty
/// otherwise; every transition of ``CreateOnce`` and of the conformers ends with it.
protocol CreationState {
  associatedtype Key
  /// What is held for `key`. A making under way shows before a value: only
  /// ``AssociatedStorage`` holds both at once (a value set while its owner's is being made,
  /// which the making's value replaces when it ends).
  subscript(key: Key) -> Creation { get }
  /// The making of `key` under way: the part of ``subscript(_:)`` that ``CreateOnce``
  /// writes. Setting a making records (or updates) it, nil forgets it; a value becomes
  /// `.ready` through the store of the making's caller, which may refuse it (a closed
  /// request scope, a retired cell).
  ///
  /// Apart from ``subscript(_:)``: reads and writes of a making then move no ``Creation``,
  /// which one that holds an instance copies through its value witnesses (~470
  /// instructions more per S8 operation, two `.scoped` makings).
  subscript(making key: Key) -> Making? { get set }
  /// Why no new making may start now (a closed request scope's state); nil when one may.
  var refusal: DIError? { get }
  /// Stops the program when the state breaks one of its invariants, under
  /// `DI_INTERNAL_CHECKS`; does nothing (and costs nothing) otherwise.
  func _checkInvariants()
}

extension CreationState {
  var refusal: DIError? { nil }
}

extension Making {
  /// The invariants of a making, which its state's ``CreationState/_checkInvariants()``
  /// checks.
  func _checkInvariants() {
    #if DI_INTERNAL_CHECKS
      precondition(
        token != 0 && token <= CreateOnce.lastToken, "a making's token was never handed out")
    #endif
  }
}

/// Hands the instance a making has made so far to its own request, before its injections
/// run (a cycle through them finds it).
struct Publisher<State: CreationState> {
  fileprivate let locked: Locked<State>
  fileprivate let key: State.Key

  func callAsFunction(_ partial: Any) {
    locked.withLock { state in
      guard var making = state[making: key] else { return }
      making.partial = PartialInstance(partial)
      state[making: key] = making
      state._checkInvariants()
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
///   while B waits for what A makes) never deadlocks: the request whose wait would close it
///   backs off (see ``Backoff``): it fails with a ``DIError`` that its outermost resolution
///   catches, abandoning its makings on the way out, waits for the making it needed, and
///   starts again. Only a request that has handed one of its unfinished instances to an
///   instance it kept cannot drop them: it fails with the error. Another request's
///   half-built instance is never handed out.
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
  ///
  /// `drop` receives the instance a failed making had published when its request backs
  /// off from a wait loop (see ``Backoff``): its factory ran, and nothing keeps it.
  @inline(__always)
  static func valueOrOpen<State: CreationState, Stored>(
    in locked: Locked<State>, key: State.Key, for request: ResolutionRequest,
    claimed: UInt64? = nil,
    make: (Publisher<State>) throws(DIError) -> (Instance, complete: Bool),
    store: (inout State, Instance) -> Stored,
    leaveOpen: (Instance, OpenMaking<State>) -> Void,
    drop: (Instance) -> Void = { _ in }
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
      case .servedPartial(let partial, let token):
        request.servedPartials.append(token)
        return (partial, nil)
      case .loop(let awaited):
        throw backOff(request, from: awaited, in: locked, key: key)
      case .claimed(let claimed): token = claimed
      }
    }
    let instance: Instance
    let complete: Bool
    do throws(DIError) {
      (instance, complete) = try make(Publisher(locked: locked, key: key))
    } catch {
      if let partial = abandon(locked, key: key, token: token, for: request) {
        drop(partial.instance)
      }
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
    /// The request's own making: its partial instance, if it published one.
    case reentered(Instance?)
    /// The request's own making, whose partial instance it is handed for the first time.
    case servedPartial(Instance, token: UInt64)
    /// Waiting for the making `token` would close a loop between requests.
    case loop(token: UInt64)
    case claimed(token: UInt64)
  }

  /// The error of `request`, whose wait for the making `awaited` of `key` would close a
  /// loop; the request backs off (it records the ``Backoff``), unless it handed out the
  /// partial instance of a making still under way.
  @inline(never)
  private static func backOff<State: CreationState>(
    _ request: ResolutionRequest, from awaited: UInt64, in locked: Locked<State>,
    key: State.Key
  ) -> DIError {
    if request.servedPartials.isEmpty {
      request.backoff = Backoff {
        locked.withLockWaiting { state, waiter in
          while state[making: key]?.token == awaited { waiter.wait() }
        }
      }
    }
    return DIError(.waitLoop)
  }

  /// Ends the making `token` of `key`, which failed; returns the instance it published
  /// (its factory ran) when its request backs off, for the caller to drop.
  @inline(never)
  private static func abandon<State: CreationState>(
    _ locked: Locked<State>, key: State.Key, token: UInt64, for request: ResolutionRequest
  ) -> PartialInstance? {
    let partial = locked.withLock { state -> PartialInstance? in
      guard request.backoff != nil, let making = state[making: key], making.token == token
      else { return nil }
      return making.partial
    }
    finish(locked, key: key, token: token) { _ in }
    return partial
  }

  @inline(__always)
  private static func claim<State: CreationState>(
    in locked: Locked<State>, key: State.Key, by me: ObjectIdentifier
  ) throws(DIError) -> Claim {
    try locked.withLockWaiting { (state, waiter) throws(DIError) -> Claim in
      while true {
        switch state[key] {
        case .ready(let instance):
          return .ready(instance)
        case .absent:
          if let refusal = state.refusal { throw refusal }
          return .claimed(token: startMaking(in: &state, key: key, by: me))
        case .making(var making):
          if making.creator == me {
            guard let partial = making.partial, !making.servedPartial else {
              return .reentered(making.partial?.instance)
            }
            making.servedPartial = true
            making.hasWaiters = true
            state[making: key] = making
            state._checkInvariants()
            return .servedPartial(partial.instance, token: making.token)
          }
          guard WaitGraph.begin(me, waitingFor: making.creator, token: making.token) else {
            // The request backs off and waits for the end of this making.
            if !making.hasWaiters {
              making.hasWaiters = true
              state[making: key] = making
              state._checkInvariants()
            }
            return .loop(token: making.token)
          }
          if !making.hasWaiters {
            making.hasWaiters = true
            state[making: key] = making
            state._checkInvariants()
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
      // The making ends before `update` keeps the value: no key is ever both ready and
      // being made (no update touches the makings).
      let making = state[making: key]
      if let making, making.token == token { state[making: key] = nil }
      let result = update(&state)
      state._checkInvariants()
      return (result, making?.hasWaiters ?? false)
    }
    if hadWaiters { ended(locked, token: token) }
    return result
  }

  /// The making `token`, which had waiters or handed out its partial instance, ended:
  /// the waiters wake, and its request (the calling thread's) forgets the partial
  /// instance it was handed.
  @inline(never)
  private static func ended<State: CreationState>(_ locked: Locked<State>, token: UInt64) {
    WaitGraph.release(token)
    locked.broadcast()
    ResolutionRequest.current.forgetServedPartial(token)
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
    state[making: key] = Making(creator: creator, token: token)
    state._checkInvariants()
    return token
  }

  /// A token no making had before.
  static func newToken() -> UInt64 {
    nextToken.wrappingAdd(1, ordering: .relaxed).newValue
  }

  /// The last token handed out (for ``Making/_checkInvariants()``).
  static var lastToken: UInt64 {
    nextToken.load(ordering: .relaxed)
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
