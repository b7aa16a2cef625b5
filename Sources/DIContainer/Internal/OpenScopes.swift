/// The request scopes a container opened that are not closed yet: what `shutdown()`
/// closes.
///
/// It holds each scope's state (its lock and instances), not the scope, so an open scope
/// still goes when its last user lets it go (it closes itself, and is forgotten, then).
/// A scope's place is numbered, so recording and forgetting it hash nothing.
final class OpenScopes: Sendable {
  /// Where a scope is recorded; a place reused by a later scope has another generation.
  struct Ticket: Sendable {
    let index: Int
    let generation: UInt64
  }

  private struct Places {
    var states: [(generation: UInt64, state: Locked<DIRequestScope.State>)?] = []
    var free: [Int] = []
    var generation: UInt64 = 0
  }

  private let places = Locked(Places())

  /// Records the state of a scope, open now.
  func add(_ state: Locked<DIRequestScope.State>) -> Ticket {
    places.withLock { places in
      places.generation += 1
      let generation = places.generation
      if let index = places.free.popLast() {
        places.states[index] = (generation, state)
        return Ticket(index: index, generation: generation)
      }
      places.states.append((generation, state))
      return Ticket(index: places.states.count - 1, generation: generation)
    }
  }

  /// Forgets the scope recorded with `ticket`, closed now (nothing when `takeAll()` took
  /// it already).
  func forget(_ ticket: Ticket) {
    places.withLock { places in
      guard ticket.index < places.states.count,
        places.states[ticket.index]?.generation == ticket.generation
      else { return }
      places.states[ticket.index] = nil
      places.free.append(ticket.index)
    }
  }

  /// The states of the scopes still open, forgotten now.
  func takeAll() -> [Locked<DIRequestScope.State>] {
    places.withLock { places in
      defer { places = Places(states: [], free: [], generation: places.generation) }
      return places.states.compactMap { $0?.state }
    }
  }
}
