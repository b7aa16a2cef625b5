import Synchronization

/// Counts what the server's resources did — pools connected and closed, request logs closed,
/// misuse — so that tests and the shutdown log can check every resource is closed once.
public final class ResourceTracker: Sendable {
  private struct State {
    var opened: [String: Int] = [:]
    var closed: [String: Int] = [:]
    var problems: [String] = []
  }

  private let state = Mutex(State())

  /// Makes an empty tracker.
  public init() {}

  /// Notes that a resource named `name` opened.
  ///
  /// - Parameter name: The resource, such as `inventory-db`.
  public func opened(_ name: String) { state.withLock { $0.opened[name, default: 0] += 1 } }

  /// Notes that a resource named `name` closed.
  ///
  /// - Parameter name: The resource, such as `inventory-db`.
  public func closed(_ name: String) { state.withLock { $0.closed[name, default: 0] += 1 } }

  /// Notes a misuse, such as a request log written after its scope closed.
  ///
  /// - Parameter problem: What went wrong.
  public func problem(_ problem: String) { state.withLock { $0.problems.append(problem) } }

  /// How many times each resource opened.
  public var openCounts: [String: Int] { state.withLock { $0.opened } }
  /// How many times each resource closed.
  public var closeCounts: [String: Int] { state.withLock { $0.closed } }
  /// The misuses noted, in order.
  public var problems: [String] { state.withLock { $0.problems } }
}
