/// The importance of a log line.
public enum DILogLevel: Int, Sendable, Comparable, CustomStringConvertible {
  /// Everything, including each registration.
  case verbose
  /// Notable events: frameworks loaded, scopes cleaned.
  case info
  /// Likely mistakes that do not stop the program.
  case warning
  /// Failures: a request that could not be resolved, a hook that threw.
  case error
  /// Nothing is logged.
  case none

  public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

  public var description: String {
    switch self {
    case .verbose: "verbose"
    case .info: "info"
    case .warning: "warning"
    case .error: "error"
    case .none: "none"
    }
  }
}

/// Process-wide settings of the library.
public enum DISetting {
  /// Where the library's log lines go.
  ///
  /// By default lines of level ``DILogLevel/warning`` and above are printed. Bridge them to
  /// swift-log (the library does not depend on it):
  ///
  /// ```swift
  /// let logger = Logger(label: "di")
  /// DISetting.Log.level = .info
  /// DISetting.Log.fn = { level, message in logger.log(level: level.swiftLog, "\(message)") }
  /// ```
  public enum Log {
    private struct Settings {
      var level: DILogLevel = .warning
      var fn: @Sendable (DILogLevel, String) -> Void = { level, message in
        print("[DI] \(level): \(message)")
      }
    }

    private static let settings = Locked(Settings())

    /// The lowest level that is passed to ``fn``.
    public static var level: DILogLevel {
      get { settings.withLock { $0.level } }
      set { settings.withLock { $0.level = newValue } }
    }

    /// Receives every log line at ``level`` or above.
    public static var fn: @Sendable (DILogLevel, String) -> Void {
      get { settings.withLock { $0.fn } }
      set { settings.withLock { $0.fn = newValue } }
    }

    /// Sends `message` to ``fn`` when `level` is enabled; builds it only then.
    package static func log(_ level: DILogLevel, _ message: @autoclosure () -> String) {
      let (enabled, fn) = settings.withLock { ($0.level <= level && level != .none, $0.fn) }
      if enabled { fn(level, message()) }
    }
  }
}
