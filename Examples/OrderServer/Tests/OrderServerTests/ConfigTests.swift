import Foundation
import Logging
import OrderServerCore
import Testing

/// The settings come from the command line, then the environment; a flag the server does not
/// know or a value it cannot use is a usage error, and the executable exits with status 64.
@Suite struct ConfigTests {
  @Test func defaultsWithoutFlagsOrEnvironment() throws {
    let config = try Config.load(arguments: [], environment: [:])
    #expect(config.host == "127.0.0.1")
    #expect(config.port == 8080)
    #expect(config.logLevel == .info)
    #expect(config.databaseURL == nil)
    #expect(config.databasePath.hasSuffix("/orders.sqlite"))
    #expect(!config.handWired)
    #expect(!config.metrics)
    #expect(config.withNotifications)
  }

  @Test func metricsAreServedWithTheFlagOrTheVariable() throws {
    #expect(try Config.load(arguments: ["--metrics"], environment: [:]).metrics)
    #expect(try Config.load(arguments: [], environment: ["METRICS": "true"]).metrics)
    #expect(try !Config.load(arguments: [], environment: ["METRICS": "false"]).metrics)
  }

  @Test func theCommandLineWinsOverTheEnvironment() throws {
    let config = try Config.load(
      arguments: ["--port", "9001", "--log-level", "debug", "--hand"],
      environment: ["PORT": "9002", "HOST": "0.0.0.0", "DATABASE_URL": "postgres://u@h/d"])
    #expect(config.port == 9001)
    #expect(config.host == "0.0.0.0")
    #expect(config.logLevel == .debug)
    #expect(config.databaseURL == "postgres://u@h/d")
    #expect(config.handWired)
  }

  @Test func anUnknownFlagIsAUsageError() {
    #expect(throws: UsageError.self) {
      try Config.load(arguments: ["--bogus"], environment: [:])
    }
  }

  @Test func aPortThatIsNotANumberIsAUsageError() {
    let error = #expect(throws: UsageError.self) {
      try Config.load(arguments: ["--port", "abc"], environment: [:])
    }
    #expect(error?.message == "port: must be a number from 0 to 65535, not 'abc'")
  }

  @Test func aPortOutOfRangeIsAUsageError() {
    #expect(throws: UsageError.self) {
      try Config.load(arguments: ["--port", "70000"], environment: [:])
    }
    #expect(throws: UsageError.self) {
      try Config.load(arguments: [], environment: ["PORT": "-1"])
    }
  }

  @Test func aFlagWithoutItsValueOrAStrayArgumentIsAUsageError() {
    #expect(throws: UsageError.self) { try Config.load(arguments: ["--port"], environment: [:]) }
    #expect(throws: UsageError.self) { try Config.load(arguments: ["serve"], environment: [:]) }
    #expect(throws: UsageError.self) {
      try Config.load(arguments: ["--log-level", "loud"], environment: [:])
    }
  }

  @Test(arguments: [["--port", "abc", "--bogus"], ["--bogus"], ["--port", "abc"]])
  func theExecutableExitsWithTheUsage(arguments: [String]) throws {
    let (status, message) = try runServer(arguments)
    #expect(status == 64)
    #expect(message.contains("usage: OrderServer"), "\(message)")
  }
}

/// Runs the built `OrderServer` (beside the test bundle) with `arguments`; returns its exit
/// status and standard error.
func runServer(_ arguments: [String]) throws -> (Int32, String) {
  let folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
  var executable = folder.appendingPathComponent("OrderServer")
  if !FileManager.default.fileExists(atPath: executable.path) {
    // The test bundle's own folder on some platforms: its parent holds the products.
    executable = folder.deletingLastPathComponent().appendingPathComponent("OrderServer")
  }
  try #require(FileManager.default.fileExists(atPath: executable.path), "build OrderServer first")
  let process = Process()
  process.executableURL = executable
  process.arguments = arguments
  let errors = Pipe()
  process.standardError = errors
  process.standardOutput = FileHandle.nullDevice
  try process.run()
  let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
  process.waitUntilExit()
  return (process.terminationStatus, message)
}
