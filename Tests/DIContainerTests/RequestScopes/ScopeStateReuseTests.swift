import DIContainer
import DITestSupport
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Request scope state reuse: a container's next scope reuses the lock and slot
/// storage of a closed scope that nothing holds any more. A later scope must never see an
/// earlier one's instances, a closed scope must stay closed whatever still refers to it,
/// every instance must be released with its hook run once, also when scopes close during
/// `shutdown()` or from deinitializers and hooks, and the pool must stay bounded.
@Suite struct ScopeStateReuseTests {
  /// A container whose `SRRItem` is `.scoped`, counted by `ledger`, its hook counted by
  /// `cleaned`; `SRRHandler` is `.prototype` and takes the scope's item.
  private static func container(ledger: ProbeLedger, cleaned: Counter) -> DIContainer {
    let container = DIContainer()
    container.register { SRRItem(LiveProbe(ledger)) }.lifetime(.scoped)
      .onClean { _ in cleaned.next() }
    container.register(SRRHandler.init)
    return container
  }

  // MARK: - No leakage between scopes

  @Test func delayedValuesOfAClosedScopeNeverReachALaterScope() throws {
    let ledger = ProbeLedger()
    let cleaned = Counter()
    let container = Self.container(ledger: ledger, cleaned: cleaned)
    func delayedOfAScopeLetGo() -> (Provider<SRRItem>, Lazy<SRRItem>, Int) {
      let scope = container.makeScope()
      let item: SRRItem = scope.resolve()
      let provider: Provider<SRRItem> = scope.resolve()
      let lazy: Lazy<SRRItem> = scope.resolve()
      scope.close()
      return (provider, lazy, item.probe.id)
    }
    let (provider, lazy, firstID) = delayedOfAScopeLetGo()
    for _ in 1...5 {
      let scope = container.makeScope()
      let item: SRRItem = scope.resolve()
      #expect(item.probe.id != firstID)
      let providerError = try #require(throws: DIError.self) { _ = try provider.tryValue() }
      #expect(providerError.code == .scopeClosed)
      let lazyError = try #require(throws: DIError.self) { _ = try lazy.tryValue() }
      #expect(lazyError.code == .scopeClosed)
      scope.close()
    }
    #expect(ledger.alive == 0)
    #expect(cleaned.value == 6)
  }

  @Test func aDelayedValueOfAnOpenScopeStillGetsThatScopesInstance() {
    let container = DIContainer()
    container.register { SRRItem(LiveProbe()) }.lifetime(.scoped)
    let scope = container.makeScope()
    let provider: Provider<SRRItem> = scope.resolve()
    let item: SRRItem = scope.resolve()
    for _ in 1...3 {
      let other = container.makeScope()
      let otherItem: SRRItem = other.resolve()
      #expect(otherItem !== item)
      other.close()
      #expect(provider.value === item)
    }
    scope.close()
  }

  @Test func scopedInstancesAreReallyFreedWhenTheirScopeCloses() {
    let container = DIContainer()
    container.register { SRRItem(LiveProbe()) }.lifetime(.scoped)
    weak var previous: SRRItem?
    for _ in 1...20 {
      let scope = container.makeScope()
      #expect(previous == nil, "the previous scope's instance outlived it")
      let item: SRRItem = scope.resolve()
      previous = item
      scope.close()
    }
    #expect(previous == nil)
  }

  @Test func asyncAndSyncResolvesInReusedScopesSeeOnlyTheirOwnInstances() async throws {
    let ledger = ProbeLedger()
    let cleaned = Counter()
    let container = Self.container(ledger: ledger, cleaned: cleaned)
    container.register { () async in SRRAsyncItem() }.lifetime(.scoped)
    var seen: Set<Int> = []
    for round in 1...20 {
      let scope = container.makeScope()
      let item: SRRItem = try await scope.resolveAsync()
      let handler: SRRHandler = try scope.tryResolve()
      #expect(handler.item === item)
      #expect(seen.insert(item.probe.id).inserted)
      if round.isMultiple(of: 2) {
        let asyncItem: SRRAsyncItem = try await scope.resolveAsync()
        #expect(seen.insert(asyncItem.probe.id).inserted)
      }
      await scope.closeAwaitingHooks()
    }
    #expect(ledger.alive == 0)
    #expect(cleaned.value == 20)
  }

