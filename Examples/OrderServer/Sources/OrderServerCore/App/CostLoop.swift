public import DIContainer
import HTTPTypes
import HummingbirdDIContainer
import Logging

/// The work of `GET /stock` without HTTP, `requests` times: what the load script measures
/// under callgrind to tell what the container adds per request.
public enum CostLoop {
  /// Runs the loop through the container: a scope per request, as the middleware opens it
  /// (the request's info filled in), the handler resolved in it, the scope closed.
  ///
  /// - Parameters:
  ///   - container: A booted container.
  ///   - requests: How many requests.
  ///   - query: Whether the handler reads the stock. Without the query, a request is only
  ///     the wiring's work, on the calling task: its count of instructions is the same from
  ///     run to run, while the query's hops to SQLite's threads move it by about a thousand.
  /// - Returns: A checksum, so the work is not optimized away.
  /// - Throws: A resolution error; the database's error.
  public static func viaContainer(
    _ container: DIContainer, requests: Int, query: Bool = true
  ) async throws -> Int {
    let logger = Logger(label: "cost")
    var checksum = 0
    for index in 0..<requests {
      let scope = container.makeScope()
      let info: HTTPRequestInfo = try scope.tryResolve()
      info.set(id: "\(index)", method: .get, path: "/stock", logger: logger)
      let handler: StockHandler = try await scope.resolveAsync()
      checksum &+= query ? try await handler.list().count : index
      await scope.closeAwaitingHooks()
    }
    return checksum
  }

  /// Runs the loop wired by hand: the request's info, log and handler made directly, the
  /// log closed.
  ///
  /// - Parameters:
  ///   - app: The hand-wired server's objects.
  ///   - requests: How many requests.
  ///   - query: Whether the handler reads the stock (see
  ///     ``viaContainer(_:requests:query:)``).
  /// - Returns: A checksum, so the work is not optimized away.
  /// - Throws: The database's error.
  public static func byHand(
    _ app: HandWiredApp, requests: Int, query: Bool = true
  ) async throws -> Int {
    let logger = Logger(label: "cost")
    var checksum = 0
    for index in 0..<requests {
      let info = HTTPRequestInfo(id: "\(index)", method: .get, path: "/stock", logger: logger)
      let (handler, log) = app.stockHandler(for: info)
      checksum &+= query ? try await handler.list().count : index
      withExtendedLifetime(handler) { log.close() }
    }
    return checksum
  }
}
