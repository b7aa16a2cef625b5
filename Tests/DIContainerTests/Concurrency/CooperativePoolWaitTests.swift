import DIContainer
import DITestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

// Their injections run while the container makes them, before any task sees them.
final class CPFirst: @unchecked Sendable {
  var second: CPSecond?
}

final class CPSecond: @unchecked Sendable {
  var first: CPFirst?
}

final class CPShared: Sendable {
  let first: CPFirst
  init(first: CPFirst) { self.first = first }
}

final class CPConnection: Sendable {
  let shared: CPShared
  init(shared: CPShared) { self.shared = shared }
}

final class CPSession: Sendable {
  let connection: CPConnection
  let second: CPSecond
  init(connection: CPConnection, second: CPSecond) {
    self.connection = connection
    self.second = second
  }
}

@Suite struct CooperativePoolWaitTests {
  /// 64 tasks (many times the cooperative pool's threads on a small machine) race the first
  /// requests of one graph: synchronous `tryResolve()` of singletons whose postponed
  /// injections need each other (their makings stay open, and a task that meets another's
  /// blocks its thread, or backs off), and `resolveAsync()` of an async singleton and an
  /// async prototype built on them. A synchronous wait only ever waits for a synchronous
  /// making running on another thread, never for a suspended task: every task finishes,
  /// and every request gets the one cached graph.
  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func blockedTasksRacingSyncAndAsyncMakingsAllFinish() async throws {
    let tasks = 64
    let rounds = TestEnvironment.rounds(40, minimum: 5)
    for round in 0..<rounds {
      let made = Counter()
      let cleaned = Counter()
      let asyncMade = Counter()
      let container = DIContainer()
      container.register { () -> CPFirst in
        Self.work()
        _ = made.next()
        return CPFirst()
      }
      .lifetime(.perContainer(.single)).injection(cycle: true, \.second)
      .onClean { _ in _ = cleaned.next() }
      container.register { () -> CPSecond in
        Self.work()
        _ = made.next()
        return CPSecond()
      }
      .lifetime(.perContainer(.single)).injection(cycle: true, \.first)
      .onClean { _ in _ = cleaned.next() }
      container.register { (first: CPFirst) -> CPShared in
        _ = made.next()
        return CPShared(first: first)
      }
      .lifetime(.perContainer(.single)).onClean { _ in _ = cleaned.next() }
      container.register { (shared: CPShared) async -> CPConnection in
        _ = asyncMade.next()
        await Task.yield()
        return CPConnection(shared: shared)
      }
      .lifetime(.perContainer(.single))
      container.register { (connection: CPConnection, second: CPSecond) async -> CPSession in
        await Task.yield()
        return CPSession(connection: connection, second: second)
      }

      let firsts = try await withThrowingTaskGroup(of: CPFirst.self) { group in
        for index in 0..<tasks {
          group.addTask { () async throws -> CPFirst in
            switch index % 4 {
            case 0: return try container.tryResolve() as CPFirst
            case 1: return try (container.tryResolve() as CPSecond).first!
            case 2: return (try await container.resolveAsync() as CPConnection).shared.first
            default: return (try await container.resolveAsync() as CPSession).second.first!
            }
          }
        }
        var firsts: [CPFirst] = []
        for try await first in group { firsts.append(first) }
        return firsts
      }
      #expect(firsts.count == tasks, "round \(round)")
      let first: CPFirst = try container.tryResolve()
      #expect(firsts.allSatisfy { $0 === first }, "round \(round): two First instances")
      #expect(first.second?.first === first, "round \(round): First and Second do not match")
      // Three singletons kept; every other synchronous instance made was dropped by a
      // request that backed off, and cleaned. The async singleton is made once.
      #expect(made.value == 3 + cleaned.value, "round \(round): \(made.value) made")
      #expect(asyncMade.value == 1, "round \(round): the async singleton made \(asyncMade.value)")
    }
  }

  /// A factory's own work, long enough for the other thread to start its making meanwhile
  /// (it waits for nothing).
  private static func work() {
    for _ in 0..<50 { sched_yield() }
  }
}
