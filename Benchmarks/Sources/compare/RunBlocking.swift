import Dispatch
import Synchronization

/// Runs `body` on a detached task and blocks the calling thread until it returns: how the
/// synchronous harness runs async operations and checks.
///
/// The calling thread must not be one of the concurrency runtime's cooperative threads (the
/// harness's main thread is not), or the task might find no thread to run on. The task is
/// detached so that it does not inherit the main actor, whose executor the blocked main
/// thread would never run.
///
/// ```swift
/// let a: A = runBlocking { try! await container.resolveAsync() }
/// ```
func runBlocking<Value: Sendable>(_ body: @escaping @Sendable () async -> Value) -> Value {
  let handoff = Handoff<Value>()
  Task.detached { handoff.put(await body()) }
  return handoff.take()
}

/// Hands one value from a task to a thread that blocks until it arrives.
private final class Handoff<Value: Sendable>: Sendable {
  private let value = Mutex<Value?>(nil)
  private let arrived = DispatchSemaphore(value: 0)

  /// Stores the value and wakes the waiting thread.
  func put(_ newValue: Value) {
    value.withLock { $0 = newValue }
    arrived.signal()
  }

  /// Blocks until `put` is called, then returns its value.
  func take() -> Value {
    arrived.wait()
    return value.withLock { $0.take()! }
  }
}
