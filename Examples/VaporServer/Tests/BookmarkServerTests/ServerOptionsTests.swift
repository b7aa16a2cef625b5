import BookmarkServerCore
import Logging
import PostgresNIO
import Testing

/// The command line and the environment: every mistake is a usage error that says what is
/// wrong.
@Suite struct ServerOptionsTests {
  private func parse(_ arguments: [String], _ environment: [String: String] = [:])
    throws(UsageError) -> ServerOptions
  {
    try ServerOptions.parse(arguments, environment: environment, defaultSQLitePath: "/tmp/b.sqlite")
  }

  @Test func defaultsAreLoopback8080AndSQLiteBesideTheServer() throws {
    let options = try parse([])
    #expect(options.hostname == "127.0.0.1")
    #expect(options.port == 8080)
    #expect(options.database == .sqlite(path: "/tmp/b.sqlite"))
    #expect(!options.metrics)
  }

  @Test func flagsAndDatabaseURLAreRead() throws {
    let options = try parse(
      ["--hostname", "0.0.0.0", "--port", "9000", "--metrics"],
      ["DATABASE_URL": "postgres://app:secret@127.0.0.1:5433/bookmarks", "LOG_LEVEL": "debug"])
    #expect(options.hostname == "0.0.0.0")
    #expect(options.port == 9000)
    #expect(options.metrics)
    #expect(options.database == .postgres(url: "postgres://app:secret@127.0.0.1:5433/bookmarks"))
    #expect(options.logLevel == .debug)
    let configuration = try ServerOptions.postgresConfiguration(
      "postgres://app:secret@127.0.0.1:5433/bookmarks")
    #expect(configuration.host == "127.0.0.1")
    #expect(configuration.port == 5433)
    #expect(configuration.username == "app")
    #expect(configuration.database == "bookmarks")
  }

  @Test func anUnknownFlagIsAUsageError() {
    #expect(throws: UsageError("unknown option '--bogus'")) { try parse(["--bogus"]) }
  }

  @Test(arguments: ["abc", "-1", "65536", "80.5"])
  func aBadPortIsAUsageError(port: String) {
    #expect(throws: UsageError("--port must be a number from 0 to 65535, not '\(port)'")) {
      try parse(["--port", port])
    }
  }

  @Test func aFlagWithoutItsValueIsAUsageError() {
    #expect(throws: UsageError("--port needs a value")) { try parse(["--port"]) }
    #expect(throws: UsageError("--sqlite needs a value")) { try parse(["--sqlite", "--metrics"]) }
  }

  @Test func aBadDatabaseURLOrLogLevelIsAUsageError() {
    #expect(throws: UsageError.self) { try parse([], ["DATABASE_URL": "mysql://x@y/z"]) }
    #expect(throws: UsageError.self) { try parse([], ["DATABASE_URL": "postgres:///nohost"]) }
    #expect(throws: UsageError.self) { try parse([], ["LOG_LEVEL": "loud"]) }
  }
}
