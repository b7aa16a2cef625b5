import DIContainer
import DITestSupport
import Synchronization
import Testing

/// An instance that counts how often its `onClean` hook ran.
final class SCTracked: Sendable {
  let key: Int
  let cleans = Atomic<Int>(0)

  init(key: Int) { self.key = key }

  func cleaned() { cleans.add(1, ordering: .relaxed) }
}

/// The cached lifetimes whose instances a racing clean drops.
enum SCCleanedLifetime: String, CaseIterable, Sendable {
  /// `.multiton`, resolved with one of five keys; dropped by `container.clean()`.
  case multiton
  /// `.perContainer(.single)`; dropped by `container.clean()`.
  case perContainerSingle
  /// `.custom` of a `DIScope` with a `DICacheStorage`; dropped by `scope.clean()`.
  case customScope
}

@Suite struct CleanRaceTests {
  /// One thread cleans while three resolve: after a final clean, every instance the
  /// factory ever made had its hook run exactly once (none lost, none run twice).
  @Test(arguments: SCCleanedLifetime.allCases)
  func cleanRacingCreationRunsEveryInstancesHookExactlyOnce(_ kind: SCCleanedLifetime) async {
    let container = DIContainer()
    let ledger = LockedValue<[SCTracked]>([])
    let scope = DIScope(name: "SCCleanRace")
    switch kind {
    case .multiton:
      container.register { (key: DIArg<Int>) -> SCTracked in
        let tracked = SCTracked(key: arg(key))
        ledger.withLock { $0.append(tracked) }
        return tracked
      }
      .lifetime(.multiton)
      .onClean { $0.cleaned() }
    case .perContainerSingle, .customScope:
      container.register { () -> SCTracked in
        let tracked = SCTracked(key: 0)
        ledger.withLock { $0.append(tracked) }
        return tracked
      }
      .lifetime(kind == .customScope ? .custom(scope) : .perContainer(.single))
      .onClean { $0.cleaned() }
    }

    let requests = TestEnvironment.rounds(20_000)
    let resolversDone = Counter()
    let allResolved = Flag()
    // Raised when the test gives up, so a cleaner left behind by a stuck resolver stops.
    let timedOut = Flag()
    let cleans = Counter()
    let errors = LockedValue<[DIError]>([])
    let wrongKeys = Counter()
    let finished = await runThreads(4, timeout: TestEnvironment.limit(20)) { worker in
      if worker == 0 {
        // The cleaner: cleans until every resolver is done.
        repeat {
          if kind == .customScope { scope.clean() } else { container.clean() }
          cleans.next()
        } while !allResolved.isRaised && !timedOut.isRaised
        return
      }
      for request in 0..<requests {
        do throws(DIError) {
          if kind == .multiton {
            let key = (request + worker) % 5
            let tracked: SCTracked = try container.tryResolve(arguments: [key])
            if tracked.key != key { wrongKeys.next() }
          } else {
            let _: SCTracked = try container.tryResolve()
          }
        } catch {
          errors.withLock { $0.append(error) }
        }
      }
      if resolversDone.next() == 3 { allResolved.raise() }
    }
    timedOut.raise()
    #expect(finished, "cleaning while resolving did not finish: deadlock?")
    guard finished else { return }
    let cleanedLast = await runOnThread(timeout: TestEnvironment.limit(10)) {
      if kind == .customScope { scope.clean() } else { container.clean() }
    }
    #expect(cleanedLast, "the final clean hung")
    guard cleanedLast else { return }

    let made = ledger.current
    let counts = made.map { $0.cleans.load(ordering: .relaxed) }
    let lost = counts.filter { $0 == 0 }.count
    let repeated = counts.filter { $0 > 1 }.count
    #expect(errors.current.isEmpty, "\(errors.current.count) requests failed during cleans")
    #expect(wrongKeys.value == 0, "a multiton handed out another key's instance")
    #expect(made.count >= 1)
    #expect(lost == 0, "\(lost) of \(made.count) instances were dropped without their hook")
    #expect(repeated == 0, "\(repeated) of \(made.count) instances had their hook run twice")
    #expect(cleans.value >= 1)
  }
}
