import DIContainer
import DITestSupport
import Foundation
import Testing

// A cancelled waiting task stops waiting: races between a waiter's
// cancellation and the making's end, a cancelled maker, nested waits, AsyncLazy reads,
// and the wait graph after cancelled waits.

private final class RAPool: Sendable {}
private final class RAOuter: Sendable {
  let pool: RAPool
  init(pool: RAPool) { self.pool = pool }
}

/// A container whose async `RAPool` factory counts its calls in `made` and waits at
/// `gate`, with `lifetime` (nil: the default, `.prototype`).
private func gatedPoolContainer(
  made: Counter = Counter(), gate: Gate,
  lifetime: DILifetime? = .perContainer(.single)
) -> DIContainer {
  let container = DIContainer()
  let builder = container.register { () async -> RAPool in
    made.next()
    await gate.pass()
    return RAPool()
  }
  if let lifetime { builder.lifetime(lifetime) }
  return container
}

@Suite struct AsyncWaitCancellationRaceTests {
  /// Many rounds: waiters are cancelled at the moment the maker's factory returns. Every
  /// waiter ends, with the maker's instance or a cancellation error; the factory runs once.
  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func cancellingWaitersAsTheMakingEndsNeverHangsOrMakesTwice() async throws {
    for round in 0..<150 {
      let made = Counter()
      let gate = Gate()
      let container = gatedPoolContainer(made: made, gate: gate)
      let maker = Task { () async throws -> RAPool in try await container.resolveAsync() }
      try await gate.awaitArrivals(1)
      let waiters = (0..<4).map { _ in
        Task { () async throws -> RAPool in try await container.resolveAsync() }
      }
      // Let some of them reach the wait, then race the cancellation with the end.
      if round % 3 != 0 { await Task.yield() }
      gate.open()
      if round % 2 == 0 { await Task.yield() }
      for waiter in waiters { waiter.cancel() }
      guard case .value(let instance) = await outcome(of: maker, within: 20) else {
        Issue.record("round \(round): the maker did not end with an instance")
        return
      }
      for (index, waiter) in waiters.enumerated() {
        switch await outcome(of: waiter, within: 20) {
        case .value(let got):
          #expect(got === instance, "round \(round) waiter \(index) got another instance")
        case .error(let error):
          #expect(
            error.underlyingError is CancellationError,
            "round \(round) waiter \(index): \(error)")
        case .otherError(let text):
          Issue.record("round \(round) waiter \(index) threw a non-DIError: \(text)")
        case .stillWaiting:
          Issue.record("round \(round) waiter \(index) still waits")
          return
        }
      }
      #expect(made.value == 1, "round \(round): made \(made.value) times")
      #expect(try await container.resolveAsync() as RAPool === instance)
    }
  }

  /// The maker itself is cancelled while others wait: they are not cancelled, so they make
  /// it themselves (one of them) instead of throwing.
  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func waitersOfACancelledMakerMakeItThemselves() async throws {
    let made = Counter()
    let gate = Gate()
    let container = DIContainer()
    container.register { () async throws -> RAPool in
      made.next()
      if made.value == 1 {
        // The first making notices its task's cancellation.
        await gate.pass()
        try Task.checkCancellation()
      }
      return RAPool()
    }.lifetime(.perContainer(.single))
    let maker = Task { () async throws -> RAPool in try await container.resolveAsync() }
    try await gate.awaitArrivals(1)
    let waiters = (0..<3).map { _ in
      Task { () async throws -> RAPool in try await container.resolveAsync() }
    }
    try await Task.sleep(for: .milliseconds(50))
    maker.cancel()
    gate.open()
    if case .value = await outcome(of: maker, within: 20) {
      Issue.record("the cancelled maker got an instance")
    }
    var instances: [RAPool] = []
    for waiter in waiters {
      switch await outcome(of: waiter, within: 20) {
      case .value(let pool): instances.append(pool)
      case let other: Issue.record("a waiter of the cancelled maker ended with \(other)")
      }
    }
    #expect(made.value == 2)
    #expect(instances.allSatisfy { $0 === instances.first })
  }

  /// A task making Outer waits for Inner, which another task makes; the task is cancelled
  /// while it waits. Its making of Outer fails; a third task waiting for Outer is not
  /// cancelled, so it makes Outer itself (and gets the shared Inner).
  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func aMakerCancelledInANestedWaitLetsItsWaitersMakeIt() async throws {
    let innerGate = Gate()
    let outerMade = Counter()
    let container = gatedPoolContainer(gate: innerGate)
    container.register { (pool: RAPool) async -> RAOuter in
      outerMade.next()
      return RAOuter(pool: pool)
    }.lifetime(.perContainer(.single))
    let innerMaker = Task { () async throws -> RAPool in try await container.resolveAsync() }
    try await innerGate.awaitArrivals(1)
    let outerMaker = Task { () async throws -> RAOuter in try await container.resolveAsync() }
    try await Task.sleep(for: .milliseconds(50))
    let outerWaiter = Task { () async throws -> RAOuter in try await container.resolveAsync() }
    try await Task.sleep(for: .milliseconds(50))
    outerMaker.cancel()
    let cancelled = await outcome(of: outerMaker, within: 10)
    guard case .error(let error) = cancelled else {
      Issue.record("the cancelled maker of Outer ended with \(cancelled)")
      innerGate.open()
      return
    }
    #expect(error.underlyingError is CancellationError)
    innerGate.open()
    let pool = try await innerMaker.value
    switch await outcome(of: outerWaiter, within: 20) {
    case .value(let outer): #expect(outer.pool === pool)
    case let other: Issue.record("Outer's waiter ended with \(other)")
    }
  }

  /// Concurrent first reads of one AsyncLazy, some cancelled at random moments: the value
  /// is made once (a cancelled reader never makes it, it only waits), every read ends, and
  /// the reads that did not throw share one instance.
  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func asyncLazyConcurrentReadsWithCancellation() async throws {
    for round in 0..<100 {
      let made = Counter()
      let gate = Gate()
      let container = gatedPoolContainer(made: made, gate: gate, lifetime: nil)
      let lazy: AsyncLazy<RAPool> = try container.tryResolve()
      let first = Task { () async throws -> RAPool in try await lazy.value }
      try await gate.awaitArrivals(1)
      let readers = (0..<6).map { _ in Task { () async throws -> RAPool in try await lazy.value } }
      if round % 2 == 0 { await Task.yield() }
      for (index, reader) in readers.enumerated() where index % 2 == round % 2 { reader.cancel() }
      gate.open()
      for reader in readers.prefix(2) { reader.cancel() }
      guard case .value(let value) = await outcome(of: first, within: 20) else {
        Issue.record("round \(round): the first read did not end with a value")
        return
      }
      for reader in readers {
        switch await outcome(of: reader, within: 20) {
        case .value(let got): #expect(got === value, "round \(round)")
        case .error(let error): #expect(error.underlyingError is CancellationError)
        case let other:
          Issue.record("round \(round): a reader ended with \(other)")
          return
        }
      }
      #expect(made.value == 1, "round \(round): made \(made.value) times")
      #expect(try await lazy.value === value)
    }
  }

  /// After many cancelled waits, the wait graph holds nothing: chains of requests that
  /// wait for each other's makings (without a loop) are never refused as a loop.
  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func cancelledWaitsLeaveNoWaitGraphEntries() async throws {
    for _ in 0..<30 {
      let gate = Gate()
      let container = gatedPoolContainer(gate: gate)
      let maker = Task { () async throws -> RAPool in try await container.resolveAsync() }
      try await gate.awaitArrivals(1)
      let waiters = (0..<5).map { _ in
        Task { () async throws -> RAPool in try await container.resolveAsync() }
      }
      await Task.yield()
      for waiter in waiters { waiter.cancel() }
      for waiter in waiters { _ = await outcome(of: waiter, within: 20) }
      gate.open()
      _ = try await maker.value
    }
    // A and B are made by two tasks; each making needs the other's shared dependency only
    // in one direction (no loop): nothing may be refused as a wait loop.
    for _ in 0..<20 {
      let gate = Gate()
      let container = gatedPoolContainer(gate: gate)
      container.register { (pool: RAPool) async -> RAOuter in RAOuter(pool: pool) }
        .lifetime(.perContainer(.single))
      let tasks = (0..<4).map { index in
        Task { () async throws -> Bool in
          if index % 2 == 0 {
            _ = try await container.resolveAsync() as RAPool
            return true
          }
          _ = try await container.resolveAsync() as RAOuter
          return true
        }
      }
      try await gate.awaitArrivals(1)
      try await Task.sleep(for: .milliseconds(5))
      gate.open()
      for task in tasks {
        switch await outcome(of: task, within: 20) {
        case .value: break
        case let other: Issue.record("a plain wait ended with \(other)")
        }
      }
    }
  }

  /// A request scope's async `.scoped` making: a waiter in the same scope that is
  /// cancelled throws; the scope keeps the maker's instance for the others.
  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func aCancelledWaiterInARequestScope() async throws {
    let gate = Gate()
    let made = Counter()
    let container = gatedPoolContainer(made: made, gate: gate, lifetime: .scoped)
    let scope = container.makeScope()
    let maker = Task { () async throws -> RAPool in try await scope.resolveAsync() }
    try await gate.awaitArrivals(1)
    let waiter = Task { () async throws -> RAPool in try await scope.resolveAsync() }
    let patient = Task { () async throws -> RAPool in try await scope.resolveAsync() }
    try await Task.sleep(for: .milliseconds(50))
    waiter.cancel()
    let cancelled = await outcome(of: waiter, within: 10)
    gate.open()
    guard case .error(let error) = cancelled else {
      Issue.record("the cancelled waiter ended with \(cancelled)")
      return
    }
    #expect(error.underlyingError is CancellationError)
    let instance = try await maker.value
    #expect(try await patient.value === instance)
    #expect(made.value == 1)
    scope.close()
  }

  /// A task that is cancelled before it asks for an instance another task is making stops
  /// at once; it neither makes one nor waits.
  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func anAlreadyCancelledTaskDoesNotWait() async throws {
    let gate = Gate()
    let made = Counter()
    let container = gatedPoolContainer(made: made, gate: gate)
    let maker = Task { () async throws -> RAPool in try await container.resolveAsync() }
    try await gate.awaitArrivals(1)
    let late = Task { () async throws -> RAPool in
      withUnsafeCurrentTask { $0?.cancel() }
      return try await container.resolveAsync()
    }
    let result = await outcome(of: late, within: 10)
    gate.open()
    guard case .error(let error) = result else {
      Issue.record("a cancelled task's request ended with \(result)")
      return
    }
    #expect(error.underlyingError is CancellationError)
    _ = try await maker.value
    #expect(made.value == 1)
  }

  /// The error of a cancelled wait says the wait was cancelled; the factory did not throw
  /// (it goes on and succeeds for the others). Now it reads "the factory of RAPool threw:
  /// CancellationError()", code factoryFailed.
  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func aCancelledWaitDoesNotBlameTheFactory() async throws {
    let gate = Gate()
    let container = gatedPoolContainer(gate: gate)
    let maker = Task { () async throws -> RAPool in try await container.resolveAsync() }
    try await gate.awaitArrivals(1)
    let waiter = Task { () async throws -> RAPool in try await container.resolveAsync() }
    try await Task.sleep(for: .milliseconds(50))
    waiter.cancel()
    let result = await outcome(of: waiter, within: 10)
    gate.open()
    _ = try await maker.value
    guard case .error(let error) = result else {
      Issue.record("the cancelled waiter ended with \(result)")
      return
    }
    #expect(error.underlyingError is CancellationError)
    #expect(
      !error.description.contains("factory of RAPool threw"),
      "a cancelled wait is described as a failed factory: \(error.description)")
  }
}
