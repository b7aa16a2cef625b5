import DIContainer
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import OrderServerCore
import Prometheus
import ServiceLifecycle
import Testing

/// A real order server on 127.0.0.1 and a free port, run in a service group as `runService()`
/// runs it; `run` gracefully shuts it down once `body` returns, and returns after the group
/// (the container's shutdown included) has finished. Its orders go to PostgreSQL when
/// `DATABASE_URL` is set (CI runs the tests a second time under `Scripts/with-postgres.sh`),
/// else to a new SQLite file.
struct LiveServer {
  let tracker = ResourceTracker()
  let container: DIContainer
  /// Whether `run` boots the container (validates the graph) first.
  let validates: Bool
  /// The registry served at `GET /metrics`, if any.
  let metrics: PrometheusCollectorRegistry?

  init(
    config: Config = LiveServer.config(), validates: Bool = true,
    metrics: PrometheusCollectorRegistry? = nil
  ) throws {
    container = try OrderContainer.make(config: config, tracker: tracker)
    self.validates = validates
    self.metrics = metrics
  }

  /// The tests' settings: `DATABASE_URL` from the environment, or an SQLite file of its own
  /// in a new temporary folder (or `sqlitePath`).
  static func config(sqlitePath: String? = nil) -> Config {
    var config = Config()
    config.databaseURL = ProcessInfo.processInfo.environment["DATABASE_URL"]
    config.databasePath = sqlitePath ?? temporaryDatabasePath()
    return config
  }

  /// A path in a new temporary folder, for an SQLite file.
  static func temporaryDatabasePath() -> String {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("order-server-tests-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder.appendingPathComponent("orders.sqlite").path
  }

  /// Boots the container, serves, runs `body` with the port, then shuts down.
  func run<Value: Sendable>(
    _ body: @Sendable (_ port: Int) async throws -> Value,
    whileShuttingDown: @Sendable (_ port: Int) async throws -> Void = { _ in }
  ) async throws -> Value {
    if validates { try await OrderContainer.boot(container) }
    let (ports, portSink) = AsyncStream.makeStream(of: Int.self)
    var logger = Logger(label: "order-server-test")
    logger.logLevel = .warning
    let app = OrderServerApp.make(
      container: container,
      configuration: .init(address: .hostname("127.0.0.1", port: 0), serverName: "test"),
      logger: logger, metrics: metrics, onServerRunning: { portSink.yield($0) })
    let group = ServiceGroup(configuration: .init(services: [app], logger: logger))
    return try await withThrowingTaskGroup(of: Void.self) { tasks in
      tasks.addTask {
        defer { portSink.finish() }  // a server that fails to start ends the wait for its port
        try await group.run()
      }
      var iterator = ports.makeAsyncIterator()
      guard let port = await iterator.next() else {
        try await tasks.waitForAll()  // the group's error
        throw CancellationError()
      }
      do {
        let value = try await body(port)
        await group.triggerGracefulShutdown()
        try await whileShuttingDown(port)
        try await tasks.waitForAll()
        return value
      } catch {
        await group.triggerGracefulShutdown()
        throw error
      }
    }
  }
}

/// Whether `condition` holds within `limit`, checked every 10 ms.
func eventually(within limit: Duration = .seconds(5), _ condition: () -> Bool) async -> Bool {
  let deadline = ContinuousClock.now + limit
  while ContinuousClock.now < deadline {
    if condition() { return true }
    try? await Task.sleep(for: .milliseconds(10))
  }
  return condition()
}

/// How many of each product `GET /stock` says are left, by SKU.
func available(_ client: TestClient) async throws -> [String: Int] {
  let response = try await client.get("/stock")
  let items = try JSONDecoder().decode(
    [StockItem].self, from: Data(buffer: try #require(response.body)))
  return Dictionary(uniqueKeysWithValues: items.map { ($0.sku, $0.available) })
}

/// Places an order of `lines` (SKU and quantity each) and returns it as the server saved it.
func placeOrder(
  _ lines: [(sku: String, quantity: Int)], customer: String = "ada", with client: TestClient
) async throws -> Order {
  let body = try JSONEncoder().encode(
    NewOrder(customer: customer, items: lines.map { OrderLine(sku: $0.sku, quantity: $0.quantity) })
  )
  let response = try await client.post(
    "/orders", headers: [.contentType: "application/json"], body: ByteBuffer(bytes: body))
  #expect(response.status == .created)
  return try JSONDecoder().decode(Order.self, from: Data(buffer: try #require(response.body)))
}

/// The lines of a streamed `/stock/stream` body.
func lines(of body: ByteBuffer) -> [Substring] {
  String(buffer: body).split(separator: "\n")
}
