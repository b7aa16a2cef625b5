import DIContainer
import DITestSupport
import Dispatch
import Foundation
import Testing

// The request scope's state: makings under way kept in an array apart from the
// kept instances, the instances swapped out whole at close, the emptied storage reused by
// later scopes. Each `.scoped` object has a serial number, counts its hook runs and its
// deinit, so an instance made twice in a scope, leaked into a later scope, cleaned twice
// or never freed fails; threaded work runs with deadlines, so a making left behind (a
// waiter that never wakes) fails instead of hanging.

/// Serial numbers, deinits, hook runs and notes of one test's objects (shared by the
/// ledger-counting suites).
final class PRLedger: @unchecked Sendable {
  private let lock = NSLock()
  private var serials = 0
  private var freedCount = 0
  private var cleanedSerials: [Int] = []
  private var seen: [String] = []

  func noteMade() -> Int {
    lock.withLock {
      serials += 1
      return serials
    }
  }
  func noteFreed() { lock.withLock { freedCount += 1 } }
  func noteCleaned(_ serial: Int) { lock.withLock { cleanedSerials.append(serial) } }
  func note(_ entry: String) { lock.withLock { seen.append(entry) } }

  var made: Int { lock.withLock { serials } }
  var freed: Int { lock.withLock { freedCount } }
  var cleaned: [Int] { lock.withLock { cleanedSerials } }
  var entries: [String] { lock.withLock { seen } }
  /// Made and not freed yet.
  var alive: Int { lock.withLock { serials - freedCount } }
}

/// An object that counts its making and its deinit in a ledger (shared by the ledger-counting
/// suites).
class PRCounted {
  let ledger: PRLedger
  let serial: Int
  init(_ ledger: PRLedger) {
    self.ledger = ledger
    serial = ledger.noteMade()
  }
  deinit { ledger.noteFreed() }
}

private final class PRSLog: PRCounted {}
private final class PRSSession: PRCounted {
  let log: PRSLog
  init(log: PRSLog, _ ledger: PRLedger) {
    self.log = log
    super.init(ledger)
  }
}

/// A prototype between two `.scoped` objects.
private final class PRSHelper: PRCounted {
  let log: PRSLog
  init(log: PRSLog, _ ledger: PRLedger) {
    self.log = log
    super.init(ledger)
  }
}

private final class PRSHandler: PRCounted {
  let session: PRSSession
  let helper: PRSHelper
  let log: PRSLog
  init(session: PRSSession, helper: PRSHelper, log: PRSLog, _ ledger: PRLedger) {
    self.session = session
    self.helper = helper
    self.log = log
    super.init(ledger)
  }
}

private final class PRSSlow: PRCounted {}

/// Two `.scoped` objects in a loop by their initializers.
private final class PRSLoopA: PRCounted {
  init(b: PRSLoopB, _ ledger: PRLedger) { super.init(ledger) }
}
private final class PRSLoopB: PRCounted {
  init(a: PRSLoopA, _ ledger: PRLedger) { super.init(ledger) }
}
private final class PRSSelfLoop: PRCounted {
  init(again: PRSSelfLoop, _ ledger: PRLedger) { super.init(ledger) }
}
private final class PRSViaPrototype: PRCounted {
  init(middle: PRSMiddle, _ ledger: PRLedger) { super.init(ledger) }
}
private final class PRSMiddle: PRCounted {
  init(back: PRSViaPrototype, _ ledger: PRLedger) { super.init(ledger) }
}

/// Two `.scoped` objects in a loop broken by a postponed injection.
private final class PRSPeerA: PRCounted {
  var peer: PRSPeerB?
}
private final class PRSPeerB: PRCounted {
  let peer: PRSPeerA
  init(peer: PRSPeerA, _ ledger: PRLedger) {
    self.peer = peer
    super.init(ledger)
  }
}

