import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// How fast this test process can expect to run, and the limits that follow from it.
///
/// A limit here only catches a hang: it is far above any normal run, so a busy machine
/// (other builds, a sanitizer) never turns a passing test into a failing one.
public enum TestEnvironment {
  /// Whether the ThreadSanitizer runtime is linked into this process.
  public static let isThreadSanitized: Bool = {
    guard let process = dlopen(nil, RTLD_NOW) else { return false }
    return dlsym(process, "__tsan_init") != nil
  }()

  /// How many times fewer rounds stress tests run: 1 in a plain build, 8 under
  /// ThreadSanitizer (`DI_TEST_SLOWDOWN=<n>` overrides).
  public static let slowdown: Int =
    positiveInteger("DI_TEST_SLOWDOWN") ?? (isThreadSanitized ? 8 : 1)

  /// `base` rounds in a plain build, fewer in a slow one (never fewer than `minimum`).
  public static func rounds(_ base: Int, minimum: Int = 20) -> Int {
    max(minimum, base / slowdown)
  }

  /// How many times longer hang limits are: 1 in a plain build, 3 under ThreadSanitizer
  /// (`DI_TEST_TIME_SCALE=<n>` overrides).
  public static let timeScale: Int =
    positiveInteger("DI_TEST_TIME_SCALE") ?? (isThreadSanitized ? 3 : 1)

  /// The shortest hang limit, in seconds, before scaling: five minutes, so that a test
  /// waiting for threads of a machine loaded many times over still passes.
  public static let minimumLimit: Double = 300

  /// The hang limit for work that normally takes well under `base` seconds: at least
  /// ``minimumLimit``, times ``timeScale``.
  public static func limit(_ base: Double) -> Double {
    max(base, minimumLimit) * Double(timeScale)
  }

  /// ``limit(_:)`` as a `Duration`.
  public static func limitDuration(_ base: Double) -> Duration {
    .seconds(limit(base))
  }

  /// The time limit, in minutes, of a test that could hang (`.timeLimit(.minutes(…))`):
  /// ten minutes, times ``timeScale``.
  public static var hangMinutes: Int { 10 * timeScale }

  /// How many failing cases a randomized test reports in full (`DI_TEST_REPORT=<n>`, 3
  /// unless told).
  public static let reportedFailures: Int = positiveInteger("DI_TEST_REPORT") ?? 3

  private static func positiveInteger(_ name: String) -> Int? {
    guard let text = ProcessInfo.processInfo.environment[name], let value = Int(text),
      value >= 1
    else { return nil }
    return value
  }
}
