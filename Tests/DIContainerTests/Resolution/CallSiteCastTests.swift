// The `resolve()` of a container and of a request scope make the only candidate's instance
// in non-generic code and cast it where `T` is known (inlined at the call site). These
// tests hold what each branch of that cast and of its fallback must still do: the right
// instance, the error that names the registration, nothing leaked, and no instance lost
// when the registrations change under concurrent requests.

import DIContainer
import DITestSupport
import Foundation
import Testing

private protocol CSNamed: AnyObject { var name: String { get } }
private protocol CSUnrelated {}

private class CSBase: PRCounted, CSNamed, @unchecked Sendable {
  var name: String { "base" }
}
private final class CSSub: CSBase, @unchecked Sendable {
  override var name: String { "sub" }
}
private final class CSLeaf: PRCounted, @unchecked Sendable {}
private final class CSPair: PRCounted, @unchecked Sendable {
  let first: CSLeaf
  let second: CSLeaf
  init(first: CSLeaf, second: CSLeaf, _ ledger: PRLedger) {
    (self.first, self.second) = (first, second)
    super.init(ledger)
  }
}
private struct CSPoint: Equatable { let x: Int }

@Suite struct CallSiteCastTests {
  // MARK: - The container's resolve()

  @Test func eachShapeOfInstanceReachesItsCaller() {
    let ledger = PRLedger()
    let container = DIContainer()
    container.register { CSSub(ledger) }.as(CSBase.self).as(CSNamed.self)
    container.register { CSPoint(x: 7) }
    container.register { () -> any CSNamed.Type in CSSub.self }
    do {
      let exact: CSSub = container.resolve()
      let superclass: CSBase = container.resolve()
      let existential: any CSNamed = container.resolve()
      let point: CSPoint = container.resolve()
      let metatype: any CSNamed.Type = container.resolve()
      #expect(exact.name == "sub")
      #expect(type(of: superclass) == CSSub.self)
      #expect(existential.name == "sub")
      #expect(point == CSPoint(x: 7))
      #expect(ObjectIdentifier(metatype) == ObjectIdentifier(CSSub.self))
      #expect(ledger.made == 3)
    }
    #expect(ledger.freed == 3, "an instance moved out at the call site was leaked or freed twice")
  }

  @Test func aCachedInstanceIsMadeOnceThroughEitherPath() {
    let ledger = PRLedger()
    let container = DIContainer()
    container.register { CSLeaf(ledger) }.lifetime(.perContainer(.single))
    // The first request makes it in the core; the next read it published.
    let first: CSLeaf = container.resolve()
    let second: CSLeaf = container.resolve()
    #expect(ObjectIdentifier(first) == ObjectIdentifier(second))
    #expect(ledger.made == 1)
  }

  @Test func anObjectGraphInstanceKeptAsAnAnyIsSharedAndMovedOut() {
    let ledger = PRLedger()
    let container = DIContainer()
    container.register { CSLeaf(ledger) }.lifetime(.objectGraph)
    container.register { CSPair(first: $0, second: $1, ledger) }.lifetime(.objectGraph)
    do {
      let pair: CSPair = container.resolve()
      #expect(ObjectIdentifier(pair.first) == ObjectIdentifier(pair.second))
      let leaf: CSLeaf = container.resolve()
      #expect(ObjectIdentifier(leaf) != ObjectIdentifier(pair.first))
    }
    #expect(ledger.made == 3)
    #expect(ledger.freed == 3)
  }

  @Test func severalCandidatesAndModifiersTakeTheGenericPath() {
    let ledger = PRLedger()
    let container = DIContainer()
    container.register { CSBase(ledger) }.as(CSNamed.self)
    container.register { CSSub(ledger) }.as(CSNamed.self).default()
    let chosen: any CSNamed = container.resolve()
    let missing: CSPoint? = container.resolve()
    let lazy: Lazy<CSSub> = container.resolve()
    #expect(chosen.name == "sub")
    #expect(missing == nil)
    #expect(lazy.value.name == "sub")
  }

