import Synchronization
public import Vapor

/// The server's counters: one per container.
public final class ServerCounters: Sendable {
  private let served = Atomic<Int>(0)

  /// Makes counters at zero.
  public init() {}

  /// Counts one request of `/stats` and returns the new total.
  public func countRequest() -> Int {
    served.add(1, ordering: .relaxed).newValue
  }
}

/// The answer of `GET /stats`.
public struct Stats: Content, Equatable {
  /// The server's name.
  public var server: String
  /// How many `/stats` requests the server has answered, this one included.
  public var requests: Int

  /// Makes the stats.
  ///
  /// - Parameters:
  ///   - server: The server's name.
  ///   - requests: How many `/stats` requests it has answered.
  public init(server: String, requests: Int) {
    self.server = server
    self.requests = requests
  }
}

/// Answers `GET /stats` (and `GET /by-hand/stats`, built without the container, to compare
/// their throughput).
public struct StatsHandler: Sendable {
  private let counters: ServerCounters
  private let log: RequestLog

  /// Makes the handler of one request.
  ///
  /// - Parameters:
  ///   - counters: The server's counters.
  ///   - log: The request's log.
  public init(counters: ServerCounters, log: RequestLog) {
    self.counters = counters
    self.log = log
  }

  /// Counts the request and returns the stats.
  public func stats() -> Stats {
    log.record("stats")
    return Stats(server: "bookmark-server", requests: counters.countRequest())
  }
}
