public import DIContainer
public import Logging

extension DILogLevel {
  /// The library's threshold for a swift-log level: the lowest library level that a logger
  /// at `level` prints (`trace`, `debug` → `verbose`; `notice` → `warning`, since the library
  /// has no notice lines; `critical` → `error`).
  ///
  /// - Parameter level: A swift-log logger's level.
  ///
  /// ```swift
  /// DISetting.Log.level = DILogLevel(logger.logLevel)
  /// ```
  public init(_ level: Logger.Level) {
    switch level {
    case .trace, .debug: self = .verbose
    case .info: self = .info
    case .notice, .warning: self = .warning
    case .error, .critical: self = .error
    }
  }
}

extension Logger.Level {
  /// The swift-log level of a library line: `verbose` → `debug`, `info`, `warning` and
  /// `error` to their namesakes (`none` is never logged; it maps to `critical`).
  ///
  /// - Parameter level: The level of a library log line.
  ///
  /// ```swift
  /// logger.log(level: Logger.Level(DILogLevel.warning), "…")   // .warning
  /// ```
  public init(_ level: DILogLevel) {
    switch level {
    case .verbose: self = .debug
    case .info: self = .info
    case .warning: self = .warning
    case .error: self = .error
    case .none: self = .critical
    }
  }
}
