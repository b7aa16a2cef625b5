import DIContainer
import ServiceLifecycle
import Testing
import Vapor
import VaporDIContainer

/// A `Service` component that records when it runs and when it stops.
private struct RecordingService: Service {
  let log: EventLog

  func run() async throws {
    log.record("service running")
    try? await gracefulShutdown()
    log.record("service stopped")
  }
}

/// A component with a teardown, cleaned by `container.shutdown()`.
private final class Pool: Sendable {}

@Suite struct LifecycleShutdownTests {
  @Test func servicesRunDuringTheApplicationAndStopBeforeTheContainerShutsDown() async throws {
    let log = EventLog()
    let container = DIContainer()
    container.register { RecordingService(log: log) }.as((any Service).self)
      .lifetime(.perContainer(.single))
    container.register { Pool() }.lifetime(.perContainer(.single))
      .onClean { _ in log.record("pool closed") }
    let _: Pool = try container.tryResolve()

    let app = try await Application.make(.testing)
    app.use(container: container)
    try await app.asyncBoot()
    #expect(await log.waitFor("service running"))
    #expect(log.events == ["service running"])
    try await app.asyncShutdown()
    #expect(log.events == ["service running", "service stopped", "pool closed"])
    await #expect(throws: DIError.self) { let _: Pool = try await container.resolveAsync() }
  }

  @Test func anApplicationWithoutServicesStillShutsTheContainerDown() async throws {
    let log = EventLog()
    let container = DIContainer()
    container.register { Pool() }.lifetime(.perContainer(.single))
      .onClean { _ in log.record("pool closed") }
    let _: Pool = try container.tryResolve()

    let app = try await Application.make(.testing)
    app.use(container: container)
    try await app.asyncBoot()
    try await app.asyncShutdown()
    #expect(log.events == ["pool closed"])
  }
}
