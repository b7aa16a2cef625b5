public import Logging
import Synchronization

/// What one request did to the store, `.scoped`: one per request, written to the log at
/// `debug` when the request's scope closes (after its response has been written).
public final class RequestLog: Sendable {
  private let actions = Mutex<[String]>([])
  private let logger: Logger

  /// Makes an empty one.
  ///
  /// - Parameter logger: Where ``flush()`` writes.
  public init(logger: Logger) {
    self.logger = logger
  }

  /// Records `action` (`list 10 from 0`).
  ///
  /// - Parameter action: What the request did.
  public func record(_ action: String) {
    actions.withLock { $0.append(action) }
  }

  /// What the request did, in order.
  public var recorded: [String] { actions.withLock { $0 } }

  /// Logs what the request did, at `debug`.
  public func flush() {
    let recorded = recorded
    guard !recorded.isEmpty else { return }
    logger.debug("request done: \(recorded.joined(separator: ", "))")
  }
}
