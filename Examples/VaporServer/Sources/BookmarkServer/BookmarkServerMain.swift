import BookmarkServerCore
import DIContainer
import Dispatch
import Foundation
import Logging
import Metrics
import Prometheus
import Synchronization
import Vapor
import VaporDIContainer

/// `bookmark-server`: reads its options (a usage error exits 64), composes the container,
/// serves until SIGINT/SIGTERM, then stops the services and shuts the container down.
///
/// `bookmark-server cost [--hand] [--requests N]` sends N (default 1000) requests of
/// `GET /stats` (or, with `--hand`, `GET /by-hand/stats`) to the application's responder
/// without HTTP, on an in-memory SQLite store: what `Scripts/load.sh` counts with callgrind.
///
/// `main` is synchronous and runs the async work on a detached task, because valgrind 3.19
/// crashes on an async `main`.
@main
struct BookmarkServerMain {
  static func main() {
    let arguments = Array(CommandLine.arguments.dropFirst())
    let status = Mutex<Int32>(0)
    let done = DispatchSemaphore(value: 0)
    Task.detached {
      let code = arguments.first == "cost" ? await cost(arguments) : await serve(arguments)
      status.withLock { $0 = code }
      done.signal()
    }
    done.wait()
    exit(status.withLock { $0 })
  }

  /// Serves until SIGINT/SIGTERM; returns the exit status.
  static func serve(_ arguments: [String]) async -> Int32 {
    let besideServer =
      Bundle.main.executableURL?.deletingLastPathComponent()
      ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    let options: ServerOptions
    do {
      options = try ServerOptions.parse(
        arguments, environment: ProcessInfo.processInfo.environment,
        defaultSQLitePath: besideServer.appendingPathComponent("bookmarks.sqlite").path)
    } catch {
      FileHandle.standardError.write(Data("\(error)\n\(ServerOptions.usage)\n".utf8))
      return 64
    }
    if options.help {
      print(ServerOptions.usage)
      return 0
    }
    var logger = Logger(label: "bookmark-server")
    logger.logLevel = options.logLevel
    DISetting.Log.bridge(to: logger)
    var registry: PrometheusCollectorRegistry?
    if options.metrics {
      let metrics = PrometheusCollectorRegistry()
      MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: metrics))
      registry = metrics
    }
    return await withApplication(
      options: options, logger: logger, metrics: registry, name: "bookmark-server"
    ) { app in
      try await app.execute()
    }
  }

  /// Runs ``CostLoop`` and prints what it sent; returns the exit status.
  static func cost(_ arguments: [String]) async -> Int32 {
    let byHand = arguments.contains("--hand")
    var requests: Int? = 1000
    var known: Set<String> = ["cost", "--hand"]
    if let flag = arguments.firstIndex(of: "--requests") {
      let value = flag + 1 < arguments.count ? arguments[flag + 1] : ""
      requests = Int(value)
      known.formUnion(["--requests", value])
    }
    guard let requests, requests > 0, arguments.allSatisfy(known.contains) else {
      FileHandle.standardError.write(
        Data("usage: bookmark-server cost [--hand] [--requests N] (N > 0, default 1000)\n".utf8))
      return 64
    }
    var logger = Logger(label: "bookmark-server")
    logger.logLevel = .warning
    DISetting.Log.level = .none
    let options = ServerOptions(database: .sqlite(path: ":memory:"))
    return await withApplication(options: options, logger: logger, name: "cost") { app in
      try await app.asyncBoot()
      let path = byHand ? "/by-hand/stats" : "/stats"
      let bytes = try await CostLoop.run(app, path: path, requests: requests)
      print("\(requests) requests of \(path), \(bytes) bytes")
    }
  }

  /// Makes the application with the container of `options`, runs `body` with it, and shuts
  /// it down; returns the exit status: 1, the error logged under `name`, when a step fails.
  static func withApplication(
    options: ServerOptions, logger: Logger, metrics: PrometheusCollectorRegistry? = nil,
    name: String, _ body: (Application) async throws -> Void
  ) async -> Int32 {
    do {
      let app = try await Application.make(
        Environment(name: "production", arguments: [CommandLine.arguments[0]]))
      app.logger = logger
      do {
        let container = BookmarkServerApp.makeContainer(options: options, logger: logger)
        try BookmarkServerApp.configure(
          app, container: container, options: options, metrics: metrics)
        try await body(app)
      } catch {
        logger.critical("\(name) stopped: \(String(reflecting: error))")
        try? await app.asyncShutdown()
        return 1
      }
      try await app.asyncShutdown()
      return 0
    } catch {
      logger.critical("\(name) failed: \(String(reflecting: error))")
      return 1
    }
  }
}