/// One of many `.scoped` component types: `PRSItem<SCDigit1, SCDigit7>` is item 17.
private final class PRSItem<Tens: SCDigit, Ones: SCDigit>: PRCounted {
  var index: Int { Tens.value * 10 + Ones.value }
}

/// A level of a deep `.scoped` chain: level `100 * H + 10 * T + O` needs the next one.
private final class PRSLevel<H: SCDigit, T: SCDigit, O: SCDigit>: PRCounted {
  private(set) var next: PRCounted?
  init(next: PRCounted?, _ ledger: PRLedger) {
    self.next = next
    super.init(ledger)
  }
  var level: Int { H.value * 100 + T.value * 10 + O.value }
  /// Unlinks the next level, so a long chain is released level by level.
  func detach() -> PRCounted? {
    defer { next = nil }
    return next
  }
}

private typealias PRSDeepRoot = PRSLevel<SCDigit0, SCDigit0, SCDigit0>

/// Registers `.scoped` items `0..<count` (at most 100), each cleaned into `ledger`; with
/// `slow`, their factories take from 10 to 100 µs, unlike each other.
private func registerItems(
  _ count: Int, in container: DIContainer, ledger: PRLedger, slow: Bool = false
) {
  for index in 0..<count {
    registerItem(
      scDigit(index / 10), scDigit(index % 10), in: container, ledger: ledger,
      pause: slow ? UInt32(10 + index * 37 % 91) : 0)
  }
}

private func registerItem<Tens: SCDigit, Ones: SCDigit>(
  _: Tens.Type, _: Ones.Type, in container: DIContainer, ledger: PRLedger, pause: UInt32
) {
  container.register { () -> PRSItem<Tens, Ones> in
    if pause > 0 { usleep(pause) }
    return PRSItem<Tens, Ones>(ledger)
  }
  .lifetime(.scoped)
  .as(PRCounted.self, tag: PRSItem<Tens, Ones>.self)
  .onClean { ledger.noteCleaned($0.serial) }
}

/// Resolves item `index` in `scope`.
private func item(_ index: Int, in scope: DIRequestScope) throws(DIError) -> PRCounted {
  try itemOf(scDigit(index / 10), scDigit(index % 10), in: scope)
}

private func itemOf<Tens: SCDigit, Ones: SCDigit>(
  _: Tens.Type, _: Ones.Type, in scope: DIRequestScope
) throws(DIError) -> PRCounted {
  let item: PRSItem<Tens, Ones> = try scope.tryResolve()
  return item
}

/// Registers a `.scoped` chain of `depth` levels (at most 1,000).
private func registerChain(depth: Int, in container: DIContainer, ledger: PRLedger) {
  for level in 0..<depth {
    let digits = (scDigit(level / 100), scDigit(level / 10 % 10), scDigit(level % 10))
    if level + 1 < depth {
      let next = level + 1
      registerLink(
        digits.0, digits.1, digits.2, scDigit(next / 100), scDigit(next / 10 % 10),
        scDigit(next % 10), in: container, ledger: ledger)
    } else {
      registerLast(digits.0, digits.1, digits.2, in: container, ledger: ledger)
    }
  }
}

private func registerLink<
  H: SCDigit, T: SCDigit, O: SCDigit, NH: SCDigit, NT: SCDigit, NO: SCDigit
>(
  _: H.Type, _: T.Type, _: O.Type, _: NH.Type, _: NT.Type, _: NO.Type,
  in container: DIContainer, ledger: PRLedger
) {
  container.register { (next: PRSLevel<NH, NT, NO>) in PRSLevel<H, T, O>(next: next, ledger) }
    .lifetime(.scoped)
    .onClean { ledger.noteCleaned($0.serial) }
}

private func registerLast<H: SCDigit, T: SCDigit, O: SCDigit>(
  _: H.Type, _: T.Type, _: O.Type, in container: DIContainer, ledger: PRLedger
) {
  container.register { PRSLevel<H, T, O>(next: nil, ledger) }.lifetime(.scoped)
    .onClean { ledger.noteCleaned($0.serial) }
}

