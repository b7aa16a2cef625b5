import DIContainer
import Hummingbird
import HummingbirdDIContainer
import HummingbirdTesting
import ServiceLifecycle
import Testing

/// A `Service` component, like a database client whose `run()` must run: it records when it
/// starts and when its graceful shutdown ends its `run()`.
struct RecordingService: Service {
  let name: String
  let events: EventLog

  func run() async throws {
    events.record("\(name) running")
    try? await gracefulShutdown()
    events.record("\(name) stopped")
  }
}

/// `DIContainerService` runs the container's `Service` components while the server serves,
/// and on shutdown stops them (last registered first) before the container shuts down.
@Suite(.timeLimit(.minutes(2)))
struct ContainerServiceTests {
  static func container(_ events: EventLog) -> DIContainer {
    let container = DIContainer()
    container.register { RecordingService(name: "database", events: events) }
      .as((any Service).self)
      .lifetime(.perContainer(.single))
    container.register { RecordingService(name: "mailer", events: events) }
      .as((any Service).self)
      .lifetime(.perContainer(.single))
    container.register { RecordingPool(events: events) }
      .lifetime(.perContainer(.single))
      .onClean { pool in await pool.close() }
    return container
  }

  @Test func servicesRunWhileServingThenStopBeforeTheContainerShutsDown() async throws {
    let events = EventLog()
    let container = Self.container(events)
    let _: RecordingPool = try await container.resolveAsync()
    let router = Router(context: DIBasicRequestContext.self)
    router.add(middleware: DIRequestScopeMiddleware(container: container))
    router.get("ping") { _, _ in "pong" }
    let app = Application(
      router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
      services: [DIContainerService(container: container)])
    try await app.test(.live) { client in
      await events.wait(for: "database running")
      await events.wait(for: "mailer running")
      let body = try await client.execute(uri: "/ping", method: .get) { String(buffer: $0.body) }
      #expect(body == "pong")
      #expect(!events.events.contains { $0.hasSuffix("stopped") || $0 == "pool closed" })
    }
    // app.test returns once its service group has finished.
    #expect(
      events.events.filter { !$0.hasSuffix("running") }
        == ["mailer stopped", "database stopped", "pool closed"])
    await #expect(throws: DIError.self) {
      let _: RecordingPool = try await container.resolveAsync()
    }
  }

  @Test func withoutServiceComponentsTheContainerShutsDownOnGracefulShutdown() async throws {
    let events = EventLog()
    let container = DIContainer()
    container.register { RecordingPool(events: events) }
      .lifetime(.perContainer(.single))
      .onClean { pool in await pool.close() }
    let _: RecordingPool = try await container.resolveAsync()
    let router = Router(context: DIBasicRequestContext.self)
    router.get("ping") { _, _ in "pong" }
    let app = Application(
      router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
      services: [DIContainerService(container: container)])
    try await app.test(.live) { client in
      let status = try await client.execute(uri: "/ping", method: .get) { $0.status }
      #expect(status == .ok)
      #expect(events.events.isEmpty)
    }
    #expect(events.events == ["pool closed"])
  }
}

/// A pool that closes with `await` in its `onClean` hook.
final class RecordingPool: Sendable {
  let events: EventLog

  init(events: EventLog) { self.events = events }

  func close() async {
    await Task.yield()
    events.record("pool closed")
  }
}