  /// An async `.scoped` making is under way when its scope is closed and let go: later
  /// scopes never receive what it makes, and what it makes is released, its hook run.
  @Test func anAsyncMakingOutlivingItsScopeNeverReachesALaterScope() async throws {
    let container = DIContainer()
    let gate = Gate()
    let cleaned = Counter()
    container.register { () async in
      await gate.pass()
      return SRRAsyncItem()
    }
    .lifetime(.scoped).onClean { _ in cleaned.next() }
    var scope: DIRequestScope? = container.makeScope()
    let pending = Task { [scope] () async throws(DIError) -> Int in
      let item: SRRAsyncItem = try await scope!.resolveAsync()
      return item.probe.id
    }
    try await gate.awaitArrivals(1, seconds: 10)
    scope?.close()
    scope = nil
    var later: [Int] = []
    for _ in 1...3 {
      let next = container.makeScope()
      #expect(!next.isClosed)
      gate.open()
      let item: SRRAsyncItem = try await next.resolveAsync()
      later.append(item.probe.id)
      await next.closeAwaitingHooks()
    }
    gate.open()
    let outcome = await pending.result
    if case .success(let id) = outcome { #expect(!later.contains(id)) }
    if case .failure(let error) = outcome { #expect((error as? DIError)?.code == .scopeClosed) }
    #expect(Set(later).count == 3)
    await TeardownWait.settle()
    #expect(cleaned.value == 4, "three later items and the one made for the closed scope")
  }

  @Test func withScopeReturnsItsBodysValueAndFreesTheScopesInstances() async throws {
    let ledger = ProbeLedger()
    let cleaned = Counter()
    let container = Self.container(ledger: ledger, cleaned: cleaned)
    var ids: [Int] = []
    for _ in 1...10 {
      let id = try await container.withScope { scope in
        let item: SRRItem = try await scope.resolveAsync()
        return item.probe.id
      }
      ids.append(id)
      #expect(ledger.alive == 0)
    }
    #expect(Set(ids).count == 10)
    #expect(cleaned.value == 10)
    await #expect(throws: SRRFailure.self) {
      try await container.withScope { scope in
        let _: SRRItem = try scope.tryResolve()
        throw SRRFailure()
      }
    }
    #expect(cleaned.value == 11)
    #expect(ledger.alive == 0)
  }

  @Test func ownerScopesOfGoneOwnersCloseAndLaterOwnersStartEmpty() {
    let ledger = ProbeLedger()
    let cleaned = Counter()
    let container = Self.container(ledger: ledger, cleaned: cleaned)
    var previous: Int?
    for _ in 1...10 {
      let owner = SRROwner()
      let scope = container.scope(for: owner)
      let item: SRRItem = scope.resolve()
      #expect(container.scope(for: owner) === scope)
      #expect(item.probe.id != previous)
      previous = item.probe.id
    }
    // A later use of the owner storage sweeps the gone owners' scopes.
    let last = SRROwner()
    let scope = container.scope(for: last)
    let item: SRRItem = scope.resolve()
    #expect(item.probe.id != previous)
    #expect(ledger.alive <= 2)
    scope.close()
  }

  // MARK: - Deinitializers and hooks that use scopes

  @Test func deinitializersOfScopedInstancesMayOpenAndUseScopes() async {
    let container = DIContainer()
    let made = Counter()
    let box = SRRContainerBox()
    container.register { SRRReentrant(box: box) }.lifetime(.scoped)
    container.register { SRRItem(LiveProbe()) }.lifetime(.scoped)
      .onClean { _ in made.next() }
    box.container = container
    let finished = await runOnThread(timeout: TestEnvironment.limit(20)) {
      for _ in 1...20 {
        let scope = container.makeScope()
        let _: SRRReentrant = scope.resolve()
        let _: SRRItem = scope.resolve()
        scope.close()
      }
    }
    #expect(finished, "a deinitializer that opens a scope deadlocked")
    #expect(made.value == 40, "each scope's item and each deinitializer's item cleaned once")
    #expect(box.distinct, "a scope opened in a deinitializer saw another scope's item")
  }

  @Test func hooksMayOpenScopesWhileTheirScopeCloses() async {
    let container = DIContainer()
    let box = SRRContainerBox()
    let inner = Counter()
    container.register { SRRItem(LiveProbe()) }.lifetime(.scoped)
      .onClean { _ in inner.next() }
    container.register { SRRAsyncItem() }.lifetime(.scoped)
      .onClean { _ in box.useAScope() }
    box.container = container
    let finished = await runOnThread(timeout: TestEnvironment.limit(20)) {
      for _ in 1...20 {
        let scope = container.makeScope()
        let _: SRRAsyncItem = scope.resolve()
        let _: SRRItem = scope.resolve()
        scope.close()
      }
    }
    #expect(finished, "a hook that opens a scope deadlocked")
    #expect(inner.value == 40)
    #expect(box.distinct, "a scope opened in a hook saw another scope's item")
  }

  // MARK: - Shutdown

  @Test func scopesAfterShutdownFailAndAClosedScopeStaysClosed() async throws {
    let ledger = ProbeLedger()
    let cleaned = Counter()
    let container = Self.container(ledger: ledger, cleaned: cleaned)
    let held = container.makeScope()
    let _: SRRItem = try held.tryResolve()
    await container.shutdown()
    #expect(held.isClosed)
    #expect(cleaned.value == 1)
    for _ in 1...3 {
      let scope = container.makeScope()
      let error = try #require(throws: DIError.self) {
        let _: SRRItem = try scope.tryResolve()
      }
      #expect(error.code == .containerShutDown || error.code == .scopeClosed)
      scope.close()
    }
    held.close()
    #expect(cleaned.value == 1)
    #expect(ledger.alive == 0)
  }

