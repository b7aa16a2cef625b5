import DIContainer
import DITestSupport
import Foundation
import Testing

/// Plain prototypes built without the other lifetimes' checks
/// (`Component.isPlainPrototype`), request scope state reuse (kept states, `AsyncOnce`
/// coordinators cleared on reopen) and the refusal of a new making by a closed scope when
/// it is claimed (`CreationState.refusal`).
@Suite struct PlainPrototypeAndScopeStateTests {
  // MARK: - Plain prototypes: errors

  @Test func aFailureDeepInPlainPrototypesNamesEveryStepWithItsLocation() throws {
    let container = DIContainer()
    let topLine = #line + 1
    container.register(LCRTop.init)
    let middleLine = #line + 1
    container.register(LCRMiddle.init)
    let bottomLine = #line + 1
    container.register(LCRBottom.init)
    let error = try #require(throws: DIError.self) {
      let _: LCRTop = try container.tryResolve()
    }
    #expect(error.code == .notRegistered)
    #expect(error.path.map(\.requested) == ["LCRTop", "LCRMiddle", "LCRBottom", "LCRMissing"])
    let text = error.description
    #expect(text.contains("path: LCRTop → LCRMiddle → LCRBottom → LCRMissing"))
    let file = "DIContainerTests/PlainPrototypeAndScopeStateTests.swift"
    #expect(text.contains("LCRTop (\(file):\(topLine))"))
    #expect(text.contains("LCRMiddle (\(file):\(middleLine))"))
    #expect(text.contains("LCRBottom (\(file):\(bottomLine))"))
    // The same failure again: the request leaves nothing behind.
    let again = try #require(throws: DIError.self) {
      let _: LCRTop = try container.tryResolve()
    }
    #expect(again == error)
  }

  @Test func aPlainPrototypeInAScopeFailsWithTheSamePath() throws {
    let container = DIContainer()
    container.register(LCRTop.init)
    container.register(LCRMiddle.init)
    container.register(LCRBottom.init)
    let direct = try #require(throws: DIError.self) {
      let _: LCRTop = try container.tryResolve()
    }
    let scope = container.makeScope()
    defer { scope.close() }
    let scoped = try #require(throws: DIError.self) {
      let _: LCRTop = try scope.tryResolve()
    }
    #expect(scoped.path.map(\.requested) == direct.path.map(\.requested))
    #expect(scoped.code == .notRegistered)
  }

  @Test func aCycleThroughPlainPrototypesIsReportedExactly() async throws {
    let container = DIContainer()
    container.register(LCRPing.init)
    container.register(LCRPong.init)
    let error = try #require(await scFailure(LCRPing.self, from: container))
    #expect(error.code == .cycle)
    #expect(error.cycle.map(\.requested) == ["LCRPing", "LCRPong", "LCRPing"])
    #expect(error.description.contains("PlainPrototypeAndScopeStateTests.swift:"))
    let fromPong = try #require(await scFailure(LCRPong.self, from: container))
    #expect(fromPong.code == .cycle)
    #expect(fromPong.cycle.map(\.requested) == ["LCRPong", "LCRPing", "LCRPong"])
  }

  @Test func aCycleThroughACapturedContainerIsACycleError() async throws {
    let container = DIContainer()
    let box = WeakBox(container)
    let made = Counter()
    container.register { () throws -> LCRSelfAsking in
      made.next()
      let inner: LCRSelfAsking = try box.object!.tryResolve()
      return LCRSelfAsking(inner: inner)
    }
    let error = try #require(await scFailure(LCRSelfAsking.self, from: container))
    #expect(error.code == .cycle)
    #expect(made.value == 1, "the factory ran \(made.value) times")
    #expect(error.path.first?.requested == "LCRSelfAsking")
  }

  @Test func aCycleThroughACapturedContainerAndAnotherPrototypeIsACycleError() async throws {
    let container = DIContainer()
    let box = WeakBox(container)
    container.register { () throws -> LCRViaContainer in
      let other: LCRViaParameter = try box.object!.tryResolve()
      return LCRViaContainer(other: other)
    }
    container.register(LCRViaParameter.init)
    let error = try #require(await scFailure(LCRViaContainer.self, from: container))
    #expect(error.code == .cycle)
    #expect(error.cycle.first?.requested == "LCRViaContainer")
    #expect(error.cycle.last?.requested == "LCRViaContainer")
  }

  @Test func aThrowingPlainPrototypeDeepInAGraphNamesItsPath() throws {
    let container = DIContainer()
    container.register(LCRUsesThrowing.init)
    let throwingLine = #line + 1
    container.register(LCRThrowing.init)
    container.register(LCRLeaf.init)
    let error = try #require(throws: DIError.self) {
      let _: LCRUsesThrowing = try container.tryResolve()
    }
    #expect(error.code == .factoryFailed)
    #expect(error.underlyingError is LCRFailure)
    #expect(error.path.map(\.requested) == ["LCRUsesThrowing", "LCRThrowing"])
    #expect(
      error.description.contains(
        "LCRThrowing (DIContainerTests/PlainPrototypeAndScopeStateTests.swift:\(throwingLine))"))
  }

  @Test func anOptionalParameterOfAFailingPlainPrototypeIsStillAnError() throws {
    let container = DIContainer()
    container.register(LCRTakesOptional.init)
    container.register(LCRMiddle.init)
    container.register(LCRBottom.init)
    let error = try #require(throws: DIError.self) {
      let _: LCRTakesOptional = try container.tryResolve()
    }
    #expect(error.code == .notRegistered)
    #expect(
      error.path.map(\.requested) == ["LCRTakesOptional", "LCRMiddle", "LCRBottom", "LCRMissing"])

    let throwing = DIContainer()
    throwing.register(LCRTakesOptionalThrowing.init)
    throwing.register(LCRThrowing.init)
    throwing.register(LCRLeaf.init)
    let thrown = try #require(throws: DIError.self) {
      let _: LCRTakesOptionalThrowing = try throwing.tryResolve()
    }
    #expect(thrown.code == .factoryFailed)

    let absent = DIContainer()
    absent.register(LCRTakesOptional.init)
    let resolved: LCRTakesOptional = try absent.tryResolve()
    #expect(resolved.middle == nil)
  }

  @Test func aPlainPrototypeServedAsAProtocol() throws {
    let container = DIContainer()
    container.register(LCRSpeaker.init).as(LCRSpeaking.self)
    container.register(LCRListener.init)
    let first: any LCRSpeaking = try container.tryResolve()
    let second: any LCRSpeaking = try container.tryResolve()
    #expect(first !== second)
    #expect(first.word == "hi")
    let listener: LCRListener = try container.tryResolve()
    #expect(listener.speaker.word == "hi")

    let failing = DIContainer()
    failing.register(LCRFailingSpeaker.init).as(LCRSpeaking.self)
    failing.register(LCRListener.init)
    let error = try #require(throws: DIError.self) {
      let _: LCRListener = try failing.tryResolve()
    }
    #expect(error.code == .notRegistered)
    #expect(error.path.map(\.requested) == ["LCRListener", "LCRSpeaking", "LCRMissing"])
    #expect(error.description.contains("LCRFailingSpeaker (DIContainerTests/"))
  }

  @Test func aPrototypeWithInjectionsPostInitAndOnCleanStillRunsThem() throws {
    let container = DIContainer()
    let hooks = Counter()
    container.register(LCRLeaf.init)
    container.register(LCRInjected.init)
      .injection(\.leaf)
      .postInit { $0.markReady() }
      .onClean { _ in hooks.next() }
    let first: LCRInjected = try container.tryResolve()
    let second: LCRInjected = try container.tryResolve()
    #expect(first !== second)
    #expect(first.leaf != nil && first.isReady)
    #expect(second.leaf != nil && second.isReady)
    #expect(first.leaf !== second.leaf)
    let scope = container.makeScope()
    let inScope: LCRInjected = try scope.tryResolve()
    #expect(inScope.leaf != nil && inScope.isReady)
    scope.close()
    #expect(hooks.value == 0, "a prototype runs no hook")
  }

  @Test func aFailingPostInitOfAPlainPrototypeNamesItsStep() throws {
    let container = DIContainer()
    container.register(LCRUsesLeafHolder.init)
    container.register(LCRLeaf.init)
    container.register(LCRInjected.init).postInit { _ in throw LCRFailure() }
    let error = try #require(throws: DIError.self) {
      let _: LCRUsesLeafHolder = try container.tryResolve()
    }
    #expect(error.code == .factoryFailed)
    #expect(error.path.map(\.requested) == ["LCRUsesLeafHolder", "LCRInjected"])
  }

  // MARK: - Plain prototypes: depth

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func aVeryDeepChainOfPlainPrototypesIsADepthErrorNotACrash() async {
    let container = DIContainer()
    SCDeepChain.register(depth: 1_000, in: container)
    let outcome = LockedValue<Result<Int, DIError>?>(nil)
    let finished = await runOnThread(stackSize: 192 << 10, timeout: TestEnvironment.limit(30)) {
      let result = Result { () throws(DIError) -> Int in
        let root: SCDeepRoot = try container.tryResolve()
        var count = 1
        var next = root.detachNext()
        while let link = next {
          count += 1
          next = link.detachNext()
        }
        return count
      }
      outcome.withLock { $0 = result }
    }
    #expect(finished)
    switch outcome.current {
    case .success(let count)?: #expect(count == 1_000)
    case .failure(let error)?:
      #expect(error.code == .tooDeep)
      #expect(error.path.first?.requested.hasPrefix("SCLevel") == true)
    case nil: Issue.record("no outcome")
    }
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func aDeepChainThroughCapturedContainersIsADepthErrorNotACrash() async {
    let container = DIContainer()
    let box = WeakBox(container)
    for level in 0..<1_000 {
      let next = level + 1
      lcrRegisterCaptured(
        scDigit(level / 100), scDigit(level / 10 % 10), scDigit(level % 10),
        scDigit(next / 100 % 10), scDigit(next / 10 % 10), scDigit(next % 10),
        last: next == 1_000, in: container, box: box)
    }
    let outcome = LockedValue<Result<Int, DIError>?>(nil)
    let finished = await runOnThread(stackSize: 256 << 10, timeout: TestEnvironment.limit(30)) {
      let result = Result { () throws(DIError) -> Int in
        let root: SCDeepRoot = try container.tryResolve()
        var count = 1
        var next = root.detachNext()
        while let link = next {
          count += 1
          next = link.detachNext()
        }
        return count
      }
      outcome.withLock { $0 = result }
    }
    #expect(finished)
    switch outcome.current {
    case .success(let count)?: #expect(count == 1_000)
    case .failure(let error)?: #expect(error.code == .tooDeep, "\(scBrief(error))")
    case nil: Issue.record("no outcome")
    }
  }

  // MARK: - Async .scoped components and state reuse

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func asyncScopedResolvedByManyTasksWhileItsScopeClosesThenInReusedScopes() async {
    let ledger = ProbeLedger()
    let made = Counter()
    let cleaned = Counter()
    let container = DIContainer()
    container.register { () async -> LCRAsyncItem in
      made.next()
      await Task.yield()
      return LCRAsyncItem(LiveProbe(ledger))
    }
    .lifetime(.scoped).onClean { _ in cleaned.next() }
    var seen: Set<Int> = []
    var leaked = false
    var split = false
    for round in 0..<TestEnvironment.rounds(60) {
      let scope = container.makeScope()
      let ids = await withTaskGroup(of: Int?.self) { group in
        for _ in 0..<5 {
          group.addTask {
            let item: LCRAsyncItem? = try? await scope.resolveAsync()
            return item?.probe.id
          }
        }
        if round % 2 == 0 {
          group.addTask {
            await Task.yield()
            scope.close()
            return nil
          }
        }
        var ids: [Int] = []
        for await id in group { if let id { ids.append(id) } }
        return ids
      }
      if Set(ids).count > 1 { split = true }
      for id in Set(ids) where !seen.insert(id).inserted { leaked = true }
      await scope.closeAwaitingHooks()
    }
    #expect(!split, "one scope handed out two instances")
    #expect(!leaked, "an instance of one scope reached another")
    let settled = await lcrSettle { ledger.alive == 0 && cleaned.value == made.value }
    #expect(settled, "made \(made.value), cleaned \(cleaned.value), alive \(ledger.alive)")
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func tasksWaitingOnAClosedScopesAsyncMakingNeverReachLaterScopes() async throws {
    let ledger = ProbeLedger()
    let made = Counter()
    let cleaned = Counter()
    let gate = Gate()
    let container = DIContainer()
    container.register { () async -> LCRAsyncItem in
      let number = made.next()
      if number == 1 { await gate.pass() }
      return LCRAsyncItem(LiveProbe(ledger))
    }
    .lifetime(.scoped).onClean { _ in cleaned.next() }
    var scope: DIRequestScope? = container.makeScope()
    let maker = Task { [scope] () async throws -> Int in
      let item: LCRAsyncItem = try await scope!.resolveAsync()
      return item.probe.id
    }
    try await gate.awaitArrivals(1)
    let waiters = (0..<3).map { _ in
      Task { [scope] () async throws -> Int in
        let item: LCRAsyncItem = try await scope!.resolveAsync()
        return item.probe.id
      }
    }
    try await Task.sleep(for: .milliseconds(20))
    scope?.close()
    scope = nil
    var later: [Int] = []
    for _ in 0..<40 {
      let next = container.makeScope()
      let first: LCRAsyncItem = try await next.resolveAsync()
      let second: LCRAsyncItem = try await next.resolveAsync()
      #expect(first === second)
      later.append(first.probe.id)
      await next.closeAwaitingHooks()
    }
    gate.open()
    var earlier: [Int] = []
    for task in [maker] + waiters {
      switch await outcome(of: task, within: TestEnvironment.limit(20)) {
      case .value(let id): earlier.append(id)
      case .error(let error): #expect(error.code == .scopeClosed, "\(scBrief(error))")
      case .otherError(let text): Issue.record("unexpected error: \(text)")
      case .stillWaiting: Issue.record("a task of the closed scope still waits")
      }
    }
    #expect(Set(later).count == later.count)
    #expect(Set(earlier).isDisjoint(with: later))
    #expect(Set(earlier).count <= 1)
    for _ in 0..<5 {
      let next = container.makeScope()
      let item: LCRAsyncItem = try await next.resolveAsync()
      #expect(!later.contains(item.probe.id) && !earlier.contains(item.probe.id))
      await next.closeAwaitingHooks()
    }
    let settled = await lcrSettle { ledger.alive == 0 && cleaned.value == made.value }
    #expect(settled, "made \(made.value), cleaned \(cleaned.value), alive \(ledger.alive)")
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func concurrentScopesOfAnAsyncScopedComponentEachGetOneInstance() async {
    let ledger = ProbeLedger()
    let made = Counter()
    let cleaned = Counter()
    let container = DIContainer()
    container.register { () async -> LCRAsyncItem in
      made.next()
      try? await Task.sleep(for: .microseconds(50))
      return LCRAsyncItem(LiveProbe(ledger))
    }
    .lifetime(.scoped).onClean { item in
      item.probe.markCleaned()
      cleaned.next()
    }
    let problems = await withTaskGroup(of: [String].self) { group in
      for _ in 0..<4 {
        group.addTask {
          var problems: [String] = []
          for _ in 0..<TestEnvironment.rounds(40) {
            let scope = container.makeScope()
            async let first: LCRAsyncItem? = try? scope.resolveAsync()
            async let second: LCRAsyncItem? = try? scope.resolveAsync()
            let (a, b) = await (first, second)
            if a == nil || b == nil { problems.append("a resolve failed in an open scope") }
            if let a, let b, a !== b { problems.append("two instances in one scope") }
            await scope.closeAwaitingHooks()
            if let a, a.probe.isCleaned == false { problems.append("no hook ran on close") }
          }
          return problems
        }
      }
      var all: [String] = []
      for await problems in group { all += problems }
      return all
    }
    #expect(problems.isEmpty, "\(Set(problems))")
    let settled = await lcrSettle { ledger.alive == 0 && cleaned.value == made.value }
    #expect(settled, "made \(made.value), cleaned \(cleaned.value), alive \(ledger.alive)")
  }

  // MARK: - Closed scopes refuse new makings

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func aScopeClosedBeforeARequestClaimsRunsNoFactory() async throws {
    let made = Counter()
    let container = DIContainer()
    container.register { () -> LCRScopedItem in
      made.next()
      return LCRScopedItem(LiveProbe())
    }
    .lifetime(.scoped)
    container.register(LCRNeedsScoped.init)
    container.register(LCRBlocker.init)
    container.register(LCRBlockedHandler.init)
    let scope = container.makeScope()
    let provider: Provider<LCRScopedItem> = try scope.tryResolve()
    let lazy: Lazy<LCRNeedsScoped> = try scope.tryResolve()
    scope.close()
    let providerError = try #require(throws: DIError.self) { _ = try provider.tryValue() }
    #expect(providerError.code == .scopeClosed)
    let lazyError = try #require(throws: DIError.self) { _ = try lazy.tryValue() }
    #expect(lazyError.code == .scopeClosed)
    #expect(made.value == 0)

    // A request that began while its scope was open, and claims after it closed.
    let blocking = DIContainer()
    blocking.register { () -> LCRScopedItem in
      made.next()
      return LCRScopedItem(LiveProbe())
    }
    .lifetime(.scoped)
    blocking.register(LCRBlocker.init)
    blocking.register(LCRBlockedHandler.init)
    let open = blocking.makeScope()
    let outcome = LockedValue<Result<Int, DIError>?>(nil)
    async let finished = runOnThread(timeout: TestEnvironment.limit(20)) {
      let result = Result { () throws(DIError) -> Int in
        let handler: LCRBlockedHandler = try open.tryResolve()
        return handler.item.probe.id
      }
      outcome.withLock { $0 = result }
    }
    #expect(await waitForSignals(of: LCRBlocker.entered, until: hangDeadline(in: 20)))
    open.close()
    LCRBlocker.release.signal()
    #expect(await finished)
    switch outcome.current {
    case .failure(let error)?:
      #expect(error.code == .scopeClosed)
      #expect(error.path.map(\.requested) == ["LCRBlockedHandler", "LCRScopedItem"])
    case .success?: Issue.record("a closed scope made an instance")
    case nil: Issue.record("no outcome")
    }
    #expect(made.value == 0, "the factory ran for a closed scope")
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func aScopeClosedBetweenClaimAndKeepDropsTheInstanceAndRunsItsHookOnce() async {
    for _ in 0..<TestEnvironment.rounds(10, minimum: 3) {
      let ledger = ProbeLedger()
      let made = Counter()
      let cleaned = Counter()
      let entered = DispatchSemaphore(value: 0)
      let release = DispatchSemaphore(value: 0)
      let container = DIContainer()
      container.register { () -> LCRScopedItem in
        made.next()
        entered.signal()
        release.wait()
        return LCRScopedItem(LiveProbe(ledger))
      }
      .lifetime(.scoped).onClean { item in
        item.probe.markCleaned()
        cleaned.next()
      }
      let scope = container.makeScope()
      let outcomes = LockedValue<[Int: Result<Int, DIError>]>([:])
      let finished = await runThreads(3, timeout: TestEnvironment.limit(20)) { index in
        switch index {
        case 0, 1:
          if index == 1 {
            // The waiter: asks once the maker is inside its factory.
            entered.wait()
            entered.signal()
          }
          let result = Result { () throws(DIError) -> Int in
            let item: LCRScopedItem = try scope.tryResolve()
            return item.probe.id
          }
          outcomes.withLock { $0[index] = result }
        default:
          entered.wait()
          entered.signal()
          Thread.sleep(forTimeInterval: 0.02)
          scope.close()
          release.signal()
        }
      }
      #expect(finished)
      let results = outcomes.current
      #expect(results.count == 2)
      for (index, result) in results {
        switch result {
        case .failure(let error): #expect(error.code == .scopeClosed, "thread \(index)")
        case .success: Issue.record("thread \(index) got an instance of a closed scope")
        }
      }
      #expect(made.value == 1, "the factory ran \(made.value) times")
      let settled = await lcrSettle { ledger.alive == 0 && cleaned.value == 1 }
      #expect(settled, "cleaned \(cleaned.value), alive \(ledger.alive)")
      #expect(scope.isClosed)
    }
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func closingRacingWithSynchronousRequestsRunsEveryHookOnce() async {
    let ledger = ProbeLedger()
    let made = Counter()
    let cleaned = Counter()
    let container = DIContainer()
    container.register { () -> LCRScopedItem in
      made.next()
      return LCRScopedItem(LiveProbe(ledger))
    }
    .lifetime(.scoped).onClean { item in
      item.probe.markCleaned()
      cleaned.next()
    }
    container.register(LCRNeedsScoped.init)
    let runner = SCPairRunner()
    let bad = LockedValue<[String]>([])
    let deadline = hangDeadline(in: TestEnvironment.limit(40))
    for _ in 0..<TestEnvironment.rounds(300) {
      let scope = container.makeScope()
      let ids = LockedValue<[Int]>([])
      let ok = await runner.run(until: deadline) { worker in
        if worker == 0 {
          scope.close()
          return
        }
        for _ in 0..<2 {
          do throws(DIError) {
            let needs: LCRNeedsScoped = try scope.tryResolve()
            ids.withLock { $0.append(needs.item.probe.id) }
            if needs.item.probe.isCleaned && !scope.isClosed {
              bad.withLock { $0.append("a cleaned item in an open scope") }
            }
          } catch {
            if error.code != .scopeClosed { bad.withLock { $0.append(scBrief(error)) } }
          }
        }
      }
      guard ok else {
        Issue.record("a round hung")
        return
      }
      if Set(ids.current).count > 1 { bad.withLock { $0.append("two instances in one scope") } }
    }
    runner.stop()
    #expect(bad.current.isEmpty, "\(Set(bad.current))")
    let settled = await lcrSettle { ledger.alive == 0 && cleaned.value == made.value }
    #expect(settled, "made \(made.value), cleaned \(cleaned.value), alive \(ledger.alive)")
  }
}

// MARK: - Helpers

/// Polls `condition` until it holds (true) or a few seconds pass (false).
private func lcrSettle(_ condition: @Sendable () -> Bool) async -> Bool {
  let deadline = ContinuousClock.now + .seconds(TestEnvironment.limit(10))
  while ContinuousClock.now < deadline {
    if condition() { return true }
    try? await Task.sleep(for: .milliseconds(2))
  }
  return condition()
}

/// Registers level `HTO` of a chain whose factory asks the captured container for the next
/// level (none after the last).
private func lcrRegisterCaptured<
  H: SCDigit, T: SCDigit, O: SCDigit, NH: SCDigit, NT: SCDigit, NO: SCDigit
>(
  _: H.Type, _: T.Type, _: O.Type, _: NH.Type, _: NT.Type, _: NO.Type, last: Bool,
  in container: DIContainer, box: WeakBox<DIContainer>
) {
  if last {
    container.register { SCLevel<H, T, O>(next: nil) }
  } else {
    container.register { () throws -> SCLevel<H, T, O> in
      let next: SCLevel<NH, NT, NO> = try box.object!.tryResolve()
      return SCLevel<H, T, O>(next: next)
    }
  }
}

// MARK: - Fixtures

private struct LCRFailure: Error {}

private final class LCRMissing: Sendable {}

private final class LCRBottom: Sendable {
  init(missing: LCRMissing) {}
}

private final class LCRMiddle: Sendable {
  init(bottom: LCRBottom) {}
}

private final class LCRTop: Sendable {
  init(middle: LCRMiddle) {}
}

private final class LCRPing: Sendable {
  init(pong: LCRPong) {}
}

private final class LCRPong: Sendable {
  init(ping: LCRPing) {}
}

private final class LCRSelfAsking: Sendable {
  init(inner: LCRSelfAsking) {}
}

private final class LCRViaContainer: Sendable {
  init(other: LCRViaParameter) {}
}

private final class LCRViaParameter: Sendable {
  init(back: LCRViaContainer) {}
}

private final class LCRLeaf: Sendable {}

private final class LCRThrowing: Sendable {
  init(leaf: LCRLeaf) throws { throw LCRFailure() }
}

private final class LCRUsesThrowing: Sendable {
  init(throwing: LCRThrowing) {}
}

private final class LCRTakesOptional: Sendable {
  let middle: LCRMiddle?
  init(middle: LCRMiddle?) { self.middle = middle }
}

private final class LCRTakesOptionalThrowing: Sendable {
  init(throwing: LCRThrowing?) {}
}

private protocol LCRSpeaking: AnyObject, Sendable {
  var word: String { get }
}

private final class LCRSpeaker: LCRSpeaking {
  var word: String { "hi" }
}

private final class LCRFailingSpeaker: LCRSpeaking {
  init(missing: LCRMissing) {}
  var word: String { "never" }
}

private final class LCRListener: Sendable {
  let speaker: any LCRSpeaking
  init(speaker: any LCRSpeaking) { self.speaker = speaker }
}

private final class LCRInjected: @unchecked Sendable {
  private let lock = NSLock()
  private var storedLeaf: LCRLeaf?
  private var ready = false

  var leaf: LCRLeaf? {
    get { lock.withLock { storedLeaf } }
    set { lock.withLock { storedLeaf = newValue } }
  }
  var isReady: Bool { lock.withLock { ready } }
  func markReady() { lock.withLock { ready = true } }
}

private final class LCRUsesLeafHolder: Sendable {
  init(injected: LCRInjected) {}
}

private final class LCRAsyncItem: Sendable {
  let probe: LCRProbe
  init(_ live: LiveProbe) { probe = LCRProbe(live) }
}

/// A live probe that also records whether its instance's hook ran.
private final class LCRProbe: @unchecked Sendable {
  private let lock = NSLock()
  private var cleaned = false
  let live: LiveProbe
  init(_ live: LiveProbe) { self.live = live }
  var id: Int { live.id }
  var isCleaned: Bool { lock.withLock { cleaned } }
  func markCleaned() { lock.withLock { cleaned = true } }
}

private final class LCRScopedItem: Sendable {
  let probe: LCRProbe
  init(_ live: LiveProbe) { probe = LCRProbe(live) }
}

private final class LCRNeedsScoped: Sendable {
  let item: LCRScopedItem
  init(item: LCRScopedItem) { self.item = item }
}

/// A prototype whose initializer waits until the test releases it.
private final class LCRBlocker: Sendable {
  static let entered = DispatchSemaphore(value: 0)
  static let release = DispatchSemaphore(value: 0)

  init() {
    Self.entered.signal()
    Self.release.wait()
  }
}

/// Waits in its first parameter, then takes the scope's item.
private final class LCRBlockedHandler: Sendable {
  let item: LCRScopedItem
  init(blocker: LCRBlocker, item: LCRScopedItem) { self.item = item }
}
