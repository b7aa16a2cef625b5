public import DIContainer
import Metrics

/// The container's figures in swift-metrics: resolution failures (a counter) and the
/// durations of async factories (a timer). They are recorded through whatever backend the
/// process bootstrapped (`MetricsSystem.bootstrap`); without one, swift-metrics drops them.
///
/// ```swift
/// MetricsSystem.bootstrap(PrometheusMetricsFactory())   // or any backend; none: nothing is kept
/// container.register { (config: Config) async throws -> Database in
///   try await DIMetrics.timed("Database") { try await Database.open(config.url) }
/// }
/// ```
public enum DIMetrics {
  /// The counter of `DIError`s the request-scope middleware answered with a 500, with the
  /// error's code as the `code` dimension.
  public static let resolutionFailures = "di_resolution_failures"
  /// The timer of ``timed(_:_:)``, with the component's name as the `component` dimension.
  public static let asyncFactoryDuration = "di_async_factory_duration"

  /// Counts a failed resolution.
  ///
  /// - Parameter error: The error.
  public static func countFailure(_ error: DIError) {
    Counter(label: resolutionFailures, dimensions: [("code", "\(error.code)")]).increment()
  }

  /// Runs an async factory's body and records how long it took (whether it returned or
  /// threw) in the ``asyncFactoryDuration`` timer.
  ///
  /// - Parameters:
  ///   - component: The component's name, the timer's `component` dimension.
  ///   - body: The factory's work.
  /// - Returns: What `body` returns.
  /// - Throws: What `body` throws.
  public static func timed<T>(
    _ component: String, _ body: () async throws -> T
  ) async rethrows -> T {
    let start = ContinuousClock.now
    defer {
      let (seconds, attoseconds) = (ContinuousClock.now - start).components
      Timer(label: asyncFactoryDuration, dimensions: [("component", component)])
        .recordNanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
    return try await body()
  }
}
