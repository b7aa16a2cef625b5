public import DIContainer
import Logging
import ServiceLifecycle
import Synchronization
public import Vapor

/// Vapor's lifecycle for the container: before the application boots, it starts the
/// swift-service-lifecycle `Service` components registered in the container
/// (`.as(Service.self)`: a PostgresNIO `PostgresClient`, whose `run()` must run for it to
/// serve queries) in a `ServiceGroup` of their own; at the application's shutdown (after the
/// HTTP server has stopped), it shuts them down gracefully, waits for them to stop, and only
/// then awaits `container.shutdown()`, which drops every instance and awaits the `onClean`
/// hooks.
///
/// ```swift
/// container.register { (settings: Settings) in
///   PostgresClient(configuration: settings.postgres)
/// }
/// .as(Service.self)
/// .lifetime(.perContainer(.single))
/// app.lifecycle.use(DIContainerLifecycleHandler(container: container))
/// ```
public final class DIContainerLifecycleHandler: LifecycleHandler {
  /// What the handler runs: the group of services and the task running it.
  private struct Running {
    let group: ServiceGroup
    let task: Task<Void, Never>
  }

  private let container: DIContainer
  private let running = Mutex<Running?>(nil)

  /// Makes the handler of `container`.
  ///
  /// - Parameter container: The container whose services run and which shuts down.
  ///
  /// ```swift
  /// app.lifecycle.use(DIContainerLifecycleHandler(container: container))
  /// ```
  public init(container: DIContainer) {
    self.container = container
  }

  /// Resolves every `Service` component and starts running them, before the application
  /// boots (and before its server takes requests).
  ///
  /// - Parameter application: The application that boots.
  /// - Throws: The `DIError` of a `Service` component that cannot be made.
  ///
  /// ```swift
  /// try await app.asyncBoot()   // the PostgresClient's run() is running now
  /// ```
  public func willBootAsync(_ application: Application) async throws {
    let services: [any Service] = many(try await container.resolveAsync())
    guard !services.isEmpty else { return }
    let logger = application.logger
    let group = ServiceGroup(
      services: services, gracefulShutdownSignals: [], cancellationSignals: [], logger: logger)
    let task = Task {
      do {
        try await group.run()
      } catch {
        logger.error(
          "A Service component failed: \(String(reflecting: error))", source: "VaporDIContainer")
      }
    }
    running.withLock { $0 = Running(group: group, task: task) }
  }

  /// Shuts the services down gracefully, waits for them to stop, then awaits
  /// `container.shutdown()`.
  ///
  /// - Parameter application: The application that shuts down.
  ///
  /// ```swift
  /// try await app.asyncShutdown()   // the services stop, then container.shutdown()
  /// ```
  public func shutdownAsync(_ application: Application) async {
    if let running = running.withLock({ $0.take() }) {
      await running.group.triggerGracefulShutdown()
      await running.task.value
    }
    await container.shutdown()
  }
}
