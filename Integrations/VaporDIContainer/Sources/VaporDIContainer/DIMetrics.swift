import Metrics

/// The container's metrics, through swift-metrics: off (a no-op) unless the process has
/// bootstrapped a metrics backend (`MetricsSystem.bootstrap(…)`).
///
/// - `di_resolution_failures_total` (counter): failed resolutions of ``Vapor/Request/resolve()``,
///   dimension `service` (the requested type).
/// - `di_async_factory_duration` (timer, nanoseconds): the runs of async factories wrapped in
///   ``timed(_:_:)``, dimension `service`.
///
/// ```swift
/// container.register { (settings: Settings) async throws -> NoteStore in
///   try await DIMetrics.timed(NoteStore.self) { try await NoteStore.open(settings) }
/// }
/// ```
public enum DIMetrics {
  /// The counter's label.
  ///
  /// ```swift
  /// #expect(DIMetrics.resolutionFailuresLabel == "di_resolution_failures_total")
  /// ```
  public static let resolutionFailuresLabel = "di_resolution_failures_total"
  /// The timer's label.
  ///
  /// ```swift
  /// #expect(DIMetrics.asyncFactoryDurationLabel == "di_async_factory_duration")
  /// ```
  public static let asyncFactoryDurationLabel = "di_async_factory_duration"

  /// Counts one failed resolution of `service`.
  ///
  /// - Parameter service: The type whose resolution failed.
  ///
  /// ```swift
  /// DIMetrics.countFailure(service: NoteStore.self)
  /// ```
  public static func countFailure<T>(service: T.Type) {
    Counter(label: resolutionFailuresLabel, dimensions: [("service", "\(T.self)")]).increment()
  }

  /// Runs an async factory's body and records how long it took, under `service`'s name
  /// (also when it throws).
  ///
  /// - Parameters:
  ///   - service: The type the factory makes.
  ///   - body: The factory's work.
  /// - Returns: What `body` returns.
  /// - Throws: What `body` throws.
  ///
  /// ```swift
  /// let store = try await DIMetrics.timed(NoteStore.self) { try await NoteStore.open(settings) }
  /// ```
  public static func timed<T, Result>(
    _ service: T.Type, _ body: () async throws -> Result
  ) async rethrows -> Result {
    let start = ContinuousClock.now
    defer {
      Metrics.Timer(label: asyncFactoryDurationLabel, dimensions: [("service", "\(T.self)")])
        .record(duration: ContinuousClock.now - start)
    }
    return try await body()
  }
}
