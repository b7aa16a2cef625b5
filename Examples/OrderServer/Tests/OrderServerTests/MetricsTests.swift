import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import OrderServerCore
import Prometheus
import Testing

/// The registry of the test process: swift-metrics takes one bootstrap per process, so every
/// test that reads metrics shares it (the other suites' figures land in it too).
let processMetrics = OrderServerApp.bootstrapMetrics()

/// With `--metrics`, the container's figures (`DIMetrics`) reach a Prometheus registry served
/// at `GET /metrics`: the database's opening time and the resolutions that failed.
@Suite(.timeLimit(.minutes(2)))
struct MetricsTests {
  @Test func theDatabasesOpeningTimeAndAFailedResolutionAreServed() async throws {
    // Notifications left out and the graph not validated: every POST /orders fails to
    // resolve its handler (it needs a Notifier), a DIError answered 500 and counted.
    var config = LiveServer.config()
    config.withNotifications = false
    let server = try LiveServer(config: config, validates: false, metrics: processMetrics)
    let text = try await server.run { port in
      try await TestClient.withClient(host: "127.0.0.1", port: port) { client in
        let failed = try await client.post(
          "/orders", headers: [.contentType: "application/json"],
          body: ByteBuffer(string: #"{"customer":"ada","items":[{"sku":"tea","quantity":1}]}"#))
        #expect(failed.status == .internalServerError)
        let metrics = try await client.get("/metrics")
        #expect(metrics.status == .ok)
        #expect(metrics.headers[.contentType]?.hasPrefix("text/plain") == true)
        return String(buffer: try #require(metrics.body))
      }
    }
    let database = config.databaseURL == nil ? "SQLiteOrderDatabase" : "PostgresOrderDatabase"
    #expect(
      text.contains(#"di_async_factory_duration_count{component="\#(database)"} "#), "\(text)")
    #expect(text.contains(#"di_resolution_failures{code="notRegistered"} "#), "\(text)")
  }

  @Test func withoutARegistryThereIsNoMetricsRoute() async throws {
    let status = try await LiveServer().run { port in
      try await TestClient.withClient(host: "127.0.0.1", port: port) { client in
        try await client.get("/metrics").status
      }
    }
    #expect(status == .notFound)
  }
}
