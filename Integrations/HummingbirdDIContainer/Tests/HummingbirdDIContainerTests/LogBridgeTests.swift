import DIContainer
import HummingbirdDIContainer
import Logging
import Testing

/// `DISetting.Log.bridge(to:)` sends the library's lines to a swift-log logger, at the mapped
/// level, with the logger's metadata.
@Suite struct LogBridgeTests {
  @Test func theBridgeMapsLevelsAndKeepsMetadata() async throws {
    let (savedLevel, savedFn) = (DISetting.Log.level, DISetting.Log.fn)
    defer { (DISetting.Log.level, DISetting.Log.fn) = (savedLevel, savedFn) }
    let logs = CapturingLogHandler.Store()
    var logger = logs.logger(label: "di")
    logger.logLevel = .notice
    logger[metadataKey: "service"] = "orders"
    DISetting.Log.bridge(to: logger)
    #expect(DISetting.Log.level == .warning)

    logger.logLevel = .info
    DISetting.Log.bridge(to: logger)
    #expect(DISetting.Log.level == .info)
    let container = DIContainer()
    container.register { 1 }.lifetime(.perContainer(.single)).onClean { _ in }
    let _: Int = try container.tryResolve()
    await container.shutdown()  // logs "shutting down: …" at info
    let line = try #require(logs.all.first { $0.message.contains("shutting down") })
    #expect(line.level == .info)
    #expect(line.metadata["service"] == "orders")
    #expect(line.metadata["di.level"] == "info")
  }

  @Test func levelsMapBothWays() {
    #expect(Logger.Level(DILogLevel.verbose) == .debug)
    #expect(Logger.Level(DILogLevel.warning) == .warning)
    #expect(Logger.Level(DILogLevel.error) == .error)
    #expect(DILogLevel(Logger.Level.trace) == .verbose)
    #expect(DILogLevel(Logger.Level.notice) == .warning)
    #expect(DILogLevel(Logger.Level.critical) == .error)
  }
}
