public import HummingbirdDIContainer
import Logging
import Synchronization

/// The log of one request (`.scoped`): the lines the request's components write, sent to
/// the request's logger, which names the request's id. Writing to it after its scope closed
/// is a problem the ``ResourceTracker`` notes.
public final class RequestLog: Sendable {
  private static let serials = Atomic(0)

  /// A number no other request log of the process has.
  public let serial: Int
  /// The request it logs.
  public let request: HTTPRequestInfo
  private let tracker: ResourceTracker
  private let state = Mutex((lines: 0, isClosed: false))

  /// Makes the log of `request`.
  ///
  /// - Parameters:
  ///   - request: The request, filled in by the scope middleware.
  ///   - tracker: Where closing and misuse are reported.
  public init(request: HTTPRequestInfo, tracker: ResourceTracker) {
    serial = Self.serials.add(1, ordering: .relaxed).newValue
    self.request = request
    self.tracker = tracker
    tracker.opened("request-log")
  }

  /// Whether its scope closed it.
  public var isClosed: Bool { state.withLock { $0.isClosed } }

  /// How many lines were written.
  public var lineCount: Int { state.withLock { $0.lines } }

  /// Writes a line (at debug level, with the request's id as the logger's metadata).
  ///
  /// - Parameter line: What happened.
  public func record(_ line: String) {
    let closed = state.withLock { state in
      state.lines += 1
      return state.isClosed
    }
    if closed { tracker.problem("request \(request.id): log written after close: \(line)") }
    request.logger.debug("\(line)")
  }

  /// Closes the log: its `onClean` hook, run when the request's scope closes.
  public func close() {
    let lines = state.withLock { state in
      state.isClosed = true
      return state.lines
    }
    tracker.closed("request-log")
    request.logger.trace("request log closed after \(lines) lines")
  }
}
