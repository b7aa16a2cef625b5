import DIContainer
import DITestSupport
import Foundation
import Testing

private final class CWPool: Sendable {}

/// A task waiting for another task's making of an async cached instance stops waiting when
/// it is cancelled, and the making goes on for the others.
@Suite struct AsyncWaitCancellationTests {
  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func aCancelledWaiterThrowsWhileTheMakingGoesOn() async throws {
    let gate = Gate()
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

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func anAsyncLazyReadCancelledWhileAnotherMakesItThrows() async throws {
    let gate = Gate()
    let container = DIContainer()
    container.register { () async -> CWPool in
      await gate.pass()
      return CWPool()
    }
    let lazy: AsyncLazy<CWPool> = try container.tryResolve()
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
