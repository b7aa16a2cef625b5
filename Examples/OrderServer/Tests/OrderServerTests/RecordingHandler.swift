import Logging
import Synchronization

/// A swift-log line as a test reads it.
struct RecordedLine: Sendable {
  let level: Logger.Level
  let message: String
  let metadata: [String: String]
}

/// The lines a ``RecordingHandler`` received.
final class RecordedLogs: Sendable {
  private let lines = Mutex<[RecordedLine]>([])
  var all: [RecordedLine] { lines.withLock { $0 } }
  func append(_ line: RecordedLine) { lines.withLock { $0.append(line) } }
}

/// A swift-log handler that keeps every line, with the logger's and the line's metadata.
struct RecordingHandler: LogHandler {
  let records: RecordedLogs
  var metadata: Logger.Metadata = [:]
  var logLevel: Logger.Level = .trace

  subscript(metadataKey key: String) -> Logger.Metadata.Value? {
    get { metadata[key] }
    set { metadata[key] = newValue }
  }

  func log(event: LogEvent) {
    let all = metadata.merging(event.metadata ?? [:]) { $1 }
    records.append(
      RecordedLine(
        level: event.level, message: "\(event.message)",
        metadata: all.mapValues { "\($0)" }))
  }
}