  @Test func aChildContainerResolvesItsParentsComponents() {
    let ledger = PRLedger()
    let parent = DIContainer()
    parent.register { CSLeaf(ledger) }
    let child = DIContainer(parent: parent)
    let leaf: CSLeaf = child.resolve()
    let scoped: CSLeaf = child.makeScope().resolve()
    #expect(ObjectIdentifier(leaf) != ObjectIdentifier(scoped))
    #expect(ledger.made == 2)
  }

  // MARK: - A scope's resolve()

  @Test func aScopeKeepsOneScopedInstanceAndReleasesItOnClose() {
    let ledger = PRLedger()
    let container = DIContainer()
    container.register { CSLeaf(ledger) }.lifetime(.scoped)
    container.register { CSPair(first: $0, second: $1, ledger) }
    let scope = container.makeScope()
    do {
      let pair: CSPair = scope.resolve()
      let leaf: CSLeaf = scope.resolve()
      #expect(ObjectIdentifier(pair.first) == ObjectIdentifier(leaf))
      #expect(ObjectIdentifier(pair.second) == ObjectIdentifier(leaf))
      let other: CSLeaf = container.makeScope().resolve()
      #expect(ObjectIdentifier(other) != ObjectIdentifier(leaf))
    }
    #expect(ledger.made == 3)
    #expect(ledger.freed == 2, "only the pair and the other scope's leaf are gone")
    scope.close()
    #expect(ledger.freed == 3)
  }

  @Test func aScopeServesModifiersAndSeveralCandidates() {
    let ledger = PRLedger()
    let container = DIContainer()
    container.register { CSLeaf(ledger) }.lifetime(.scoped)
    container.register { CSBase(ledger) }.as(CSNamed.self)
    container.register { CSSub(ledger) }.as(CSNamed.self).default()
    let scope = container.makeScope()
    defer { scope.close() }
    let chosen: any CSNamed = scope.resolve()
    let provider: Provider<CSLeaf> = scope.resolve()
    let missing: CSPoint? = scope.resolve()
    let leaf: CSLeaf = scope.resolve()
    #expect(chosen.name == "sub")
    #expect(ObjectIdentifier(provider.value) == ObjectIdentifier(leaf))
    #expect(missing == nil)
  }

  @Test func aScopedValueOrExistentialIsKeptOnceWhateverItIsMadeAs() {
    let ledger = PRLedger()
    let makings = LockedValue(0)
    let container = DIContainer()
    container.register { () -> CSPoint in
      makings.withLock { $0 += 1 }
      return CSPoint(x: 3)
    }.lifetime(.scoped)
    container.register { () -> any CSNamed in CSSub(ledger) }.lifetime(.scoped)
    let scope = container.makeScope()
    // A struct is no object: the scope's read of a kept object finds none, and the full
    // path serves it; an existential's instance is kept as its class's object.
    #expect(scope.resolve() as CSPoint == CSPoint(x: 3))
    #expect(scope.resolve() as CSPoint == CSPoint(x: 3))
    let first: any CSNamed = scope.resolve()
    let second: any CSNamed = scope.resolve()
    #expect(ObjectIdentifier(first) == ObjectIdentifier(second))
    #expect(first.name == "sub")
    #expect(makings.withLock { $0 } == 1)
    #expect(ledger.made == 1)
    scope.close()
    #expect(ledger.freed == 0, "still held here")
  }

  @Test func componentsSixtyFourRegistrationsApartShareAFilterBitAndNoCycle() async throws {
    // Registration orders 0 and 64 give the same bit in the filter of the components
    // under construction: asking for one while the other is built must search the frames,
    // find no loop, and build it; a real loop between them is still a cycle.
    let ledger = PRLedger()
    let container = DIContainer()
    container.register { CSPair(first: $0, second: $1, ledger) }
    for filler in 0..<63 { container.register { CSPoint(x: filler) } }
    container.register { CSLeaf(ledger) }
    let pair: CSPair = try container.tryResolve()
    #expect(ObjectIdentifier(pair.first) != ObjectIdentifier(pair.second))
    let looping = DIContainer()
    looping.register { CSPair(first: $0, second: $1, ledger) }
    for filler in 0..<63 { looping.register { CSPoint(x: filler) } }
    looping.register { (_: CSPair) in CSLeaf(ledger) }
    let error = #expect(throws: DIError.self) { let _: CSPair = try looping.tryResolve() }
    #expect(error?.code == .cycle)
  }

