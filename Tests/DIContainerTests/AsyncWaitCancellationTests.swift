import DIContainer
import Foundation
import Testing

/// Holds an async factory until the test opens it, and tells the test the factory began.
private final class CWGate: @unchecked Sendable {
  private let lock = NSLock()
  private var isOpen = false
  private var arrivals = 0

  func open() { lock.withLock { isOpen = true } }

  /// Waits (polling, so a cancelled test still ends) until the gate opens.
  func pass() async {
    lock.withLock { arrivals += 1 }
    while !lock.withLock({ isOpen }) { try? await Task.sleep(for: .milliseconds(2)) }
  }

  /// Waits until `count` factories have reached the gate.
  func awaitArrivals(_ count: Int) async throws {
    while lock.withLock({ arrivals }) < count { try await Task.sleep(for: .milliseconds(2)) }
  }
}

private final class CWPool: Sendable {}

/// What a task got: its value, its error, or nothing within the time given.
private enum CWOutcome<Value: Sendable>: Sendable {
  case value(Value)
  case error(DIError)
  case stillWaiting
}

/// The outcome of `task` if it ends within `seconds`; polls, so a task that does not end
/// leaves nothing to wait for.
private func outcome<Value: Sendable>(
  of task: Task<Value, any Error>, within seconds: Double
) async -> CWOutcome<Value> {
  let box = CWBox<Value>()
  Task { box.set(await task.result) }
  let deadline = ContinuousClock.now + .seconds(seconds)
  while ContinuousClock.now < deadline {
    switch box.result {
    case .success(let value)?: return .value(value)
    case .failure(let error as DIError)?: return .error(error)
    case .failure?: return .stillWaiting
    case nil: try? await Task.sleep(for: .milliseconds(2))
    }
  }
  return .stillWaiting
}

/// A task's result, once it has one.
private final class CWBox<Value: Sendable>: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: Result<Value, any Error>?

  func set(_ result: Result<Value, any Error>) { lock.withLock { stored = result } }
  var result: Result<Value, any Error>? { lock.withLock { stored } }
}

/// A task waiting for another task's making of an async cached instance stops waiting when
/// it is cancelled, and the making goes on for the others.
@Suite struct AsyncWaitCancellationTests {
  @Test(.timeLimit(.minutes(1)))
  func aCancelledWaiterThrowsWhileTheMakingGoesOn() async throws {
    let gate = CWGate()
    let container = DIContainer()
    container.register { () async -> CWPool in
      await gate.pass()
      return CWPool()
    }.lifetime(.perContainer(.single))
    let maker = Task { () async throws -> CWPool in try await container.resolveAsync() }
    try await gate.awaitArrivals(1)
    let waiter = Task { () async throws -> CWPool in try await container.resolveAsync() }
    let patient = Task { () async throws -> CWPool in try await container.resolveAsync() }
    try await Task.sleep(for: .milliseconds(50))
    waiter.cancel()
    let cancelled = await outcome(of: waiter, within: 5)
    gate.open()
    guard case .error(let error) = cancelled else {
      Issue.record("the cancelled waiter did not throw: \(cancelled)")
      return
    }
    #expect(error.code == .cancelled)
    #expect(error.underlyingError is CancellationError)
    #expect(
      error.description.contains("cancelled while it waited for another request making CWPool"))
    let made = try await maker.value
    #expect(try await patient.value === made)
    #expect(try await container.resolveAsync() as CWPool === made)
  }

  @Test(.timeLimit(.minutes(1)))
  func anAsyncLazyReadCancelledWhileAnotherMakesItThrows() async throws {
    let gate = CWGate()
    let container = DIContainer()
    container.register { () async -> CWPool in
      await gate.pass()
      return CWPool()
    }
    let lazy: AsyncLazy<CWPool> = container.resolve()
    let first = Task { () async throws -> CWPool in try await lazy.value }
    try await gate.awaitArrivals(1)
    let second = Task { () async throws -> CWPool in try await lazy.value }
    try await Task.sleep(for: .milliseconds(50))
    second.cancel()
    let cancelled = await outcome(of: second, within: 5)
    gate.open()
    guard case .error(let error) = cancelled else {
      Issue.record("the cancelled read did not throw: \(cancelled)")
      return
    }
    #expect(error.code == .cancelled)
    #expect(error.underlyingError is CancellationError)
    let made = try await first.value
    #expect(try await lazy.value === made)
  }
}
