import DIContainer
import DITestSupport
import Synchronization
import Testing

private struct ConnectFailed: Error, Equatable {}

private final class Session: Sendable {}

/// A connection that fails on its first run and succeeds after, counting its runs.
private final class FlakyConnection: Sendable {
  let runs = Atomic(0)

  func connect() async throws -> Session {
    if runs.add(1, ordering: .relaxed).newValue == 1 { throw ConnectFailed() }
    return Session()
  }

  /// Checks that `error` is the first run's failure, reported for the delayed value
  /// `name`.
  func expectFirstFailure(
    _ error: DIError?, of name: String, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    #expect(error?.code == .factoryFailed, sourceLocation: sourceLocation)
    #expect(
      error?.underlyingError as? ConnectFailed == ConnectFailed(), sourceLocation: sourceLocation)
    #expect(error?.path.map(\.requested) == [name], sourceLocation: sourceLocation)
  }
}

/// `AsyncLazy { … }` and `AsyncProvider { … }` made from a closure: the lazy one runs it
/// once (concurrent first reads share the run; a throw keeps nothing, so the next read
/// runs it again), the provider at every read.
@Suite(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
struct AsyncDelayedClosureTests {
  // MARK: - AsyncLazy

  @Test func asyncLazyFromAClosureRunsItOnceOnFirstRead() async throws {
    let runs = Atomic(0)
    let lazy = AsyncLazy { () async -> Session in
      runs.add(1, ordering: .relaxed)
      return Session()
    }
    #expect(!lazy.wasMade)
    #expect(lazy.description == "AsyncLazy<Session> (not made yet)")
    #expect(runs.load(ordering: .relaxed) == 0, "nothing is made before the first read")
    let first = try await lazy.value
    #expect(try await lazy.value === first)
    #expect(runs.load(ordering: .relaxed) == 1)
    #expect(lazy.wasMade)
  }

  @Test func concurrentFirstReadsOfAClosureAsyncLazyShareOneRun() async throws {
    let runs = Atomic(0)
    let gate = Gate()
    let lazy = AsyncLazy { () async -> Session in
      runs.add(1, ordering: .relaxed)
      await gate.pass()
      return Session()
    }
    let readers = 100
    let started = Signal()
    let identities = try await withThrowingTaskGroup(of: ObjectIdentifier.self) { group in
      for _ in 0..<readers {
        group.addTask {
          started.signal()
          return ObjectIdentifier(try await lazy.value)
        }
      }
      // The run holds at the gate until every reader has started reading.
      try await gate.awaitArrivals(1)
      #expect(await started.wait(untilCount: readers))
      gate.open()
      var identities: Set<ObjectIdentifier> = []
      for try await identity in group { identities.insert(identity) }
      return identities
    }
    #expect(runs.load(ordering: .relaxed) == 1)
    #expect(identities.count == 1)
  }

  @Test func aThrowKeepsNothingAndTheNextReadRunsTheClosureAgain() async throws {
    let connection = FlakyConnection()
    let lazy = AsyncLazy { try await connection.connect() }
    let error = await #expect(throws: DIError.self) { _ = try await lazy.value }
    connection.expectFirstFailure(error, of: "AsyncLazy<Session>")
    #expect(
      error?.description.contains(
        "AsyncLazy<Session>: a closure (DIContainerTests/AsyncDelayedClosureTests.swift:")
        == true)
    #expect(!lazy.wasMade)
    let made = try await lazy.value
    #expect(try await lazy.value === made)
    #expect(connection.runs.load(ordering: .relaxed) == 2)
  }

  @Test func clearMakesTheNextReadRunTheClosureAgain() async throws {
    let runs = Atomic(0)
    let lazy = AsyncLazy { () async -> Session in
      runs.add(1, ordering: .relaxed)
      return Session()
    }
    let first = try await lazy.value
    lazy.clear()
    #expect(!lazy.wasMade)
    #expect(try await lazy.value !== first)
    #expect(runs.load(ordering: .relaxed) == 2)
  }

  @Test func aDIErrorTheClosureThrowsIsKeptWithTheDelayedValueInItsPath() async {
    let container = DIContainer()
    let lazy = AsyncLazy { () async throws -> Session in try await container.resolveAsync() }
    let error = await #expect(throws: DIError.self) { _ = try await lazy.value }
    #expect(error?.code == .notRegistered)
    #expect(error?.path.map(\.requested) == ["AsyncLazy<Session>", "Session"])
  }

  // MARK: - AsyncProvider

  @Test func asyncProviderFromAClosureRunsItAtEveryRead() async throws {
    let runs = Atomic(0)
    let provider = AsyncProvider { () async -> Int in
      runs.add(1, ordering: .relaxed).newValue
    }
    #expect(provider.description == "AsyncProvider<Int>")
    #expect(runs.load(ordering: .relaxed) == 0, "describing never makes a value")
    #expect(try await provider.value == 1)
    #expect(try await provider.value == 2)
    #expect(try await provider.value == 3)
  }

  @Test func aThrowFromAnAsyncProvidersClosureFailsThatReadOnly() async throws {
    let connection = FlakyConnection()
    let provider = AsyncProvider { try await connection.connect() }
    let error = await #expect(throws: DIError.self) { _ = try await provider.value }
    connection.expectFirstFailure(error, of: "AsyncProvider<Session>")
    #expect(try await provider.value !== (try await provider.value))
    #expect(connection.runs.load(ordering: .relaxed) == 3)
  }

  // MARK: - Wiring by hand

  @Test func closureMadeAsyncValuesStandInForInjectedOnes() async throws {
    final class Report: Sendable {
      let session: AsyncLazy<Session>
      let sessions: AsyncProvider<Session>
      init(session: AsyncLazy<Session>, sessions: AsyncProvider<Session>) {
        self.session = session
        self.sessions = sessions
      }
    }
    let report = Report(session: AsyncLazy { Session() }, sessions: AsyncProvider { Session() })
    #expect(try await report.session.value === (try await report.session.value))
    #expect(try await report.sessions.value !== (try await report.sessions.value))
  }
}
