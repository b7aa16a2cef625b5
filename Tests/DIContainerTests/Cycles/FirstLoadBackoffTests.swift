import DIContainer
import DITestSupport
import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

final class FLFirst {
  var second: FLSecond?
}

final class FLSecond {
  var first: FLFirst?
}

/// Holds the first two factory runs of a round until both have started, so that both
/// requests' makings are under way at once; later runs (a request making again what the
/// other dropped) pass at once. Gives up waiting at `deadline`, so a broken round fails
/// instead of hanging.
final class FLRendezvous: Sendable {
  private let started = Atomic<Int>(0)
  private let deadline: ContinuousClock.Instant

  init(deadline: ContinuousClock.Instant) {
    self.deadline = deadline
  }

  func arrive() {
    guard started.add(1, ordering: .acquiringAndReleasing).newValue <= 2 else { return }
    var spins = 0
    while started.load(ordering: .acquiring) < 2 {
      spins += 1
      if spins > 100 { sched_yield() }
      if spins % 10_000 == 0, ContinuousClock.now > deadline { return }
    }
  }
}

/// The lifetimes the first-load wait loop is tried with.
enum FLLifetime: String, CaseIterable, Sendable {
  case perContainer
  case customScope
  case requestScope

  /// Rounds in a plain build (scaled down in a slow one).
  var rounds: Int {
    switch self {
    case .perContainer: 10_000
    case .customScope, .requestScope: 1_000
    }
  }
}

/// What one round saw: failures, and how many instances were made and cleaned.
private struct FLRound {
  var problems: [String] = []
  var made = 0
  var cleaned = 0
}

@Suite struct FirstLoadBackoffTests {
  /// Two threads make First and Second at the same moment; each one's postponed injection
  /// (`cycle: true`) needs the other's instance, whose making stays open until its own
  /// postponed work ran: a wait loop in every round. One request backs off (drops its
  /// making, whose factory ran, with its `onClean`), waits and starts again: both requests
  /// get the one cached pair, in every round.
  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)), arguments: FLLifetime.allCases)
  func aWaitLoopOfPostponedInjectionsBacksOffInsteadOfFailing(_ lifetimeKind: FLLifetime) async {
    let rounds = TestEnvironment.rounds(lifetimeKind.rounds)
    let deadline = hangDeadline(in: 600)
    let runner = SCPairRunner()
    var problems: [String] = []
    var made = 0
    var cleaned = 0
    for round in 0..<rounds {
      guard let seen = await Self.round(round, lifetimeKind, runner: runner, deadline: deadline)
      else {
        Issue.record("round \(round): the two requests hung (\(lifetimeKind))")
        return
      }
      problems += seen.problems
      made += seen.made
      cleaned += seen.cleaned
      if problems.count > 20 { break }
    }
    runner.stop()
    #expect(
      problems.isEmpty,
      "\(problems.count) problems (\(lifetimeKind)); first: \(problems.prefix(5))")
    // Each round keeps two instances; every other one made was dropped by a request that
    // backed off, and cleaned.
    #expect(made == 2 * rounds + cleaned, "\(made) made, \(cleaned) cleaned in \(rounds) rounds")
    #expect(cleaned >= 1, "no round backed off: the test no longer makes a wait loop")
  }

  private static func round(
    _ round: Int, _ lifetimeKind: FLLifetime, runner: SCPairRunner,
    deadline: ContinuousClock.Instant
  ) async -> FLRound? {
    let container = DIContainer()
    let lifetime: DILifetime
    switch lifetimeKind {
    case .perContainer: lifetime = .perContainer(.single)
    case .customScope: lifetime = .custom(DIScope(name: "FLScope"))
    case .requestScope: lifetime = .scoped
    }
    let rendezvous = FLRendezvous(deadline: deadline)
    let made = Counter()
    let cleaned = Counter()
    container.register { () -> FLFirst in
      rendezvous.arrive()
      _ = made.next()
      return FLFirst()
    }
    .lifetime(lifetime).injection(cycle: true, \.second).onClean { _ in _ = cleaned.next() }
    container.register { () -> FLSecond in
      rendezvous.arrive()
      _ = made.next()
      return FLSecond()
    }
    .lifetime(lifetime).injection(cycle: true, \.first).onClean { _ in _ = cleaned.next() }
    let scope = lifetimeKind == .requestScope ? container.makeScope() : nil
    let resolver: any DIResolver = scope ?? container

    let firsts = LockedValue<[Int: Result<AnyObject, DIError>]>([:])
    let finished = await runner.run(until: deadline) { worker in
      let got = Result { () throws(DIError) -> AnyObject in
        worker == 0
          ? try resolver.tryResolve() as FLFirst : try resolver.tryResolve() as FLSecond
      }
      firsts.withLock { $0[worker] = got }
    }
    guard finished else { return nil }
    var seen = FLRound(made: made.value, cleaned: cleaned.value)
    let got = firsts.current
    guard case .success(let firstObject)? = got[0], let first = firstObject as? FLFirst,
      case .success(let secondObject)? = got[1], let second = secondObject as? FLSecond
    else {
      let failures = got.values.compactMap { result -> String? in
        if case .failure(let error) = result { return scBrief(error) }
        return nil
      }
      seen.problems.append("round \(round): a request failed: \(failures)")
      return seen
    }
    if first.second !== second || second.first !== first {
      seen.problems.append("round \(round): the two requests got two different pairs")
    }
    do throws(DIError) {
      let again: FLFirst = try resolver.tryResolve()
      if again !== first { seen.problems.append("round \(round): First is not the cached one") }
    } catch {
      seen.problems.append("round \(round): resolving First again failed: \(scBrief(error))")
    }
    scope?.close()
    return seen
  }
}
