public import DIContainer
public import Logging

extension DISetting.Log {
  /// Sends the library's log lines to a swift-log `Logger`: the library's level follows the
  /// logger's (`trace`, `debug` → `verbose`; `notice` → `warning`; `critical` → `error`),
  /// each line is logged at its swift-log namesake (`verbose` → `debug`), and the logger's
  /// metadata is kept, with `di.level` (the library's own level) added.
  ///
  /// - Parameter logger: Where the lines go, with its level and metadata.
  ///
  /// ```swift
  /// DISetting.Log.bridge(to: app.logger)   // e.g. info, warning and error lines
  /// ```
  public static func bridge(to logger: Logger) {
    level =
      switch logger.logLevel {
      case .trace, .debug: .verbose
      case .info: .info
      case .notice, .warning: .warning
      case .error, .critical: .error
      }
    fn = { level, message in
      let swiftLogLevel: Logger.Level =
        switch level {
        case .verbose: .debug
        case .info: .info
        case .warning: .warning
        case .error, .none: .error
        }
      logger.log(
        level: swiftLogLevel, "\(message)", metadata: ["di.level": "\(level)"],
        source: "DIContainer")
    }
  }
}
