import DIContainer
import Dispatch
import Foundation
import Testing

/// A count of events that threads and tasks add to, and that tasks wait for with a
/// continuation (never holding a thread of the cooperative pool) or threads of their own
/// wait for by blocking.
public final class Signal: @unchecked Sendable {
  private struct Waiter {
    let id: Int
    let target: Int
    let continuation: CheckedContinuation<Bool, Never>
  }

  private let condition = NSCondition()
  private var count = 0
  private var nextID = 0
  private var waiters: [Waiter] = []

  /// A signal not yet given.
  public init() {}

  /// How many times the signal was given.
  public var value: Int {
    condition.lock()
    defer { condition.unlock() }
    return count
  }

  /// Gives the signal once: wakes every waiter whose count is reached.
  public func signal() {
    condition.lock()
    count += 1
    let reached = waiters.filter { $0.target <= count }
    waiters.removeAll { $0.target <= count }
    condition.broadcast()
    condition.unlock()
    for waiter in reached { waiter.continuation.resume(returning: true) }
  }

  /// Waits until the signal was given `target` times in all; false when the hang limit
  /// (``TestEnvironment/limit(_:)`` of `seconds`) passed or the task was cancelled first.
  public func wait(untilCount target: Int = 1, seconds: Double = 60) async -> Bool {
    await wait(untilCount: target, deadline: .now + TestEnvironment.limitDuration(seconds))
  }

  /// Waits until the signal was given `target` times in all; false when `deadline` passed or
  /// the task was cancelled first.
  public func wait(untilCount target: Int = 1, deadline: ContinuousClock.Instant) async -> Bool {
    let id: Int = condition.withLock {
      nextID += 1
      return nextID
    }
    let timer = Task { [weak self] in
      try? await Task.sleep(until: deadline, clock: .continuous)
      self?.giveUp(id)
    }
    defer { timer.cancel() }
    return await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        condition.lock()
        if count >= target || ContinuousClock.now >= deadline || Task.isCancelled {
          let reached = count >= target
          condition.unlock()
          continuation.resume(returning: reached)
          return
        }
        waiters.append(Waiter(id: id, target: target, continuation: continuation))
        condition.unlock()
      }
    } onCancel: {
      giveUp(id)
    }
  }

  /// Blocks this thread until the signal was given `target` times in all; false when the
  /// hang limit of `seconds` passed first. Only for threads of their own, never for a task.
  public func waitBlocking(untilCount target: Int = 1, seconds: Double = 60) -> Bool {
    let deadline = Date().addingTimeInterval(TestEnvironment.limit(seconds))
    condition.lock()
    defer { condition.unlock() }
    while count < target {
      if !condition.wait(until: deadline) { return count >= target }
    }
    return true
  }

  private func giveUp(_ id: Int) {
    condition.lock()
    let index = waiters.firstIndex { $0.id == id }
    let waiter = index.map { waiters.remove(at: $0) }
    condition.unlock()
    waiter?.continuation.resume(returning: false)
  }
}

/// Holds whoever passes it until it opens, and tells the test how many arrived.
///
/// Tasks pass it with ``pass()`` (a continuation: no thread is held while they wait, and
/// a cancelled task goes on); threads of their own with ``passBlocking(seconds:)``.
public final class Gate: @unchecked Sendable {
  private let opened = Signal()
  private let arrived = Signal()

  /// A closed gate.
  public init() {}

  /// Lets everyone at the gate, and everyone later, go on.
  public func open() {
    if !isOpen { opened.signal() }
  }

  /// Whether the gate is open.
  public var isOpen: Bool { opened.value > 0 }

  /// How many reached the gate.
  public var count: Int { arrived.value }

  /// Waits until the gate opens (or the task is cancelled, or the hang limit passes).
  public func pass() async {
    arrived.signal()
    _ = await opened.wait(seconds: 600)
  }

  /// Waits until the gate opens; throws `CancellationError` when the task is cancelled
  /// first (as a factory that sleeps until it is let go would).
  public func cancellablePass() async throws {
    arrived.signal()
    _ = await opened.wait(seconds: 600)
    if !isOpen { try Task.checkCancellation() }
  }

  /// Blocks this thread until the gate opens; false when the hang limit passed first.
  @discardableResult
  public func passBlocking(seconds: Double = 600) -> Bool {
    arrived.signal()
    return opened.waitBlocking(seconds: seconds)
  }

  /// Waits until `count` arrived in all; false when the hang limit of `seconds` passed
  /// first.
  public func waitForArrivals(_ count: Int = 1, seconds: Double = 60) async -> Bool {
    await arrived.wait(untilCount: count, seconds: seconds)
  }

