import Synchronization

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

  /// Orders levels from ``verbose`` to ``none``.
  ///
  /// ```swift
  /// #expect(DILogLevel.info < .warning)
  /// ```
  public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

  /// The level's name: `warning`.
  ///
  /// ```swift
  /// print(DILogLevel.error)   // error
  /// ```
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
  /// // logger: a swift-log Logger, such as Logger(label: "di")
  /// DISetting.Log.level = .info
  /// DISetting.Log.fn = { level, message in
  ///   switch level {
  ///   case .verbose: logger.debug("\(message)")
  ///   case .info: logger.info("\(message)")
  ///   case .warning: logger.warning("\(message)")
  ///   case .error, .none: logger.error("\(message)")
  ///   }
  /// }
  /// ```
  public enum Log {
    private static let function = Locked<@Sendable (DILogLevel, String) -> Void> {
      level, message in print("[DI] \(level): \(message)")
    }

    /// The level, read without a lock: every registration asks whether to log.
    private static let threshold = Atomic<Int>(DILogLevel.warning.rawValue)

    /// The lowest level that is passed to ``fn``.
    public static var level: DILogLevel {
      get { DILogLevel(rawValue: threshold.load(ordering: .relaxed)) ?? .none }
      set { threshold.store(newValue.rawValue, ordering: .relaxed) }
    }

    /// Receives every log line at ``level`` or above.
    public static var fn: @Sendable (DILogLevel, String) -> Void {
      get { function.withLock { $0 } }
      set { function.withLock { $0 = newValue } }
    }

    /// Sends `message` to ``fn`` when `level` is enabled; builds it only then. Inside
    /// ``capturing(_:)``, sends every line of the calling task to its receiver instead.
    package static func log(_ level: DILogLevel, _ message: @autoclosure () -> String) {
      if captures.load(ordering: .relaxed) > 0, let capture = Self.capture {
        capture(level, message())
        return
      }
      guard level != .none, threshold.load(ordering: .relaxed) <= level.rawValue else { return }
      fn(level, message())
    }

    /// The receiver of the calling task's lines, within ``capturing(_:)``.
    @TaskLocal private static var capture: (@Sendable (DILogLevel, String) -> Void)?
    /// How many captures are running, so ``log(_:_:)`` looks for one only then.
    private static let captures = Atomic<Int>(0)

    /// Runs `body` and returns the log lines of the calling task (`warning: …`), of any
    /// level, which go nowhere else: what tests use, since ``fn`` and ``level`` are
    /// process-wide and tests run in parallel.
    package static func capturing(_ body: () throws -> Void) rethrows -> [String] {
      let lines = Lines()
      captures.add(1, ordering: .relaxed)
      defer { captures.subtract(1, ordering: .relaxed) }
      try $capture.withValue(lines.append, operation: body)
      return lines.all
    }

    /// ``capturing(_:)`` for an `async` body: the lines of its task and of the tasks it
    /// starts.
    package static func capturingAsync(_ body: () async throws -> Void) async rethrows
      -> [String]
    {
      let lines = Lines()
      captures.add(1, ordering: .relaxed)
      defer { captures.subtract(1, ordering: .relaxed) }
      try await $capture.withValue(lines.append, operation: body)
      return lines.all
    }

    /// Captured log lines.
    private final class Lines: Sendable {
      private let lines = Locked<[String]>([])
      var all: [String] { lines.withLock { $0 } }
      @Sendable func append(_ level: DILogLevel, _ message: String) {
        lines.withLock { $0.append("\(level): \(message)") }
      }
    }
  }
}
