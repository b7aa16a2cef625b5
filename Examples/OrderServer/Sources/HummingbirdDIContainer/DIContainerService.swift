public import DIContainer
public import ServiceLifecycle

/// A swift-service-lifecycle `Service` that shuts the container down on graceful shutdown
/// (SIGTERM, SIGINT): it waits for the shutdown to begin, then awaits `container.shutdown()`,
/// which drops every instance and awaits the `onClean` hooks (pools close).
///
/// List it before the HTTP server in the service group: a `ServiceGroup` shuts its services
/// down in reverse order, each after the one after it has finished, so the container shuts
/// down once the server has stopped taking requests and finished the ones in flight.
/// Hummingbird runs an `Application`'s `services` before its server, so pass it there:
///
/// ```swift
/// let app = Application(
///   router: router,
///   services: [DIContainerService(container: container)])
/// try await app.runService()   // SIGTERM: the server stops, then the container shuts down
/// ```
public struct DIContainerService: Service {
  private let container: DIContainer

  /// Makes the service of `container`.
  ///
  /// - Parameter container: The container to shut down.
  public init(container: DIContainer) {
    self.container = container
  }

  /// Waits for the graceful shutdown (or the cancellation) of its service group, then
  /// shuts the container down.
  public func run() async throws {
    try? await gracefulShutdown()
    await container.shutdown()
  }
}
