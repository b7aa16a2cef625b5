import DIContainer
import Foundation
import Hummingbird
import HummingbirdDIContainer
import Logging
import OrderServerCore

// `OrderServer [--host H] [--port P] [--log-level L] [--hand] [--without-notifications]`
// serves on 127.0.0.1:8080 by default until SIGTERM or SIGINT. `--hand` serves `GET /stock`
// wired by hand (for the load script); `--without-notifications` leaves a framework out, so
// the graph's validation fails start-up with its report and exit status 1.
let arguments = Array(CommandLine.arguments.dropFirst())

/// The value after `flag`, if any.
func value(_ flag: String) -> String? {
  arguments.firstIndex(of: flag).flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
}

var logger = Logger(label: "order-server")
logger.logLevel = value("--log-level").flatMap(Logger.Level.init(rawValue:)) ?? .info
DISetting.Log.bridge(to: logger)

let configuration = ApplicationConfiguration(
  address: .hostname(
    value("--host") ?? "127.0.0.1", port: value("--port").flatMap(Int.init) ?? 8080),
  serverName: "OrderServer")

if arguments.contains("--hand") {
  let app = try await HandWiredApp(tracker: ResourceTracker())
  try await app.application(configuration: configuration, logger: logger).runService()
  exit(0)
}

let tracker = ResourceTracker()
let container = OrderContainer.make(
  tracker: tracker, withNotifications: !arguments.contains("--without-notifications"))
do {
  try await OrderContainer.boot(container)
} catch {
  logger.critical("start-up failed: the dependency graph is not valid")
  FileHandle.standardError.write(Data("\(error)\n".utf8))
  exit(1)
}
try await OrderServerApp.make(container: container, configuration: configuration, logger: logger)
  .runService()
logger.info(
  "stopped; pools opened \(tracker.openCounts.sorted { $0.key < $1.key }), closed \(tracker.closeCounts.sorted { $0.key < $1.key })"
)
