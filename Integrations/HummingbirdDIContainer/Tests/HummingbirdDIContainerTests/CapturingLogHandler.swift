import Logging
import Synchronization

/// A swift-log handler that keeps every entry, so a test reads what was logged.
struct CapturingLogHandler: LogHandler {
  /// One logged line.
  struct Entry: Sendable {
    var level: Logger.Level
    var message: String
    var metadata: Logger.Metadata
  }

  /// The entries of every handler made from one store.
  final class Store: Sendable {
    private let entries = Mutex<[Entry]>([])

    /// The entries so far.
    var all: [Entry] { entries.withLock { $0 } }

    func append(_ entry: Entry) { entries.withLock { $0.append(entry) } }

    /// A logger whose lines go to this store.
    func logger(label: String = "test") -> Logger {
      var logger = Logger(label: label) { _ in CapturingLogHandler(store: self) }
      logger.logLevel = .trace
      return logger
    }
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
