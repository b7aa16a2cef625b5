import DIContainer
import Hummingbird
import HummingbirdTesting
import Logging
import OrderServerCore
import ServiceLifecycle

/// A real order server on 127.0.0.1 and a free port, run in a service group as `runService()`
/// runs it; `run` gracefully shuts it down once `body` returns, and returns after the group
/// (the container's shutdown included) has finished.
struct LiveServer {
  let tracker = ResourceTracker()
  let container: DIContainer

  init() {
    container = OrderContainer.make(tracker: tracker)
  }

  /// Boots the container, serves, runs `body` with the port, then shuts down.
  func run<Value: Sendable>(
    _ body: @Sendable (_ port: Int) async throws -> Value,
    whileShuttingDown: @Sendable (_ port: Int) async throws -> Void = { _ in }
  ) async throws -> Value {
    try await OrderContainer.boot(container)
    let (ports, portSink) = AsyncStream.makeStream(of: Int.self)
    var logger = Logger(label: "order-server-test")
    logger.logLevel = .warning
    let app = OrderServerApp.make(
      container: container,
      configuration: .init(address: .hostname("127.0.0.1", port: 0), serverName: "test"),
      logger: logger, onServerRunning: { portSink.yield($0) })
    let group = ServiceGroup(configuration: .init(services: [app], logger: logger))
    return try await withThrowingTaskGroup(of: Void.self) { tasks in
      tasks.addTask { try await group.run() }
      var iterator = ports.makeAsyncIterator()
      guard let port = await iterator.next() else { throw CancellationError() }
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

/// The lines of a streamed `/stock/stream` body.
func lines(of body: ByteBuffer) -> [Substring] {
  String(buffer: body).split(separator: "\n")
}
