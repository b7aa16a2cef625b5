import DIContainer
import Foundation
import Hummingbird
import HummingbirdDIContainer
import Logging
import OrderServerCore

/// `OrderServer [--host H] [--port P] [--hand] [--without-notifications]` serves until
/// SIGTERM/SIGINT; `OrderServer cost --di|--hand --requests N` runs the request loop
/// without HTTP (for callgrind) and prints its checksum.
let arguments = Array(CommandLine.arguments.dropFirst())

/// The value after `flag`, if any.
func value(_ flag: String) -> String? {
  arguments.firstIndex(of: flag).flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
}

var logger = Logger(label: "order-server")
logger.logLevel = value("--log-level").flatMap(Logger.Level.init(rawValue:)) ?? .info
DISetting.Log.bridge(to: logger)

if arguments.first == "cost" {
  let requests = value("--requests").flatMap(Int.init) ?? 1000
  DISetting.Log.level = .none
  let checksum: Int
  if arguments.contains("--hand") {
    checksum = CostLoop.byHand(
      try await HandWiredApp(tracker: ResourceTracker()), requests: requests)
  } else {
    let container = OrderContainer.make(tracker: ResourceTracker())
    try await OrderContainer.boot(container)
    checksum = try await CostLoop.viaContainer(container, requests: requests)
  }
  print("\(requests) requests, checksum \(checksum)")
  exit(0)
}

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
