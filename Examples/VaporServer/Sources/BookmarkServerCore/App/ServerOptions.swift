import Foundation
public import Logging
public import PostgresNIO

/// The server's settings, read from the command line and the environment
/// (`DATABASE_URL`): a component of the container.
public struct ServerOptions: Sendable, Equatable {
  /// Where the bookmarks are kept.
  public enum Database: Sendable, Equatable {
    /// An SQLite file (created on first start).
    case sqlite(path: String)
    /// A PostgreSQL server, by `postgres://user:password@host:port/database` URL.
    case postgres(url: String)
  }

  /// The address to listen on.
  public var hostname = "127.0.0.1"
  /// The port to listen on, 1…65535 (0: any free one).
  public var port = 8080
  /// Where the bookmarks are kept.
  public var database: Database
  /// The log level (`LOG_LEVEL`, default `notice`: requests are logged at `info`).
  public var logLevel = Logger.Level.notice
  /// Whether to report metrics (Prometheus text at `GET /metrics`).
  public var metrics = false
  /// Whether `--help` was asked for.
  public var help = false

  /// The usage text.
  public static let usage = """
    usage: bookmark-server [--hostname ADDRESS] [--port PORT] [--sqlite FILE] [--metrics]

      --hostname ADDRESS  address to listen on (default 127.0.0.1)
      --port PORT         port to listen on, 0-65535 (default 8080)
      --sqlite FILE       SQLite database file (default: bookmarks.sqlite beside the server)
      --metrics           report metrics, as Prometheus text at GET /metrics
      --help              print this text

    DATABASE_URL=postgres://user:password@host:port/database selects PostgreSQL instead;
    LOG_LEVEL=trace|debug|info|notice|warning|error|critical sets the log level.
    """

  /// Makes options with the defaults and `database`.
  ///
  /// - Parameter database: Where the bookmarks are kept.
  public init(database: Database) {
    self.database = database
  }

  /// Reads the options from `arguments` (without the program's name) and `environment`.
  ///
  /// - Parameters:
  ///   - arguments: The command-line arguments after the program's name.
  ///   - environment: The process's environment (`DATABASE_URL`, `LOG_LEVEL`).
  ///   - defaultSQLitePath: The SQLite file when neither `--sqlite` nor `DATABASE_URL` is
  ///     given.
  /// - Returns: The options.
  /// - Throws: ``UsageError`` for an unknown flag, a missing or bad value.
  public static func parse(
    _ arguments: [String], environment: [String: String], defaultSQLitePath: String
  ) throws(UsageError) -> ServerOptions {
    var options = ServerOptions(database: .sqlite(path: defaultSQLitePath))
    if let url = environment["DATABASE_URL"], !url.isEmpty {
      _ = try postgresConfiguration(url)
      options.database = .postgres(url: url)
    }
    if let level = environment["LOG_LEVEL"], !level.isEmpty {
      guard let level = Logger.Level(rawValue: level) else {
        throw UsageError("LOG_LEVEL must be one of \(Logger.Level.allCases.map(\.rawValue))")
      }
      options.logLevel = level
    }
    var rest = arguments[...]
    while let flag = rest.popFirst() {
      func value() throws(UsageError) -> String {
        guard let value = rest.popFirst(), !value.hasPrefix("--") else {
          throw UsageError("\(flag) needs a value")
        }
        return value
      }
      switch flag {
      case "--hostname":
        options.hostname = try value()
      case "--port":
        let text = try value()
        guard let port = Int(text), (0...65535).contains(port) else {
          throw UsageError("--port must be a number from 0 to 65535, not '\(text)'")
        }
        options.port = port
      case "--sqlite":
        options.database = .sqlite(path: try value())
      case "--metrics":
        options.metrics = true
      case "--help", "-h":
        options.help = true
      default:
        throw UsageError("unknown option '\(flag)'")
      }
    }
    return options
  }

  /// The `PostgresClient` configuration of a `postgres://` URL (`?sslmode=disable` turns TLS
  /// off; otherwise it is preferred).
  ///
  /// - Parameter url: The URL.
  /// - Returns: The configuration.
  /// - Throws: ``UsageError`` for a URL that names no host or user.
  public static func postgresConfiguration(_ url: String) throws(UsageError)
    -> PostgresClient.Configuration
  {
    guard let parts = URLComponents(string: url),
      parts.scheme == "postgres" || parts.scheme == "postgresql",
      let host = parts.host, !host.isEmpty, let user = parts.user, !user.isEmpty
    else {
      throw UsageError("DATABASE_URL must be postgres://user[:password]@host[:port]/database")
    }
    let database = parts.path.split(separator: "/").first.map(String.init)
    let sslMode = parts.queryItems?.first { $0.name == "sslmode" }?.value
    return PostgresClient.Configuration(
      host: host, port: parts.port ?? 5432, username: user, password: parts.password,
      database: database,
      tls: sslMode == "disable" ? .disable : .prefer(.makeClientConfiguration()))
  }
}

/// A command line the server cannot run with: printed with the usage, exit status 64.
public struct UsageError: Error, Equatable, CustomStringConvertible {
  /// What is wrong.
  public let message: String

  /// Makes one.
  ///
  /// - Parameter message: What is wrong.
  public init(_ message: String) {
    self.message = message
  }

  /// `error: ` and the message.
  public var description: String { "error: \(message)" }
}
