import Configuration
import Foundation
public import Logging

/// The server's settings, read with swift-configuration from the command line
/// (`--port 8081`) and then the environment (`PORT=8081`), the command line first; a
/// component of the container (`.perContainer(.single)`).
///
/// | setting | flag | variable | default |
/// | --- | --- | --- | --- |
/// | host | `--host` | `HOST` | `127.0.0.1` |
/// | port | `--port` | `PORT` | `8080` |
/// | log level | `--log-level` | `LOG_LEVEL` | `info` |
/// | SQLite file | `--database-path` | `DATABASE_PATH` | `orders.sqlite` beside the executable |
/// | PostgreSQL | `--database-url` | `DATABASE_URL` | none: SQLite |
/// | Prometheus text at `GET /metrics` | `--metrics` | `METRICS=true` | off |
/// | hand-wired `GET /stock` (SQLite only) | `--hand` | | off |
/// | leave Notifications out | `--without-notifications` | | off |
public struct Config: Sendable {
  /// The address to listen on.
  public var host = "127.0.0.1"
  /// The port to listen on (0: any free one).
  public var port = 8080
  /// The server's log level.
  public var logLevel = Logger.Level.info
  /// The SQLite file, used when ``databaseURL`` is `nil`.
  public var databasePath = Config.defaultDatabasePath
  /// A `postgres://user:password@host:port/database` URL: the orders go to PostgreSQL.
  public var databaseURL: String?
  /// Bootstrap swift-metrics with a Prometheus registry and serve it at `GET /metrics`.
  public var metrics = false
  /// Serve `GET /stock` wired by hand (the load script's comparison).
  public var handWired = false
  /// Leave NotificationsFramework out: the graph's validation fails start-up.
  public var withNotifications = true

  /// The flags the server takes; any other is a usage error.
  static let flags: Set<String> = [
    "--host", "--port", "--log-level", "--database-path", "--database-url", "--metrics",
    "--hand", "--without-notifications",
  ]

  /// `orders.sqlite` in the executable's folder.
  public static var defaultDatabasePath: String {
    URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
      .appendingPathComponent("orders.sqlite").path
  }

  /// The usage line.
  public static let usage = """
    usage: OrderServer [--host H] [--port 0-65535] [--log-level trace|debug|info|notice|warning|error|critical]
                       [--database-path FILE] [--database-url postgres://…] [--metrics]
                       [--hand] [--without-notifications]
           OrderServer cost [--hand] [--requests N]
    """

  /// Settings with their defaults.
  public init() {}

  /// Reads the settings from `arguments` (without the program's name) and `environment`.
  ///
  /// - Parameters:
  ///   - arguments: The command line's arguments, after the program's name.
  ///   - environment: The process's environment.
  /// - Returns: The settings.
  /// - Throws: ``UsageError`` for an unknown flag, a stray argument, a port that is not a
  ///   number from 0 to 65535, an unknown log level.
  public static func load(arguments: [String], environment: [String: String]) throws(UsageError)
    -> Config
  {
    for argument in arguments where argument.hasPrefix("--") {
      let flag = String(argument.prefix { $0 != "=" })
      if !flags.contains(flag) { throw UsageError("unknown flag '\(flag)'") }
    }
    let valueFlags = flags.subtracting(["--metrics", "--hand", "--without-notifications"])
    var index = 0
    while index < arguments.count {
      let argument = arguments[index]
      if valueFlags.contains(argument) {
        guard index + 1 < arguments.count, !arguments[index + 1].hasPrefix("--") else {
          throw UsageError("\(argument) needs a value")
        }
        index += 2
      } else if argument.hasPrefix("--") {
        index += 1
      } else {
        throw UsageError("unexpected argument '\(argument)'")
      }
    }
    let reader = ConfigReader(providers: [
      CommandLineArgumentsProvider(arguments: ["OrderServer"] + arguments),
      EnvironmentVariablesProvider(environmentVariables: environment),
    ])
    var config = Config()
    config.host = reader.string(forKey: ["host"], default: config.host)
    if let port = reader.string(forKey: ["port"]) {
      guard let number = Int(port), (0...65_535).contains(number) else {
        throw UsageError("port: must be a number from 0 to 65535, not '\(port)'")
      }
      config.port = number
    }
    if let level = reader.string(forKey: ["log", "level"]) {
      guard let parsed = Logger.Level(rawValue: level) else {
        throw UsageError("log level: unknown level '\(level)'")
      }
      config.logLevel = parsed
    }
    config.databasePath = reader.string(forKey: ["database", "path"], default: config.databasePath)
    config.databaseURL = reader.string(forKey: ["database", "url"], isSecret: true)
    config.metrics = reader.bool(forKey: ["metrics"], default: false)
    config.handWired = reader.bool(forKey: ["hand"], default: false)
    config.withNotifications = !reader.bool(forKey: ["without", "notifications"], default: false)
    return config
  }
}

/// A command line the server cannot run with: the message and ``Config/usage`` go to
/// standard error, and the process exits with status 64.
public struct UsageError: Error, CustomStringConvertible {
  /// What is wrong.
  public let message: String

  /// Makes the error.
  ///
  /// - Parameter message: What is wrong.
  public init(_ message: String) { self.message = message }

  /// The message and the usage line.
  public var description: String { "OrderServer: \(message)\n\(Config.usage)" }
}
