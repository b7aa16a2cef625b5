import BookmarkServerCore
import DIContainer
import DIParts
import Metrics
import Prometheus
import Testing
import Vapor
import VaporTesting

/// The process's metrics registry: swift-metrics is bootstrapped once per process.
private let registry: PrometheusCollectorRegistry = {
  let registry = PrometheusCollectorRegistry()
  MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
  return registry
}()

@Suite struct MetricsTests {
  @Test func theStoresFactoryDurationAndResolutionFailuresAreReported() async throws {
    try await withServer(TestDatabase.sqlite.options(), metrics: registry) { app in
      let text = try await app.send(.GET, "metrics").body.string
      #expect(text.contains(#"di_async_factory_duration_count{service="SQLiteBookmarkStore"}"#))
    }

    // A container whose PostgreSQL part meets SQLite options: every bookmark request fails
    // to resolve its handler, is a 500, and is counted.
    let options = TestDatabase.sqlite.options()
    let app = try await Application.make(.testing)
    let container = BookmarkServerApp.makeContainer(options: options, logger: app.logger)
    container.append(part: PostgresStoragePart.self)
    try BookmarkServerApp.configure(app, container: container, options: options, metrics: registry)
    let failed = try await app.send(.GET, "bookmarks")
    let text = try await app.send(.GET, "metrics").body.string
    try await app.asyncShutdown()
    #expect(failed.status == .internalServerError)
    #expect(text.contains(#"di_resolution_failures_total{service="BookmarkHandler"}"#))
  }
}
