import DIContainer
import Logging
import Synchronization

/// An ordered record of what happened, shared by a test and the code it drives, with a way
/// to wait for an event without blocking a thread.
final class EventLog: Sendable {
  private struct State {
    var events: [String] = []
    var waiters: [(id: Int, event: String, continuation: CheckedContinuation<Bool, Never>)] = []
    var nextWaiter = 0
  }
  private let state = Mutex(State())

  /// The events so far, oldest first.
  var events: [String] { state.withLock { $0.events } }

  /// Records `event` and wakes whoever waits for it.
  func record(_ event: String) {
    let woken = state.withLock { state in
      state.events.append(event)
      let woken = state.waiters.filter { $0.event == event }.map(\.continuation)
      state.waiters.removeAll { $0.event == event }
      return woken
    }
    for continuation in woken { continuation.resume(returning: true) }
  }

  /// Returns `true` once `event` has been recorded, `false` if it has not been after
  /// `limit` (generous: a hang fails the test instead of stalling it).
  func waitFor(_ event: String, limit: Duration = .seconds(300)) async -> Bool {
    let id = state.withLock { state in
      state.nextWaiter += 1
      return state.nextWaiter
    }
    let timeout = Task {
      try? await Task.sleep(for: limit)
      let expired = state.withLock { state in
        let index = state.waiters.firstIndex { $0.id == id }
        return index.map { state.waiters.remove(at: $0).continuation }
      }
      expired?.resume(returning: false)
    }
    defer { timeout.cancel() }
    return await withCheckedContinuation { continuation in
      let already = state.withLock { state in
        if state.events.contains(event) { return true }
        state.waiters.append((id, event, continuation))
        return false
      }
      if already { continuation.resume(returning: true) }
    }
  }
}

/// A `.scoped` component whose `onClean` is recorded.
final class RequestProbe: Sendable {
  let id: Int
  private let cleaned = Atomic<Bool>(false)

  init(id: Int) { self.id = id }

  var isCleaned: Bool { cleaned.load(ordering: .acquiring) }
  func clean() { cleaned.store(true, ordering: .releasing) }
}

/// A swift-log handler that keeps every entry, for tests that read the log.
struct CapturingLogHandler: LogHandler {
  struct Entry: Sendable {
    let level: Logger.Level
    let message: String
    let metadata: Logger.Metadata
  }

  final class Store: Sendable {
    private let entries = Mutex<[Entry]>([])
    var all: [Entry] { entries.withLock { $0 } }
    func append(_ entry: Entry) { entries.withLock { $0.append(entry) } }
  }

  let store: Store
  var metadata: Logger.Metadata = [:]
  var logLevel: Logger.Level = .trace

  subscript(metadataKey key: String) -> Logger.Metadata.Value? {
    get { metadata[key] }
    set { metadata[key] = newValue }
  }

  func log(event: LogEvent) {
    store.append(
      Entry(
        level: event.level, message: "\(event.message)",
        metadata: metadata.merging(event.metadata ?? [:]) { $1 }))
  }
}
