/// Which thread waits for which other thread to finish creating a cached instance, so a
/// wait that would close a loop is refused instead of deadlocking.
///
/// Thread A creating `X` may need `Y` while thread B, creating `Y`, needs `X` (a cycle
/// through property injections, which one thread resolves with the instance made so far).
/// Each would wait for the other's creation lock forever. Before waiting, a thread
/// registers here whom it waits for; if that thread already waits, directly or through
/// others, for this one, waiting is refused and the caller serves the instance made so far,
/// as on one thread. Only contended creations come here.
enum CreationWaits {
  /// Waiting thread → the thread creating what it waits for.
  private static let waits = Locked<[ThreadIdentity: ThreadIdentity]>([:])

  /// Registers that `waiter` waits for `creator`, unless `creator` waits, directly or
  /// through other threads, for `waiter`.
  ///
  /// - Returns: Whether the wait is registered (false: waiting would deadlock).
  static func begin(_ waiter: ThreadIdentity, waitingFor creator: ThreadIdentity) -> Bool {
    waits.withLock { waits in
      var current = creator
      var seen: Set<ThreadIdentity> = [creator]
      while let next = waits[current] {
        if next == waiter { return false }
        guard seen.insert(next).inserted else { break }
        current = next
      }
      waits[waiter] = creator
      return true
    }
  }

  /// `waiter` waits no more.
  static func end(_ waiter: ThreadIdentity) {
    waits.withLock { $0[waiter] = nil }
  }
}
