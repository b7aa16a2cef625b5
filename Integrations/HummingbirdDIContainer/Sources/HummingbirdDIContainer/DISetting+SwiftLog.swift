public import DIContainer
public import Logging

extension DISetting.Log {
  /// Sends the library's log lines to a swift-log `Logger`: the library's level follows the
  /// logger's, each line is logged at the mapped level (see `Logger.Level.init(_:)`), and
  /// the logger's metadata is kept, with `di.level` (the library's own level) added.
  ///
  /// - Parameter logger: Where the lines go, with its level and metadata.
  ///
  /// ```swift
  /// var logger = Logger(label: "di")
  /// logger.logLevel = .info
  /// DISetting.Log.bridge(to: logger)   // info, warning and error lines reach the logger
  /// ```
  public static func bridge(to logger: Logger) {
    level = DILogLevel(logger.logLevel)
    fn = { level, message in
      logger.log(
        level: Logger.Level(level), "\(message)", metadata: ["di.level": "\(level)"],
        source: "DIContainer")
    }
  }
}