  /// Threads open, use and close scopes while the container shuts down: every instance
  /// made is released, its hook run exactly once, and no thread hangs.
  @Test func shutdownRacingWithScopesOnThreadsRunsEveryHookOnce() async {
    let ledger = ProbeLedger()
    let cleaned = Counter()
    let container = Self.container(ledger: ledger, cleaned: cleaned)
    let rounds = TestEnvironment.rounds(2_000)
    let wrong = Counter()
    let started = DispatchSemaphore(value: 0)
    let threads = Task {
      await runThreads(3, timeout: TestEnvironment.limit(60)) { index in
        for round in 0..<rounds {
          if round == rounds / 4 { started.signal() }
          let scope = container.makeScope()
          do throws(DIError) {
            let item: SRRItem = try scope.tryResolve()
            let handler: SRRHandler = try scope.tryResolve()
            if handler.item !== item || !item.probe.isAlive { wrong.next() }
          } catch {
            if error.code != .containerShutDown && error.code != .scopeClosed { wrong.next() }
          }
          if (round + index).isMultiple(of: 2) { scope.close() }
        }
      }
    }
    _ = await waitForSignals(of: started, until: hangDeadline(in: TestEnvironment.limit(30)))
    await container.shutdown()
    let finished = await threads.value
    #expect(finished, "scopes and shutdown deadlocked")
    #expect(wrong.value == 0)
    #expect(ledger.alive == 0)
    #expect(cleaned.value == ledger.made.load(ordering: .relaxed))
  }

  // MARK: - Many scopes at once

  /// Many scopes open at once on threads, then all closed: each sees only its own
  /// instance; afterwards every instance is gone.
  @Test func manyScopesOpenAtOnceThenClosedLeaveNoInstance() async {
    let ledger = ProbeLedger()
    let cleaned = Counter()
    let container = Self.container(ledger: ledger, cleaned: cleaned)
    let perThread = TestEnvironment.rounds(2_000)
    let wrong = Counter()
    let finished = await runThreads(2, timeout: TestEnvironment.limit(60)) { _ in
      for _ in 0..<3 {
        var open: [(DIRequestScope, SRRItem)] = []
        for _ in 0..<perThread {
          let scope = container.makeScope()
          let item: SRRItem = scope.resolve()
          open.append((scope, item))
        }
        for (scope, item) in open {
          let again: SRRItem = scope.resolve()
          if again !== item { wrong.next() }
          scope.close()
        }
      }
    }
    #expect(finished)
    #expect(wrong.value == 0)
    #expect(ledger.alive == 0)
    #expect(cleaned.value == 6 * perThread)
  }