/// The handler graph: a `.scoped` log and session, a prototype helper and handler.
private func registerHandlerGraph(in container: DIContainer, ledger: PRLedger, slow: Bool) {
  container.register { () -> PRSLog in
    // A little slow, so that other threads come to wait for the making.
    if slow { usleep(50) }
    return PRSLog(ledger)
  }
  .lifetime(.scoped).onClean { ledger.noteCleaned($0.serial) }
  container.register { PRSSession(log: $0, ledger) }.lifetime(.scoped)
    .onClean { ledger.noteCleaned($0.serial) }
  container.register { PRSHelper(log: $0, ledger) }
  container.register { PRSHandler(session: $0, helper: $1, log: $2, ledger) }
}

@Suite struct RequestScopeInstanceTests {
  // MARK: - One instance per scope

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func threadsResolvingInOneScopeShareEachScopedInstance() async throws {
    let ledger = PRLedger()
    let container = DIContainer()
    registerHandlerGraph(in: container, ledger: ledger, slow: true)
    let rounds = TestEnvironment.rounds(300)
    let scopes = (0..<rounds).map { _ in container.makeScope() }
    // Every handler each thread got, by scope.
    let handlers = LockedValue<[[PRSHandler]]>(Array(repeating: [], count: rounds))
    let failures = LockedValue<[String]>([])
    let finished = await runThreads(4, timeout: TestEnvironment.limit(60)) { _ in
      for (round, scope) in scopes.enumerated() {
        do throws(DIError) {
          let handler: PRSHandler = try scope.tryResolve()
          handlers.withLock { $0[round].append(handler) }
        } catch {
          failures.withLock { $0.append(scBrief(error)) }
        }
      }
    }
    try #require(finished, "resolving in shared scopes did not finish")
    #expect(failures.current.isEmpty)
    do {
      let all = handlers.current
      var scopedSerials: Set<Int> = []
      for (round, got) in all.enumerated() {
        #expect(got.count == 4)
        guard let first = got.first else { continue }
        for handler in got {
          if handler.session !== first.session || handler.log !== first.log {
            Issue.record("round \(round): a .scoped instance was made twice in one scope")
          }
          if handler.session.log !== handler.log || handler.helper.log !== handler.log {
            Issue.record("round \(round): one handler saw two logs")
          }
        }
        scopedSerials.insert(first.session.serial)
        scopedSerials.insert(first.log.serial)
      }
      // One log and one session per scope, no more.
      #expect(scopedSerials.count == 2 * rounds)
      // Per scope: 1 log, 1 session, 4 helpers, 4 handlers.
      #expect(ledger.made == 10 * rounds)
      for scope in scopes { scope.close() }
      #expect(ledger.cleaned.count == 2 * rounds)
      #expect(Set(ledger.cleaned) == scopedSerials)
      handlers.withLock { $0 = [] }
    }
    #expect(ledger.freed == ledger.made)
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func makingsOfDifferentScopedObjectsEndingInAnyOrderMakeEachOnce() async throws {
    // Threads make different items of one scope at once, and their makings end in
    // another order than they began: a making forgotten in the wrong place lets a
    // second thread make the same item again, or leaves one that nobody ends.
    let ledger = PRLedger()
    let container = DIContainer()
    let count = 12
    registerItems(count, in: container, ledger: ledger, slow: true)
    let rounds = TestEnvironment.rounds(60, minimum: 10)
    let scopes = (0..<rounds).map { _ in container.makeScope() }
    let got = LockedValue<[[Int: [Int]]]>(Array(repeating: [:], count: rounds))
    let failures = LockedValue<[String]>([])
    let finished = await runThreads(4, timeout: TestEnvironment.limit(60)) { thread in
      for (round, scope) in scopes.enumerated() {
        for step in 0..<count {
          let index = (step * (thread % 2 == 0 ? 1 : count - 1) + thread * 3) % count
          do throws(DIError) {
            let serial = try item(index, in: scope).serial
            got.withLock { $0[round][index, default: []].append(serial) }
          } catch {
            failures.withLock { $0.append(scBrief(error)) }
          }
        }
      }
    }
    try #require(finished, "threads making items of shared scopes did not finish")
    #expect(failures.current.isEmpty)
    for (round, items) in got.current.enumerated() {
      #expect(items.count == count)
      for (index, serials) in items where Set(serials).count != 1 || serials.count != 4 {
        Issue.record("round \(round): item \(index) got \(serials)")
      }
    }
    #expect(ledger.made == count * rounds)
    for scope in scopes { scope.close() }
    #expect(ledger.cleaned.count == count * rounds)
    #expect(Set(ledger.cleaned).count == count * rounds)
    #expect(ledger.freed == ledger.made)
  }

  @Test func aScopedMakingThatNeedsAnotherScopedOneSharesIt() throws {
    let ledger = PRLedger()
    let container = DIContainer()
    registerHandlerGraph(in: container, ledger: ledger, slow: false)
    // The session's making is under way while the log's starts and ends (nested makings).
    let scope = container.makeScope()
    let session: PRSSession = try scope.tryResolve()
    let handler: PRSHandler = try scope.tryResolve()
    let log: PRSLog = try scope.tryResolve()
    #expect(handler.session === session)
    #expect(session.log === log)
    #expect(handler.helper.log === log)
    #expect(handler.log === log)
    #expect(ledger.made == 4)
    scope.close()
    // Newest first: the session before the log it holds.
    #expect(ledger.cleaned == [session.serial, log.serial])
  }

  @Test func aLoopBrokenByAPostponedInjectionBetweenScopedObjectsIsBuiltOnce() throws {
    let ledger = PRLedger()
    let container = DIContainer()
    container.register { PRSPeerA(ledger) }.lifetime(.scoped)
      .injection(cycle: true, \.peer)
      .onClean { ledger.noteCleaned($0.serial) }
    container.register { PRSPeerB(peer: $0, ledger) }.lifetime(.scoped)
      .onClean { ledger.noteCleaned($0.serial) }
    weak var weakA: PRSPeerA?
    weak var weakB: PRSPeerB?
    do {
      let scope = container.makeScope()
      let a: PRSPeerA = try scope.tryResolve()
      let b: PRSPeerB = try scope.tryResolve()
      weakA = a
      weakB = b
      #expect(a.peer === b)
      #expect(b.peer === a)
      #expect(ledger.made == 2)
      scope.close()
      #expect(Set(ledger.cleaned) == [a.serial, b.serial])
      #expect(ledger.cleaned.count == 2)
      // The two hold each other: unlinked, both go.
      a.peer = nil
    }
    #expect(weakA == nil)
    #expect(weakB == nil)
    #expect(ledger.freed == 2)
  }

  // MARK: - Cycles

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func aLoopBetweenScopedInitializersIsACycleEveryTimeNotAHang() async throws {
    let ledger = PRLedger()
    let container = DIContainer()
    container.register { PRSLoopA(b: $0, ledger) }.lifetime(.scoped)
    container.register { PRSLoopB(a: $0, ledger) }.lifetime(.scoped)
    container.register { PRSSelfLoop(again: $0, ledger) }.lifetime(.scoped)
    container.register { PRSViaPrototype(middle: $0, ledger) }.lifetime(.scoped)
    container.register { PRSMiddle(back: $0, ledger) }
    container.register { PRSLog(ledger) }.lifetime(.scoped)
      .onClean { ledger.noteCleaned($0.serial) }
    let scope = container.makeScope()
    // Twice each, from threads of their own: a making left behind by the first failure
    // would make the second wait for a request that is over.
    for _ in 0..<2 {
      #expect(await scFailure(PRSLoopA.self, from: scope)?.code == .cycle)
      #expect(await scFailure(PRSLoopB.self, from: scope)?.code == .cycle)
      #expect(await scFailure(PRSSelfLoop.self, from: scope)?.code == .cycle)
      #expect(await scFailure(PRSViaPrototype.self, from: scope)?.code == .cycle)
    }
    #expect(ledger.made == 0)
    // The scope still works, and closes with only what it made.
    let log = try #require(await scInstance(PRSLog.self, from: scope))
    #expect(await scInstance(PRSLog.self, from: scope) === log)
    scope.close()
    #expect(ledger.cleaned == [log.serial])
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func aLoopResolvedFromBothEndsOnTwoThreadsFailsWithoutAHang() async throws {
    let ledger = PRLedger()
    let container = DIContainer()
    container.register { PRSLoopA(b: $0, ledger) }.lifetime(.scoped)
    container.register { PRSLoopB(a: $0, ledger) }.lifetime(.scoped)
    let rounds = TestEnvironment.rounds(100)
    let codes = LockedValue<[DIError.Code]>([])
    let unexpected = Counter()
    for _ in 0..<rounds {
      let scope = container.makeScope()
      let finished = await runThreads(2, timeout: TestEnvironment.limit(10)) { index in
        do throws(DIError) {
          if index == 0 {
            let _: PRSLoopA = try scope.tryResolve()
          } else {
            let _: PRSLoopB = try scope.tryResolve()
          }
          unexpected.next()
        } catch {
          codes.withLock { $0.append(error.code) }
        }
      }
      try #require(finished, "a loop resolved from both ends hung")
      scope.close()
    }
    #expect(unexpected.value == 0)
    #expect(codes.current.count == 2 * rounds)
    #expect(codes.current.allSatisfy { $0 == .cycle })
    #expect(ledger.made == 0)
  }

  // MARK: - Closing while making

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func closingWhileAnotherThreadMakesDropsTheLateInstanceOnce() async throws {
    let ledger = PRLedger()
    let gate = Gate()
    let passed = Counter()
    let container = DIContainer()
    container.register { () -> PRSSlow in
      if gate.passBlocking() { passed.next() }
      return PRSSlow(ledger)
    }
    .lifetime(.scoped)
    .onClean { ledger.noteCleaned($0.serial) }
    container.register { PRSLog(ledger) }.lifetime(.scoped)
      .onClean { ledger.noteCleaned($0.serial) }
    let scope = container.makeScope()
    let log: PRSLog = try scope.tryResolve()
    let outcomes = LockedValue<[Result<Int, DIError>]>([])
    let threads = Task {
      await runThreads(3, timeout: TestEnvironment.limit(30)) { _ in
        let outcome = Result { () throws(DIError) -> Int in
          let slow: PRSSlow = try scope.tryResolve()
          return slow.serial
        }
        outcomes.withLock { $0.append(outcome) }
      }
    }
    try #require(await gate.waitForArrivals(1, seconds: 10))
    // One thread makes the object; give the others time to wait for it.
    try await Task.sleep(for: .milliseconds(50))
    scope.close()
    // The log is dropped at once; the object being made is not there yet.
    #expect(ledger.cleaned == [log.serial])
    gate.open()
    try #require(await threads.value, "resolving while the scope closed hung")
    let results = outcomes.current
    #expect(results.count == 3)
    for result in results {
      switch result {
      case .success(let serial): Issue.record("got object \(serial) from a closed scope")
      case .failure(let error): #expect(error.code == .scopeClosed)
      }
    }
    // Made once (the waiters found the scope closed), dropped at once with its hook.
    #expect(passed.value == 1)
    #expect(ledger.made == 2)
    #expect(ledger.cleaned.count == 2)
    #expect(Set(ledger.cleaned).count == 2)
    #expect(ledger.freed == 1)
    // A new scope makes its own.
    let next = container.makeScope()
    let fresh: PRSSlow = try next.tryResolve()
    #expect(fresh.serial == 3)
    next.close()
    #expect(ledger.cleaned.last == fresh.serial)
    withExtendedLifetime(log) {}
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func closingRacesWithResolvesCleanEachInstanceExactlyOnce() async throws {
    let ledger = PRLedger()
    let container = DIContainer()
    registerHandlerGraph(in: container, ledger: ledger, slow: true)
    let rounds = TestEnvironment.rounds(200)
    let wrong = LockedValue<[String]>([])
    for _ in 0..<rounds {
      let scope = container.makeScope()
      let finished = await runThreads(3, timeout: TestEnvironment.limit(10)) { index in
        if index == 2 {
          usleep(UInt32.random(in: 0...100))
          scope.close()
          return
        }
        do throws(DIError) {
          let handler: PRSHandler = try scope.tryResolve()
          if handler.session.log !== handler.log { wrong.withLock { $0.append("two logs") } }
        } catch  where error.code == .scopeClosed {
        } catch {
          wrong.withLock { $0.append(scBrief(error)) }
        }
      }
      try #require(finished, "closing while resolving hung")
    }
    #expect(wrong.current.isEmpty)
    let cleaned = ledger.cleaned
    // Every .scoped object made was cleaned once, whether kept or made too late.
    #expect(Set(cleaned).count == cleaned.count)
    #expect(ledger.freed == ledger.made)
    #expect(cleaned.count <= 2 * rounds)
  }

  // MARK: - Reuse across scopes

  @Test func scopesOneAfterAnotherNeverSeeAnEarlierScopesInstances() throws {
    let ledger = PRLedger()
    let container = DIContainer()
    let count = 24
    registerItems(count, in: container, ledger: ledger)
    var previous: [Int: Int] = [:]
    var weakPrevious: [Weak] = []
    var expectedCleaned = 0
    for round in 0..<300 {
      // From none to all the items: small maps, and maps past their index threshold.
      let used = round % (count + 1)
      let owner = NSObject()
      var serials: [Int: Int] = [:]
      do {
        let scope = round % 3 == 1 ? container.scope(for: owner) : container.makeScope()
        for index in 0..<used {
          let first = try item(index, in: scope)
          let again = try item(index, in: scope)
          #expect(first === again, "round \(round): item \(index) made twice")
          serials[index] = first.serial
          if let earlier = previous[index], first.serial <= earlier {
            Issue.record("round \(round): item \(index) is an earlier scope's")
          }
        }
        // The earlier scope's instances are all gone.
        #expect(weakPrevious.allSatisfy { $0.object == nil }, "round \(round)")
        weakPrevious = []
        for index in 0..<used { weakPrevious.append(Weak(try item(index, in: scope))) }
        // An odd round's plain scope is released unclosed: it closes itself as it goes.
        if round % 3 == 1 || round.isMultiple(of: 2) { scope.close() }
      }
      expectedCleaned += used
      previous.merge(serials) { $1 }
      #expect(ledger.cleaned.count == expectedCleaned, "round \(round)")
      withExtendedLifetime(owner) {}
    }
    #expect(weakPrevious.allSatisfy { $0.object == nil })
    #expect(Set(ledger.cleaned).count == ledger.cleaned.count)
    #expect(ledger.freed == ledger.made)
    // A closed scope refuses.
    let closed = container.makeScope()
    closed.close()
    #expect(throws: DIError.self) { _ = try item(0, in: closed) }
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func scopesOpenedAndClosedOnManyThreadsKeepTheirOwnInstances() async throws {
    let ledger = PRLedger()
    let container = DIContainer()
    registerHandlerGraph(in: container, ledger: ledger, slow: false)
    registerItems(20, in: container, ledger: ledger)
    let rounds = TestEnvironment.rounds(400)
    let wrong = LockedValue<[String]>([])
    let seen = LockedValue<Set<Int>>([])
    let finished = await runThreads(4, timeout: TestEnvironment.limit(60)) { thread in
      for round in 0..<rounds {
        let scope = container.makeScope()
        do throws(DIError) {
          let first: PRSHandler = try scope.tryResolve()
          let second: PRSHandler = try scope.tryResolve()
          if first.session !== second.session || first.log !== second.log {
            wrong.withLock { $0.append("made twice in one scope") }
          }
          var serials = [first.session.serial, first.log.serial]
          for index in 0..<((thread + round) % 20) {
            serials.append(try item(index, in: scope).serial)
          }
          // No serial may have been handed out in another scope before.
          let reused = seen.withLock { seen in
            serials.contains { !seen.insert($0).inserted }
          }
          if reused { wrong.withLock { $0.append("an instance seen in two scopes") } }
        } catch {
          wrong.withLock { $0.append(scBrief(error)) }
        }
        if round.isMultiple(of: 2) { scope.close() }
      }
    }
    try #require(finished, "scopes on threads did not finish")
    #expect(wrong.current.isEmpty)
    let cleaned = ledger.cleaned
    #expect(Set(cleaned) == seen.current)
    #expect(cleaned.count == seen.current.count)
    #expect(ledger.freed == ledger.made)
  }

  // MARK: - Deep nesting

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func aDeepScopedChainResolvedOnThreadsIsMadeOnceAndDroppedWithItsScope() async throws {
    let depth = 300
    let ledger = PRLedger()
    let container = DIContainer()
    registerChain(depth: depth, in: container, ledger: ledger)
    let scope = container.makeScope()
    let roots = LockedValue<[PRSDeepRoot]>([])
    let failures = LockedValue<[DIError]>([])
    let finished = await runThreads(3, timeout: TestEnvironment.limit(60)) { _ in
      do throws(DIError) {
        let root: PRSDeepRoot = try scope.tryResolve()
        roots.withLock { $0.append(root) }
      } catch {
        failures.withLock { $0.append(error) }
      }
    }
    try #require(finished, "resolving a deep .scoped chain hung")
    if TestEnvironment.isThreadSanitized, failures.current.contains(where: { $0.code == .tooDeep })
    {
      // Sanitizer builds use far bigger frames; only plain debug builds must fit.
      return
    }
    #expect(failures.current.isEmpty, "\(failures.current.map(scBrief))")
    do {
      let got = roots.current
      roots.withLock { $0 = [] }
      #expect(got.count == 3)
      #expect(got.allSatisfy { $0 === got.first })
      #expect(ledger.made == depth)
      var levels = 0
      var node: PRCounted? = got.first
      while let current = node {
        levels += 1
        node = (current as? any PRSDetachable)?.detachNext()
      }
      #expect(levels == depth)
      scope.close()
      #expect(ledger.cleaned.count == depth)
      #expect(Set(ledger.cleaned).count == depth)
      // Newest first: the root, made last.
      #expect(ledger.cleaned.first == depth)
    }
    #expect(ledger.freed == depth)
  }

  // MARK: - Async

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func tasksInOneWithScopeShareItsInstancesAndItsHooksRunOnceAfter() async throws {
    let ledger = PRLedger()
    let container = DIContainer()
    registerHandlerGraph(in: container, ledger: ledger, slow: true)
    let serials = try await container.withScope { scope in
      try await withThrowingTaskGroup(of: [Int].self) { group in
        for _ in 0..<8 {
          group.addTask {
            let handler: PRSHandler = try await scope.resolveAsync()
            return [handler.session.serial, handler.log.serial]
          }
        }
        var all: Set<[Int]> = []
        for try await pair in group { all.insert(pair) }
        return all
      }
    }
    #expect(serials.count == 1)
    let pair = try #require(serials.first)
    #expect(Set(ledger.cleaned) == Set(pair))
    #expect(ledger.cleaned.count == 2)
    #expect(ledger.freed == ledger.made)
  }
}

/// A weak reference to an object, in an array.
private struct Weak {
  weak var object: AnyObject?
  init(_ object: AnyObject) { self.object = object }
}

/// What walks a chain of levels.
private protocol PRSDetachable: AnyObject {
  func detachNext() -> PRCounted?
}

extension PRSLevel: PRSDetachable {
  func detachNext() -> PRCounted? { detach() }
}
