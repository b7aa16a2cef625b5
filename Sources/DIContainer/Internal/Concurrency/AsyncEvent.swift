/// Something that happens once, which any number of tasks can await: they suspend (no
/// thread blocks) until ``signal()``, and return at once afterwards.
final class AsyncEvent: Sendable {
  private struct State {
    var happened = false
    var waiters: [CheckedContinuation<Void, Never>] = []
  }

  private let state = Locked(State())

  /// Returns once the event has happened.
  func wait() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let happened = state.withLock { state in
        if !state.happened { state.waiters.append(continuation) }
        return state.happened
      }
      if happened { continuation.resume() }
    }
  }

  /// Makes the event happen: resumes every waiting task, and every later ``wait()`` returns
  /// at once.
  func signal() {
    let waiters = state.withLock { state in
      state.happened = true
      defer { state.waiters = [] }
      return state.waiters
    }
    for waiter in waiters { waiter.resume() }
  }
}
