// Helpers of the tests that hold the resolution core to its guarantees: resolutions on
// threads of their own with a hang limit (a deadlock fails a test instead of hanging the
// run), a pair of threads that start a job together, and digit marker types that make
// hundreds of distinct component types from one generic class.
//
// What could crash the process on a broken core (a stack overflow, a trap, a wrongly typed
// object) runs in an exit test's child process, armed with a watchdog, so that one failure
// does not take the whole run down.
//
// Worker threads never call `#expect`: Swift Testing attributes issues through task-local
// state that a `Thread` does not inherit. Workers record what they saw; the test checks it.

import DIContainer
import DITestSupport
import Dispatch
import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// MARK: - Exit tests

/// Kills this process with SIGALRM after `seconds` (scaled for slow builds): the first
/// call of every exit test's child, so that a child that hangs where no deadline of its
/// own can help (inside ThreadSanitizer, say) fails its test instead of blocking the run.
func scArmWatchdog(_ seconds: Double = 30) {
  alarm(UInt32(TestEnvironment.limit(seconds).rounded(.up)))
}

/// Exit codes of the exit tests' child processes.
enum SCExit {
  /// The child's work returned.
  static let returned: Int32 = 20
  /// The child's work did not finish before its deadline (a deadlock or a runaway).
  static let hung: Int32 = 21
}

// MARK: - Threads
//
// The work under test runs on threads of its own; tests wait for it on continuations
// (DITestSupport), so a stuck test holds no thread of Swift Testing's pool.

/// What a resolution gave.
typealias SCOutcome<T> = Result<T, DIError>

/// `resolver.tryResolve()` on a thread of its own; nil when it hung.
func scTryResolve<T>(_ type: T.Type = T.self, from resolver: any DIResolver) async
  -> SCOutcome<T>?
{
  await resultOnThread { Result { () throws(DIError) -> T in try resolver.tryResolve() } }
}

/// The error of resolving a `T` (on a thread, with a deadline); records an issue and
/// returns nil when it resolved or hung.
func scFailure<T>(
  _ type: T.Type, from resolver: any DIResolver, sourceLocation: SourceLocation = #_sourceLocation
) async -> DIError? {
  switch await scTryResolve(type, from: resolver) {
  case nil:
    Issue.record("resolving \(type) hung", sourceLocation: sourceLocation)
    return nil
  case .success?:
    Issue.record("\(type) resolved, but it cannot be built", sourceLocation: sourceLocation)
    return nil
  case .failure(let error)?:
    return error
  }
}

/// The instance of resolving a `T` (on a thread, with a deadline); records an issue and
/// returns nil when it failed or hung.
func scInstance<T>(
  _ type: T.Type, from resolver: any DIResolver, sourceLocation: SourceLocation = #_sourceLocation
) async -> T? {
  switch await scTryResolve(type, from: resolver) {
  case nil:
    Issue.record("resolving \(type) hung", sourceLocation: sourceLocation)
    return nil
  case .success(let instance)?:
    return instance
  case .failure(let error)?:
    Issue.record("resolving \(type) failed: \(scBrief(error))", sourceLocation: sourceLocation)
    return nil
  }
}

/// Two long-lived threads that run one job at the same moment, round after round, so a
/// test of thousands of rounds does not create thousands of threads.
final class SCPairRunner: @unchecked Sendable {
  private let lock = NSLock()
  private var job: (@Sendable (Int) -> Void)?
  private var stopped = false
  private let starts = [DispatchSemaphore(value: 0), DispatchSemaphore(value: 0)]
  private let done = Signal()
  private var rounds = 0
  private let arrived = Atomic<Int>(0)

  init() {
    for worker in 0..<2 {
      let thread = Thread { [self] in loop(worker) }
      thread.stackSize = 8 << 20
      thread.start()
    }
  }

  private func loop(_ worker: Int) {
    while true {
      starts[worker].wait()
      let (job, stopped) = lock.withLock { (self.job, self.stopped) }
      if stopped { return }
      // Rendezvous: both threads start the job as close together as they can.
      arrived.add(1, ordering: .acquiringAndReleasing)
      var spins = 0
      while arrived.load(ordering: .acquiring) < 2 {
        spins += 1
        if spins > 1_000 { sched_yield() }
      }
      job?(worker)
      done.signal()
    }
  }

  /// Runs `job(0)` and `job(1)` on the two threads at once; returns whether both returned
  /// before `deadline`. After a false, the runner is stuck: do not use it again.
  func run(until deadline: ContinuousClock.Instant, _ job: @escaping @Sendable (Int) -> Void)
    async -> Bool
  {
    let target = lock.withLock {
      self.job = job
      rounds += 1
      return 2 * rounds
    }
    arrived.store(0, ordering: .releasing)
    starts[0].signal()
    starts[1].signal()
    return await done.wait(untilCount: target, deadline: deadline)
  }

  /// Lets both threads end (only after a `run` that returned true).
  func stop() {
    lock.withLock { stopped = true }
    starts[0].signal()
    starts[1].signal()
  }
}

// MARK: - Shared state

/// Resident memory of this process, in bytes (nil where /proc is missing).
func scResidentBytes() -> Int? {
  guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else {
    return nil
  }
  let fields = text.split(separator: " ")
  guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
  return pages * Int(getpagesize())
}

/// `text` with module qualification removed, so a type reads the same whether the
/// library printed it with `String(describing:)` or `String(reflecting:)`.
func scUnqualified(_ text: String) -> String {
  text.replacingOccurrences(of: "DIContainerTests.", with: "")
}

/// The start of an error's text, enough to see what went wrong without pages of path.
func scBrief(_ error: some Error & CustomStringConvertible) -> String {
  let text = error.description
  return text.count <= 800 ? text : text.prefix(800) + "…"
}

/// How many times `needle` occurs in `text`.
func scOccurrences(of needle: String, in text: String) -> Int {
  text.components(separatedBy: needle).count - 1
}

// MARK: - Digit markers

/// A decimal digit as a type: generic classes over a few digits give hundreds of
/// distinct component types without a generated file (`SCLevel<SCDigit0, SCDigit4,
/// SCDigit2>` is level 42).
protocol SCDigit: SendableMetatype {
  static var value: Int { get }
}

enum SCDigit0: SCDigit { static var value: Int { 0 } }
enum SCDigit1: SCDigit { static var value: Int { 1 } }
enum SCDigit2: SCDigit { static var value: Int { 2 } }
enum SCDigit3: SCDigit { static var value: Int { 3 } }
enum SCDigit4: SCDigit { static var value: Int { 4 } }
enum SCDigit5: SCDigit { static var value: Int { 5 } }
enum SCDigit6: SCDigit { static var value: Int { 6 } }
enum SCDigit7: SCDigit { static var value: Int { 7 } }
enum SCDigit8: SCDigit { static var value: Int { 8 } }
enum SCDigit9: SCDigit { static var value: Int { 9 } }

/// The marker type of the decimal digit `value` (0...9).
func scDigit(_ value: Int) -> any SCDigit.Type {
  switch value {
  case 0: return SCDigit0.self
  case 1: return SCDigit1.self
  case 2: return SCDigit2.self
  case 3: return SCDigit3.self
  case 4: return SCDigit4.self
  case 5: return SCDigit5.self
  case 6: return SCDigit6.self
  case 7: return SCDigit7.self
  case 8: return SCDigit8.self
  case 9: return SCDigit9.self
  default: preconditionFailure("not a digit: \(value)")
  }
}