  // MARK: - Failures name the registration

  @Test func theContainersResolveOfAWrongServiceNamesTheRegistration() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      synchronously {
        let container = DIContainer()
        container.register { CSPoint(x: 1) }.as(CSUnrelated.self)
        // A first request announces the snapshot: only then does the next one take the
        // non-generic core, whose cast fails.
        let _: CSPoint = container.resolve()
        let _: any CSUnrelated = container.resolve()
      }
    }
    let printed = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(printed.contains("does not conform to it"))
    #expect(printed.contains("CSUnrelated"))
    // The registration, by its type and place, apart from where the request was made.
    #expect(printed.contains("CSPoint"))
    #expect(scOccurrences(of: "CallSiteCastTests.swift:", in: printed) >= 2)
  }

  @Test func aScopesResolveOfAWrongServiceNamesTheRegistration() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      synchronously {
        let container = DIContainer()
        container.register { CSBase(PRLedger()) }.as(CSUnrelated.self)
        let _: any CSUnrelated = container.makeScope().resolve()
      }
    }
    let printed = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(printed.contains("does not conform to it"))
    #expect(printed.contains("CSBase"))
    #expect(scOccurrences(of: "CallSiteCastTests.swift:", in: printed) >= 2)
  }

  @Test func aScopesResolveOfAnUnregisteredServiceSaysSo() async {
    // No only candidate: resolved on the core's own context, whose failure still traps
    // with the request's text.
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      synchronously {
        let container = DIContainer()
        container.register { CSLeaf(PRLedger()) }
        let _: CSPair = container.makeScope().resolve()
      }
    }
    let printed = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(printed.contains("Cannot resolve CSPair: CSPair is not registered."))
  }

  @Test func aClosedScopesResolveSaysItIsClosed() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      synchronously {
        let container = DIContainer()
        container.register { CSLeaf(PRLedger()) }
        let scope = container.makeScope()
        scope.close()
        let _: CSLeaf = scope.resolve()
      }
    }
    let printed = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(printed.contains("closed"))
    #expect(printed.contains("CallSiteCastTests.swift:"))
  }

  @Test func aCycleReachedThroughResolveIsReportedAsACycle() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      synchronously {
        let container = DIContainer()
        container.register { (_: CSPair) in CSLeaf(PRLedger()) }
        container.register { CSPair(first: $0, second: $1, PRLedger()) }
        let _: CSLeaf = container.resolve()
      }
    }
    let printed = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(printed.lowercased().contains("cycle"))
  }

  // MARK: - Concurrency

  @Test("requests on four threads while a fifth registers: every instance arrives, none lost")
  func requestsWhileRegistrationsChange() async {
    let ledger = PRLedger()
    let container = DIContainer()
    container.register { CSLeaf(ledger) }
    container.register { CSPair(first: $0, second: $1, ledger) }
    let rounds = TestEnvironment.rounds(4_000, minimum: 200)
    let wrong = LockedValue(0)
    let finished = await runThreads(5, timeout: TestEnvironment.limit(60)) { index in
      for round in 0..<rounds {
        if index == 4 {
          // Each registration publishes a new snapshot: requests in flight see it moved.
          if round % 8 == 0 { container.register { CSPoint(x: round) } }
          continue
        }
        let pair: CSPair = container.resolve()
        let scoped: CSPair = container.makeScope().resolve()
        if ObjectIdentifier(pair.first) == ObjectIdentifier(pair.second)
          || ObjectIdentifier(scoped.first) == ObjectIdentifier(scoped.second)
        {
          wrong.withLock { $0 += 1 }
        }
      }
    }
    #expect(finished, "a request did not return")
    #expect(wrong.withLock { $0 } == 0)
    #expect(ledger.made == ledger.freed, "an instance made under contention was leaked")
    #expect(ledger.made == 4 * rounds * 6)
  }
}
