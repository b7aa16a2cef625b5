import DIContainer
import Foundation
import Testing

/// Holds async factories until a test opens it, and tells the test how many reached it.
/// Its waits poll, so a test that is cancelled (its time limit) still ends.
final class AsyncTestGate: @unchecked Sendable {
  private let lock = NSLock()
  private var isOpen = false
  private var arrivals = 0

  /// Lets every factory at the gate, and every later one, go on.
  func open() { lock.withLock { isOpen = true } }

  /// Waits until the gate opens.
  func pass() async {
    lock.withLock { arrivals += 1 }
    while !lock.withLock({ isOpen }) { try? await Task.sleep(for: .milliseconds(1)) }
  }

  /// How many factories reached the gate.
  var count: Int { lock.withLock { arrivals } }

  /// Waits until `count` factories reached the gate; records an issue after `seconds`
  /// (longer in a slow build, as in ``outcome(of:within:)``).
  func awaitArrivals(_ count: Int, seconds: Double = 20) async throws {
    let deadline = ContinuousClock.now + .seconds(SCEnvironment.seconds(seconds))
    while self.count < count {
      guard ContinuousClock.now < deadline else {
        Issue.record("only \(self.count) of \(count) factories reached the gate")
        return
      }
      try await Task.sleep(for: .milliseconds(1))
    }
  }
}

/// What a task got: its value, a `DIError`, another error, or nothing within the time
/// given.
enum TaskOutcome<Value: Sendable>: Sendable {
  case value(Value)
  case error(DIError)
  case otherError(String)
  case stillWaiting
}

/// The outcome of `task` if it ends within `seconds` (longer in a slow build, see
/// `SCEnvironment.seconds`: under ThreadSanitizer, with every suite running at once on two
/// cores, a task that ends at once was seen to wait more than 10 s for a thread to run
/// on). It polls, so a task that never ends leaves nothing for the caller to wait for.
func outcome<Value: Sendable>(
  of task: Task<Value, any Error>, within seconds: Double
) async -> TaskOutcome<Value> {
  let box = TaskResultBox<Value>()
  Task { box.set(await task.result) }
  let deadline = ContinuousClock.now + .seconds(SCEnvironment.seconds(seconds))
  while ContinuousClock.now < deadline {
    switch box.result {
    case .success(let value)?: return .value(value)
    case .failure(let error as DIError)?: return .error(error)
    case .failure(let error)?: return .otherError("\(error)")
    case nil: try? await Task.sleep(for: .milliseconds(1))
    }
  }
  return .stillWaiting
}

/// A task's result, once it has one.
private final class TaskResultBox<Value: Sendable>: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: Result<Value, any Error>?

  func set(_ result: Result<Value, any Error>) { lock.withLock { stored = result } }
  var result: Result<Value, any Error>? { lock.withLock { stored } }
}