  /// After a burst of scopes open at once has closed, what the container keeps for them
  /// must not grow with the burst: measured in a child process, so no other test's
  /// allocations count.
  @Test func aBurstOfOpenScopesLeavesNoPerScopeStateBehind() async throws {
    let result = await #expect(
      processExitsWith: .success, observing: [\.standardErrorContent]
    ) {
      synchronously {
        let burst = 20_000
        let container = DIContainer()
        container.register { SRRItem(LiveProbe()) }.lifetime(.scoped)
        // Warm up: the snapshot and the type metadata.
        let warm = container.makeScope()
        let _: SRRItem = warm.resolve()
        warm.close()
        guard let before = srrHeapInUse() else { exit(EXIT_SUCCESS) }  // no malloc_stats
        do {
          var open: [DIRequestScope] = []
          open.reserveCapacity(burst)
          for _ in 0..<burst {
            let scope = container.makeScope()
            let _: SRRItem = scope.resolve()
            open.append(scope)
          }
          for scope in open { scope.close() }
        }
        let retained = (srrHeapInUse() ?? before) - before
        FileHandle.standardError.write(Data("SRR-retained-per-scope=\(retained / burst)\n".utf8))
        withExtendedLifetime(container) {}
        exit(EXIT_SUCCESS)
      }
    }
    let output = String(decoding: try #require(result).standardErrorContent, as: UTF8.self)
    guard let line = output.split(separator: "\n").last(where: { $0.hasPrefix("SRR-") }),
      let perScope = line.split(separator: "=").last.flatMap({ Int($0) })
    else { return }  // nothing measured here
    // The pool kept an optional (generation, state) per place before: some 32 bytes. A
    // whole closed state (lock, condition, spare slot storage) per place is bounded only
    // by the peak number of open scopes, for the container's whole life.
    #expect(
      perScope <= 64,
      "the container keeps \(perScope) bytes per scope of a burst after every scope closed")
  }
}

// MARK: - Fixtures

/// The bytes the C heap has in use (glibc's `malloc_stats`, read back from its report on
/// standard error); nil where it is missing. For a child process only: it redirects the
/// process's standard error for a moment.
private func srrHeapInUse() -> Int? {
  #if canImport(Glibc)
    typealias Stats = @convention(c) () -> Void
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_stats") else {
      return nil
    }
    let stats = unsafeBitCast(symbol, to: Stats.self)
    let path = NSTemporaryDirectory() + "srr-malloc-\(getpid()).txt"
    let file = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0o600)
    guard file >= 0 else { return nil }
    fflush(nil)
    let saved = dup(2)
    dup2(file, 2)
    stats()
    fflush(nil)
    dup2(saved, 2)
    close(saved)
    close(file)
    defer { unlink(path) }
    guard let text = try? String(contentsOfFile: path, encoding: .utf8),
      let total = text.range(of: "Total (incl. mmap):")
    else { return nil }
    for line in text[total.upperBound...].split(separator: "\n")
    where line.contains("in use bytes") {
      return line.split(separator: "=").last.flatMap {
        Int($0.trimmingCharacters(in: .whitespaces))
      }
    }
    return nil
  #else
    return nil
  #endif
}

/// A `.scoped` object of these tests, wrapping a probe.
private final class SRRItem: Sendable {
  let probe: LiveProbe
  init(_ probe: LiveProbe) { self.probe = probe }
}

/// An async-made `.scoped` object.
private final class SRRAsyncItem: Sendable {
  let probe = LiveProbe()
}

/// A `.prototype` object that takes its scope's item.
private final class SRRHandler: Sendable {
  let item: SRRItem
  init(item: SRRItem) { self.item = item }
}

private final class SRROwner {}

private struct SRRFailure: Error {}

/// Lets hooks started on tasks of their own finish.
private enum TeardownWait {
  static func settle() async {
    for _ in 0..<50 {
      await Task.yield()
      try? await Task.sleep(for: .milliseconds(2))
    }
  }
}

/// Holds the container for deinitializers and hooks, and records whether the scopes they
/// open ever see an item seen before.
private final class SRRContainerBox: @unchecked Sendable {
  private let lock = NSLock()
  private weak var storedContainer: DIContainer?
  private var seen: Set<Int> = []
  private var repeated = false

  var container: DIContainer? {
    get { lock.withLock { storedContainer } }
    set { lock.withLock { storedContainer = newValue } }
  }

  var distinct: Bool { lock.withLock { !repeated } }

  /// Opens a scope, resolves its item, records it and closes the scope.
  func useAScope() {
    guard let container else { return }
    let scope = container.makeScope()
    let item: SRRItem = scope.resolve()
    lock.withLock {
      if !seen.insert(item.probe.id).inserted { repeated = true }
    }
    scope.close()
  }
}

/// A `.scoped` object whose deinitializer opens a scope of the container and uses it.
private final class SRRReentrant: Sendable {
  let box: SRRContainerBox
  init(box: SRRContainerBox) { self.box = box }
  deinit { box.useAScope() }
}
