/// The tasks running the `async` `onClean` hooks of instances that a synchronous call
/// (`clean()`, `close()`, …) dropped: process-wide, so `shutdown()` can wait for them.
enum TeardownTasks {
  private struct State {
    var next = 0
    var running: [Int: Task<Void, Never>] = [:]
  }

  private static let state = Locked(State())

  /// Starts `body` on a task of its own, recorded until it ends.
  static func start(_ body: @escaping @Sendable () async -> Void) {
    state.withLock { state in
      let id = state.next
      state.next += 1
      // Recorded before it can end: its removal takes the same lock.
      state.running[id] = Task {
        await body()
        _ = Self.state.withLock { $0.running.removeValue(forKey: id) }
      }
    }
  }

  /// Waits until every task started so far, and those they lead to, has ended.
  static func waitForAll() async {
    while let task = state.withLock({ $0.running.values.first }) {
      await task.value
      // Ended: it removed itself, or is about to; never wait for one task twice.
      state.withLock { state in
        state.running = state.running.filter { $0.value != task }
      }
    }
  }
}