  /// Waits until `count` arrived in all; records an issue when the hang limit of `seconds`
  /// passed first, and throws `CancellationError` when the task was cancelled.
  public func awaitArrivals(
    _ count: Int = 1, seconds: Double = 60, sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    if await waitForArrivals(count, seconds: seconds) { return }
    try Task.checkCancellation()
    Issue.record(
      "only \(self.count) of \(count) reached the gate", sourceLocation: sourceLocation)
  }
}

/// The instant a hang limit of `seconds` (see ``TestEnvironment/limit(_:)``) from now.
public func hangDeadline(in seconds: Double) -> ContinuousClock.Instant {
  .now + TestEnvironment.limitDuration(seconds)
}

/// Waits for `count` signals of `semaphore` without holding a thread of the cooperative
/// pool (a thread of its own blocks on it); false when `deadline` passed first.
public func waitForSignals(
  of semaphore: DispatchSemaphore, count: Int = 1, until deadline: ContinuousClock.Instant
) async -> Bool {
  let received = Signal()
  let thread = Thread {
    for _ in 0..<count {
      semaphore.wait()
      received.signal()
    }
  }
  thread.start()
  return await received.wait(untilCount: count, deadline: deadline)
}

/// Runs `body(index)` for every index in `0..<count`, each on a thread of its own with a
/// `stackSize` stack (8 MiB, the default main-thread size, unless told), released together
/// once all have started. Returns whether every thread returned within the hang limit of
/// `timeout` seconds (see ``TestEnvironment/limit(_:)``); threads still stuck after it are
/// leaked.
@discardableResult
public func runThreads(
  _ count: Int, stackSize: Int = 8 << 20, timeout: Double = 60,
  _ body: @escaping @Sendable (Int) -> Void
) async -> Bool {
  let ready = Signal()
  let go = Signal()
  let finished = Signal()
  let deadline = hangDeadline(in: timeout)
  for index in 0..<count {
    let thread = Thread {
      ready.signal()
      guard go.waitBlocking(seconds: timeout) else { return }
      body(index)
      finished.signal()
    }
    thread.stackSize = stackSize
    thread.start()
  }
  guard await ready.wait(untilCount: count, deadline: deadline) else { return false }
  go.signal()
  return await finished.wait(untilCount: count, deadline: deadline)
}

/// Runs `body` on a new thread with a `stackSize` stack; returns whether it returned
/// within the hang limit of `timeout` seconds.
@discardableResult
public func runOnThread(
  stackSize: Int = 8 << 20, timeout: Double = 60, _ body: @escaping @Sendable () -> Void
) async -> Bool {
  await runThreads(1, stackSize: stackSize, timeout: timeout) { _ in body() }
}

/// Runs `body` on a thread of its own and returns its result; nil when it did not return
/// within the hang limit of `timeout` seconds: a deadlock fails the test instead of hanging
/// the run.
public func resultOnThread<T>(
  _ timeout: Double = 60, stackSize: Int = 8 << 20, _ body: @escaping @Sendable () -> T
) async -> T? {
  let result = LockedValue<T?>(nil)
  let finished = await runOnThread(stackSize: stackSize, timeout: timeout) {
    let value = body()
    result.set(value)
  }
  return finished ? result.current : nil
}

/// Runs `body` on a new thread with a `stackSize` stack and blocks this thread until it
/// returns (for synchronous tests that need a stack of a given size; the caller is not a
/// task waiting for other tasks).
public func resultOnThreadBlocking<R>(stackSize: Int, _ body: @escaping @Sendable () -> R) -> R {
  let result = LockedValue<R?>(nil)
  let finished = Signal()
  let thread = Thread {
    result.set(body())
    finished.signal()
  }
  thread.stackSize = stackSize
  thread.start()
  _ = finished.waitBlocking(seconds: 3_600)
  return result.current!
}

/// What a task got: its value, a `DIError`, another error, or nothing within the hang limit.
public enum TaskOutcome<Value: Sendable>: Sendable {
  /// The task returned this value.
  case value(Value)
  /// The task threw this `DIError`.
  case error(DIError)
  /// The task threw another error; its description.
  case otherError(String)
  /// The task had not ended when the hang limit passed.
  case stillWaiting
}

/// The outcome of `task` if it ends within the hang limit of `seconds` (see
/// ``TestEnvironment/limit(_:)``): the caller waits on a continuation, so a task that never
/// ends leaves nothing holding a thread.
public func outcome<Value: Sendable>(
  of task: Task<Value, any Error>, within seconds: Double = 60
) async -> TaskOutcome<Value> {
  let result = LockedValue<Result<Value, any Error>?>(nil)
  let ended = Signal()
  Task {
    let value = await task.result
    result.set(value)
    ended.signal()
  }
  guard await ended.wait(seconds: seconds), let value = result.current else {
    return .stillWaiting
  }
  switch value {
  case .success(let value): return .value(value)
  case .failure(let error as DIError): return .error(error)
  case .failure(let error): return .otherError("\(error)")
  }
}
