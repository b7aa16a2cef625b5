import Synchronization

/// What happened, in order, across tasks; a test awaits an entry without polling or sleeping.
final class EventLog: Sendable {
  private struct State {
    var events: [String] = []
    var waiters: [(String, CheckedContinuation<Void, Never>)] = []
  }

  private let state = Mutex(State())

  /// The entries so far.
  var events: [String] { state.withLock { $0.events } }

  /// Adds `event` and resumes the tasks waiting for it.
  func record(_ event: String) {
    let ready = state.withLock { state in
      state.events.append(event)
      let ready = state.waiters.filter { $0.0 == event }.map(\.1)
      state.waiters.removeAll { $0.0 == event }
      return ready
    }
    for waiter in ready { waiter.resume() }
  }

  /// Returns once `event` has been recorded.
  func wait(for event: String) async {
    await withCheckedContinuation { continuation in
      let recorded = state.withLock { state in
        if state.events.contains(event) { return true }
        state.waiters.append((event, continuation))
        return false
      }
      if recorded { continuation.resume() }
    }
  }
}
