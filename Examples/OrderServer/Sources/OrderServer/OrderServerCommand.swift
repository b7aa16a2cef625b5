import DIContainer
import Dispatch
import Foundation
import Hummingbird
import HummingbirdDIContainer
import Logging
import OrderServerCore
import Synchronization

/// The order server's command line.
///
/// - `OrderServer [--host H] [--port P] [--log-level L] [--database-path F] [--database-url U]
///   [--metrics] [--hand] [--without-notifications]` serves on 127.0.0.1:8080 by default until
///   SIGTERM or SIGINT; the settings come from the command line and the environment
///   (``Config``). `--metrics` bootstraps swift-metrics with a Prometheus registry served at
///   `GET /metrics`. `--hand` serves `GET /stock` wired by hand, on SQLite (for the load script);
///   `--without-notifications` leaves a framework out, so the graph's validation fails
///   start-up with its report and status 1. An unknown flag or a bad value prints the usage
///   and exits with status 64.
/// - `OrderServer cost [--hand] [--requests N] [--without-query]` runs the work of
///   `GET /stock` without HTTP, N times, through the container or wired by hand: what
///   `Scripts/load.sh` counts with callgrind. `--without-query` leaves out the handler's
///   read of the stock, so that only the wiring's work is counted.
///
/// `main` is synchronous and runs the async work on a detached task, because valgrind 3.19
/// crashes on an async `main`.
@main
enum OrderServerCommand {
  static func main() {
    let arguments = Array(CommandLine.arguments.dropFirst())
    do {
      if arguments.first == "cost" {
        try runBlocking { try await cost(arguments) }
      } else {
        try runBlocking { try await serve(arguments) }
      }
    } catch let error as UsageError {
      FileHandle.standardError.write(Data("\(error)\n".utf8))
      exit(64)
    } catch {
      FileHandle.standardError.write(Data("\(error)\n".utf8))
      exit(1)
    }
  }

  /// Serves until SIGTERM or SIGINT.
  static func serve(_ arguments: [String]) async throws {
    let config = try Config.load(
      arguments: arguments, environment: ProcessInfo.processInfo.environment)
    var logger = Logger(label: "order-server")
    logger.logLevel = config.logLevel
    DISetting.Log.bridge(to: logger)
    let configuration = ApplicationConfiguration(
      address: .hostname(config.host, port: config.port), serverName: "OrderServer")

    if config.handWired {
      if config.databaseURL != nil {
        logger.warning(
          "--hand serves from SQLite (\(config.databasePath)); DATABASE_URL is not used")
      }
      let app = try await HandWiredApp(
        databasePath: config.databasePath, tracker: ResourceTracker(), logger: logger)
      try await app.application(configuration: configuration, logger: logger).runService()
      return
    }
    let tracker = ResourceTracker()
    let container = try OrderContainer.make(config: config, tracker: tracker, logger: logger)
    do {
      try await OrderContainer.boot(container)
    } catch {
      logger.critical("start-up failed: the dependency graph is not valid")
      throw error
    }
    let metrics = config.metrics ? OrderServerApp.bootstrapMetrics() : nil
    try await OrderServerApp.make(
      container: container, configuration: configuration, logger: logger, metrics: metrics
    ).runService()
    let opened = tracker.openCounts.sorted { $0.key < $1.key }
    let closed = tracker.closeCounts.sorted { $0.key < $1.key }
    logger.info("stopped; opened \(opened), closed \(closed)")
  }

  /// Runs the request loop without HTTP and prints its checksum.
  static func cost(_ arguments: [String]) async throws {
    let requests = value("--requests", in: arguments).flatMap(Int.init) ?? 1000
    guard requests > 0 else { throw UsageError("cost: --requests must be a positive number") }
    DISetting.Log.level = .none
    let checksum: Int
    let byHand = arguments.contains("--hand")
    let query = !arguments.contains("--without-query")
    if byHand {
      let app = try await HandWiredApp(
        databasePath: ":memory:", tracker: ResourceTracker(), logger: Logger(label: "cost"))
      checksum = try await CostLoop.byHand(app, requests: requests, query: query)
      await app.close()
    } else {
      var config = Config()
      config.databasePath = ":memory:"
      let container = try OrderContainer.make(config: config, tracker: ResourceTracker())
      try await OrderContainer.boot(container)
      try await OrderContainer.openDatabase(container)
      checksum = try await CostLoop.viaContainer(container, requests: requests, query: query)
      await container.shutdown()
    }
    print("\(requests) requests \(byHand ? "by hand" : "via the container"), checksum \(checksum)")
  }

  /// The value after `flag`, if any.
  static func value(_ flag: String, in arguments: [String]) -> String? {
    arguments.firstIndex(of: flag).flatMap {
      $0 + 1 < arguments.count ? arguments[$0 + 1] : nil
    }
  }

  /// Runs `body` on a detached task and blocks the calling thread until it ends.
  static func runBlocking(_ body: @escaping @Sendable () async throws -> Void) throws {
    let failure = Mutex<(any Error)?>(nil)
    let done = DispatchSemaphore(value: 0)
    Task.detached {
      do {
        try await body()
      } catch {
        failure.withLock { $0 = error }
      }
      done.signal()
    }
    done.wait()
    if let error = failure.withLock({ $0 }) { throw error }
  }
}
