/// The request scopes a container opened that are not closed yet: what `shutdown()`
/// closes; and the states of closed scopes, for the next scopes to reuse.
///
/// It holds each scope's state (its lock and instances), not the scope, so an open scope
/// still goes when its last user lets it go (it closes itself, and is forgotten, then).
/// A scope's place is numbered, so recording and forgetting it hash nothing.
///
/// A place keeps its state when its scope closes. The next scope given that place reuses
/// the state, its lock and its slot storage, when nothing else holds it any more (the
/// closed scope is gone, and so is every request that used it) and it is empty: so a
/// server's scope per request allocates only the scope object. A state still held
/// anywhere is left to its holders, and the place gets a new one.
final class OpenScopes: Sendable {
  /// Where a scope is recorded; a place reused by a later scope has another generation.
  struct Ticket: Sendable {
    let index: Int
    let generation: UInt64
  }

  private struct Place {
    /// The state of the scope open here, or of the last one.
    var state: Locked<DIRequestScope.State>
    /// The generation of the scope open here; nil when it is closed.
    var openGeneration: UInt64?
  }

  private struct Places {
    var places: [Place] = []
    /// The places whose scope is closed.
    var free: [Int] = []
    var generation: UInt64 = 0
  }

  private let places = Locked(Places())

  /// The state of a new scope, open now, and its ticket.
  func open() -> (Locked<DIRequestScope.State>, Ticket) {
    places.withLock { places in
      places.generation += 1
      let generation = places.generation
      if let index = places.free.popLast() {
        if !places.places[index].state.reopenIfUnshared() {
          places.places[index].state = Locked(DIRequestScope.State())
        }
        places.places[index].openGeneration = generation
        return (places.places[index].state, Ticket(index: index, generation: generation))
      }
      let state = Locked(DIRequestScope.State())
      places.places.append(Place(state: state, openGeneration: generation))
      return (state, Ticket(index: places.places.count - 1, generation: generation))
    }
  }

  /// Forgets a scope that closed.
  func forget(_ ticket: Ticket) {
    places.withLock { places in
      guard ticket.index < places.places.count,
        places.places[ticket.index].openGeneration == ticket.generation
      else { return }
      places.places[ticket.index].openGeneration = nil
      places.free.append(ticket.index)
    }
  }

  /// The states of every scope still open, forgotten now, for `shutdown()` to close; no
  /// state is reused after this.
  func takeAll() -> [Locked<DIRequestScope.State>] {
    let (open, kept) = places.withLock { places in
      let open = places.places.compactMap { $0.openGeneration == nil ? nil : $0.state }
      var kept = Places(generation: places.generation)
      swap(&places, &kept)
      return (open, kept)
    }
    // The closed scopes' states are released here, out of the lock.
    withExtendedLifetime(kept) {}
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
