/// The request scopes a container opened that are not closed yet: what `shutdown()`
/// closes; and the states of closed scopes, for the next scopes to reuse.
///
/// It holds each scope's state (its lock and instances), not the scope, so an open scope
/// still goes when its last user lets it go (it closes itself, and is forgotten, then).
/// A scope's place is numbered, so recording and forgetting it hash nothing.
///
/// Up to ``keptStates`` places keep their state when their scope closes. A new scope given
/// such a place reuses the state, its lock and its instance storage, when nothing else holds it
/// any more (the closed scope is gone, and so is every request that used it) and it is
/// empty: so a server's scope per request allocates only the scope object. A state still
/// held anywhere is left to its holders, and the place gets a new one. The other closed
/// places keep nothing, so a burst of open scopes leaves no state behind once they close.
final class OpenScopes: Sendable {
  /// Where a scope is recorded; a place reused by a later scope has another generation.
  struct Ticket: Sendable {
    let index: Int
    let generation: UInt64
  }

  private struct Place {
    /// The state of the scope open here, or of the last one when the place keeps it.
    var state: Locked<DIRequestScope.State>?
    /// The generation of the scope open here; nil when it is closed.
    var openGeneration: UInt64?
  }

  private struct Places: Sendable {
    var places: [Place] = []
    /// The closed places that keep their last scope's state.
    var freeWithState: [Int] = []
    /// The other closed places.
    var free: [Int] = []
    var generation: UInt64 = 0
    /// How many scopes got a state reused.
    var reuses = 0
  }

  /// How many closed places keep their state for later scopes, at most.
  static var keptStates: Int { 32 }

  private let places = Locked(Places())

  /// The state of a new scope, open now, and its ticket.
  func open() -> (Locked<DIRequestScope.State>, Ticket) {
    // A state no scope reopens is released after the lock: what it still holds (an async
    // making's state) may run deinitializers that open scopes.
    let (state, ticket, _) = places.withLock { places in
      places.generation += 1
      let generation = places.generation
      guard let index = places.freeWithState.popLast() ?? places.free.popLast() else {
        let state = Locked(DIRequestScope.State())
        places.places.append(Place(state: state, openGeneration: generation))
        let ticket = Ticket(index: places.places.count - 1, generation: generation)
        return (state, ticket, Locked<DIRequestScope.State>?.none)
      }
      var replaced: Locked<DIRequestScope.State>?
      if places.places[index].state?.reopenIfUnshared() == true {
        places.reuses += 1
      } else {
        replaced = places.places[index].state.take()
        places.places[index].state = Locked(DIRequestScope.State())
      }
      places.places[index].openGeneration = generation
      return (places.places[index].state!, Ticket(index: index, generation: generation), replaced)
    }
    return (state, ticket)
  }

  /// Forgets a scope that closed; its place keeps its state while fewer than
  /// ``keptStates`` closed places do.
  func forget(_ ticket: Ticket) {
    // A dropped state is released after the lock (usually the closing scope still holds
    // it).
    _ = places.withLock { places -> Locked<DIRequestScope.State>? in
      guard ticket.index < places.places.count,
        places.places[ticket.index].openGeneration == ticket.generation
      else { return nil }
      places.places[ticket.index].openGeneration = nil
      guard places.freeWithState.count < Self.keptStates else {
        places.free.append(ticket.index)
        return places.places[ticket.index].state.take()
      }
      places.freeWithState.append(ticket.index)
      return nil
    }
  }

  /// How many scopes were given a closed scope's state, and how many closed places keep
  /// one now: for tests and diagnostics.
  var reuse: (reused: Int, kept: Int) {
    places.withLock { ($0.reuses, $0.freeWithState.count) }
  }

  /// The states of every scope still open, forgotten now, for `shutdown()` to close; no
  /// state is reused after this.
  func takeAll() -> [Locked<DIRequestScope.State>] {
    // The closed scopes' states are released after the lock.
    let (open, _) = places.withLock { places in
      let open = places.places.compactMap { $0.openGeneration == nil ? nil : $0.state }
      var kept = Places(generation: places.generation, reuses: places.reuses)
      swap(&places, &kept)
      return (open, kept)
    }
    return open
  }
}

extension Locked where Value == DIRequestScope.State {
  /// Opens this closed scope's state again for a new scope, when nothing else holds it
  /// (no closed scope, request or making can see it change) and it is empty.
  ///
  /// - Returns: Whether it is reopened (false: it is left as it is).
  fileprivate mutating func reopenIfUnshared() -> Bool {
    guard isUniquelyReferenced() else { return false }
    return withLock { $0.reopen() }
  }
}
