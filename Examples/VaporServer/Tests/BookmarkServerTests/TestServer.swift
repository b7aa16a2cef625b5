import BookmarkServerCore
import DIContainer
import Foundation
import Logging
import Prometheus
import Vapor
import VaporTesting

/// The databases the integration tests run against: SQLite always, PostgreSQL when
/// `DATABASE_URL` is set (CI runs the suite again under Scripts/with-postgres.sh).
enum TestDatabase: CustomStringConvertible, CaseIterable {
  case sqlite
  case postgres

  /// The databases available here.
  static var available: [TestDatabase] {
    postgresURL == nil ? [.sqlite] : [.sqlite, .postgres]
  }

  static var postgresURL: String? {
    ProcessInfo.processInfo.environment["DATABASE_URL"].flatMap { $0.isEmpty ? nil : $0 }
  }

  var description: String {
    switch self {
    case .sqlite: "SQLite"
    case .postgres: "PostgreSQL"
    }
  }

  /// Options for this database; SQLite in a new file in the temporary directory.
  func options() -> ServerOptions {
    switch self {
    case .sqlite: ServerOptions(database: .sqlite(path: Self.newSQLitePath()))
    case .postgres: ServerOptions(database: .postgres(url: Self.postgresURL ?? ""))
    }
  }

  static func newSQLitePath() -> String {
    FileManager.default.temporaryDirectory
      .appendingPathComponent("bookmarks-\(UUID().uuidString).sqlite").path
  }
}

/// Runs `body` with a booted application (the store made, its table created), then shuts
/// it down (the services stop, the container shuts down), also when `body` throws.
func withServer<Result>(
  _ options: ServerOptions, metrics: PrometheusCollectorRegistry? = nil,
  _ body: (Application) async throws -> Result
) async throws -> Result {
  let app = try await Application.make(.testing)
  let container = BookmarkServerApp.makeContainer(options: options, logger: app.logger)
  do {
    try BookmarkServerApp.configure(app, container: container, options: options, metrics: metrics)
    try await app.asyncBoot()
    let result = try await body(app)
    try await app.asyncShutdown()
    return result
  } catch {
    try? await app.asyncShutdown()
    throw error
  }
}

extension Application {
  /// Sends `body` as JSON (or as is, when it is a string) and returns the response.
  func send(
    _ method: HTTPMethod, _ path: String, json body: String? = nil
  ) async throws -> TestingHTTPResponse {
    try await testing().sendRequest(
      method, path, headers: body == nil ? [:] : ["Content-Type": "application/json"],
      body: body.map { ByteBuffer(string: $0) })
  }
}
