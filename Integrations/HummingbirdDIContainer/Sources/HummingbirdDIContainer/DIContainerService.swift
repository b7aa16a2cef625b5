public import DIContainer
public import Logging
public import ServiceLifecycle

/// A swift-service-lifecycle `Service` that runs the container's `Service` components (the
/// ones registered `.as(Service.self)`, such as PostgresNIO's `PostgresClient`, whose `run()`
/// must run for its queries to proceed) and, on graceful shutdown (SIGTERM, SIGINT), stops
/// them in reverse order and only then awaits `container.shutdown()`, which drops every
/// instance and awaits the `onClean` hooks.
///
/// List it before the HTTP server in the service group: a `ServiceGroup` shuts its services
/// down in reverse order, each after the one after it has finished, so the components stop
/// and the container shuts down once the server has stopped taking requests and finished the
/// ones in flight. Hummingbird runs an `Application`'s `services` before its server:
///
/// ```swift
/// container.register { PostgresClient(configuration: configuration) }
///   .as((any Service).self)
///   .lifetime(.perContainer(.single))
/// let app = Application(
///   router: router,
///   services: [DIContainerService(container: container)])
/// try await app.runService()   // SIGTERM: the server stops, the client stops, the container shuts down
/// ```
///
/// The components are resolved (`many`, asynchronously) when the service starts; a failure
/// to resolve them is thrown from `run()` after the container has shut down.
public struct DIContainerService: Service {
  private let container: DIContainer
  private let logger: Logger

  /// Makes the service of `container`.
  ///
  /// - Parameters:
  ///   - container: The container whose `Service` components run, and which shuts down.
  ///   - logger: The logger of the group that runs the components.
  public init(container: DIContainer, logger: Logger = Logger(label: "DIContainerService")) {
    self.container = container
    self.logger = logger
  }

  /// Runs the container's `Service` components until the graceful shutdown (or the
  /// cancellation) of its service group, stops them, then shuts the container down.
  ///
  /// - Throws: What resolving or running the components threw, after the shutdown.
  public func run() async throws {
    do {
      let services: [any Service] = many(try await container.resolveAsync())
      if services.isEmpty {
        try? await gracefulShutdown()
      } else {
        try await runComponents(services)
      }
    } catch {
      await container.shutdown()
      throw error
    }
    await container.shutdown()
  }

  /// Runs `services` in a group of their own that shuts down when this service's group does.
  private func runComponents(_ services: [any Service]) async throws {
    let group = ServiceGroup(
      configuration: ServiceGroupConfiguration(
        services: services.map { ServiceGroupConfiguration.ServiceConfiguration(service: $0) },
        logger: logger))
    try await withGracefulShutdownHandler {
      try await group.run()
    } onGracefulShutdown: {
      Task { await group.triggerGracefulShutdown() }
    }
  }
}
