import BookmarkServerCore
import DIContainer
import Foundation
import Logging
import Metrics
import Prometheus
import Vapor
import VaporDIContainer

/// `bookmark-server`: reads its options (a usage error exits 64), composes the container,
/// serves until SIGINT/SIGTERM, then stops the services and shuts the container down.
@main
struct BookmarkServerMain {
  static func main() async {
    let besideServer =
      Bundle.main.executableURL?.deletingLastPathComponent()
      ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    let options: ServerOptions
    do {
      options = try ServerOptions.parse(
        Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment,
        defaultSQLitePath: besideServer.appendingPathComponent("bookmarks.sqlite").path)
    } catch {
      FileHandle.standardError.write(Data("\(error)\n\(ServerOptions.usage)\n".utf8))
      exit(64)
    }
    if options.help {
      print(ServerOptions.usage)
      return
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
    do {
      let app = try await Application.make(
        Environment(name: "production", arguments: [CommandLine.arguments[0]]))
      app.logger = logger
      do {
        let container = BookmarkServerApp.makeContainer(options: options, logger: logger)
        try BookmarkServerApp.configure(
          app, container: container, options: options, metrics: registry)
        try await app.execute()
      } catch {
        logger.critical("bookmark-server stopped: \(String(reflecting: error))")
        try? await app.asyncShutdown()
        exit(1)
      }
      try await app.asyncShutdown()
    } catch {
      logger.critical("bookmark-server failed: \(String(reflecting: error))")
      exit(1)
    }
  }
}
