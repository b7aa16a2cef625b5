import Synchronization

/// Counts the ``LiveProbe``s of one test that were made and freed.
final class ProbeLedger: Sendable {
  let made = Atomic<Int>(0)
  let freed = Atomic<Int>(0)

  /// How many of the probes made are still alive.
  var alive: Int { made.load(ordering: .relaxed) - freed.load(ordering: .relaxed) }
}

/// An object that records whether it is still alive when a reader uses it, and tells its
/// ledger, if it has one, when it is made and freed: for objects a container hands out
/// while other threads clean them.
final class LiveProbe: Sendable {
  private static let ids = Atomic<Int>(0)
  /// Different for every probe of the process.
  let id: Int
  private let alive = Atomic<Bool>(true)
  private let ledger: ProbeLedger?

  init(_ ledger: ProbeLedger? = nil) {
    id = Self.ids.add(1, ordering: .relaxed).newValue
    self.ledger = ledger
    ledger?.made.add(1, ordering: .relaxed)
  }

  deinit {
    alive.store(false, ordering: .relaxed)
    ledger?.freed.add(1, ordering: .relaxed)
  }

  /// False once the probe's deinitializer ran: a reader holding it then holds freed memory.
  var isAlive: Bool { alive.load(ordering: .relaxed) }
}
