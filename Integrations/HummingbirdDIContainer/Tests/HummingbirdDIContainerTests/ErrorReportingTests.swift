import DIContainer
import Hummingbird
import HummingbirdDIContainer
import HummingbirdTesting
import Logging
import Metrics
import MetricsTestKit
import Testing

/// Not registered: resolving it in a handler is a `DIError`.
struct Unregistered {}

/// An error a handler throws that is not an HTTP error.
struct PaymentFailure: Error, CustomStringConvertible {
  var description: String { "the card processor is down" }
}

/// A failed resolution, or any error that is not an HTTP error, reaches the request's logger
/// at `.error` with its whole text and is answered 500 with the request's id; HTTP errors
/// pass unchanged.
@Suite(.timeLimit(.minutes(2)))
struct ErrorReportingTests {
  /// The process's metrics backend: bootstrapped once, for every test that reads a metric.
  static let metrics: TestMetrics = {
    let metrics = TestMetrics()
    MetricsSystem.bootstrap(metrics)
    return metrics
  }()

  static func application(logs: CapturingLogHandler.Store) -> some ApplicationProtocol {
    let container = DIContainer()
    let router = Router(context: DIBasicRequestContext.self)
    router.add(middleware: DIRequestScopeMiddleware(container: container))
    router.get("unregistered") { _, context in
      let _: Unregistered = try await context.resolve()
      return "unreachable"
    }
    router.get("failing") { _, _ -> String in throw PaymentFailure() }
    router.get("missing") { _, _ -> String in throw HTTPError(.notFound, message: "No order 7") }
    return Application(
      router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
      logger: logs.logger())
  }

  @Test func aFailedResolutionIsLoggedAtErrorAndAnswered500WithTheRequestID() async throws {
    let metrics = Self.metrics
    let logs = CapturingLogHandler.Store()
    try await Self.application(logs: logs).test(.live) { client in
      let (status, body) = try await client.execute(uri: "/unregistered", method: .get) {
        ($0.status, String(buffer: $0.body))
      }
      #expect(status == .internalServerError)
      let errors = logs.all.filter { $0.level == .error }
      let entry = try #require(errors.first)
      #expect(errors.count == 1)
      #expect(entry.message.contains("Unregistered"), "the DIError's text: \(entry.message)")
      let expected = "\(DIError.self)"
      #expect(entry.metadata["error.type"] == .string(expected))
      let requestID = try #require(entry.metadata["hb.request.id"]).description
      #expect(body.contains("request id \(requestID)"), "\(body)")
    }
    let counter = try metrics.expectCounter(
      DIMetrics.resolutionFailures, [("code", "notRegistered")])
    #expect(counter.totalValue >= 1)
  }

  @Test func anyOtherErrorIsLoggedWithItsWholeText() async throws {
    let logs = CapturingLogHandler.Store()
    try await Self.application(logs: logs).test(.live) { client in
      let status = try await client.execute(uri: "/failing", method: .get) { $0.status }
      #expect(status == .internalServerError)
      let errors = logs.all.filter { $0.level == .error }
      #expect(errors.map(\.message) == ["request failed: the card processor is down"])
    }
  }

  @Test func anHTTPErrorPassesUnchangedAndIsNotLoggedAsAnError() async throws {
    let logs = CapturingLogHandler.Store()
    try await Self.application(logs: logs).test(.live) { client in
      let (status, body) = try await client.execute(uri: "/missing", method: .get) {
        ($0.status, String(buffer: $0.body))
      }
      #expect(status == .notFound)
      #expect(body.contains("No order 7"))
      #expect(logs.all.filter { $0.level == .error }.isEmpty)
    }
  }
}

/// `DIMetrics.timed` records an async factory's duration.
@Suite struct AsyncFactoryTimerTests {
  @Test func anAsyncFactoryRecordsItsDuration() async throws {
    let metrics = ErrorReportingTests.metrics
    let container = DIContainer()
    container.register { () async throws -> RecordingPool in
      try await DIMetrics.timed("RecordingPool") {
        try await Task.sleep(for: .milliseconds(1))
        return RecordingPool(events: EventLog())
      }
    }
    let _: RecordingPool = try await container.resolveAsync()
    let timer = try metrics.expectTimer(
      DIMetrics.asyncFactoryDuration, [("component", "RecordingPool")])
    #expect(timer.lastValue.map { $0 >= 1_000_000 } == true, "at least the 1 ms it slept")
  }
}
