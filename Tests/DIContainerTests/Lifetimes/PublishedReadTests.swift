// The lock-free read of a ready singleton (UnsafePublishedObject, the request's
// look-up before its context): use-after-free, re-entrancy from deinitializers and hooks,
// livelock of a clean's wait for readers, the exact-class reinterpretation, and whether
// the fast path answers what the locked path answers.

import DIContainer
import DITestSupport
import Foundation
import Synchronization
import Testing

private protocol PRService: AnyObject { var isAlive: Bool { get } }
private class PRBase {
  var isAlive: Bool { alive.load(ordering: .relaxed) }
  private let alive = Atomic<Bool>(true)
  deinit { alive.store(false, ordering: .relaxed) }
}
private final class PRSub: PRBase, PRService, @unchecked Sendable {}
private final class PRGeneric<Marker>: @unchecked Sendable {
  let marker = String(describing: Marker.self)
}
private final class PRUnrelated {}
private final class PRKeyed: @unchecked Sendable {
  let key: Int
  private let alive = Atomic<Bool>(true)
  init(key: Int) { self.key = key }
  deinit { alive.store(false, ordering: .relaxed) }
  var isAlive: Bool { alive.load(ordering: .relaxed) }
}

/// Its deinitializer resolves its own type from the container, then cleans it.
private final class PRReentrant: @unchecked Sendable {
  static let container = LockedValue<DIContainer?>(nil)
  static let depth = Atomic<Int>(0)
  static let deinits = Atomic<Int>(0)
  deinit {
    Self.deinits.add(1, ordering: .relaxed)
    guard Self.depth.add(1, ordering: .relaxed).newValue == 1 else {
      Self.depth.subtract(1, ordering: .relaxed)
      return
    }
    defer { Self.depth.subtract(1, ordering: .relaxed) }
    guard let container = Self.container.current else { return }
    let again: PRReentrant? = try? container.tryResolve()
    _ = again
    container.clean()
  }
}

/// Its deinitializer cleans the container (the reader's release may run it).
private final class PRCleansOnDeinit: @unchecked Sendable {
  static let container = LockedValue<DIContainer?>(nil)
  private let alive = Atomic<Bool>(true)
  var isAlive: Bool { alive.load(ordering: .relaxed) }
  deinit {
    alive.store(false, ordering: .relaxed)
    Self.container.current?.clean()
  }
}

/// One object two components hand out (so two cells publish the same address).
private final class PRShared: @unchecked Sendable {
  static let instance = PRShared()
}
private protocol PRSharedA: AnyObject {}
private protocol PRSharedB: AnyObject {}
extension PRShared: PRSharedA, PRSharedB {}

/// Registers a `.perApplication(.single)` probe at one site, whichever container calls it.
private func prRegisterApplicationProbe(in container: DIContainer) {
  container.register { LiveProbe() }.lifetime(.perApplication(.single))
}

@Suite(.serialized) struct PublishedReadTests {
  // MARK: - Re-entrancy

  /// A singleton's deinitializer, run by `clean()` after the cell's lock, resolves the same
  /// type (which makes and publishes a new one) and cleans again: no deadlock in the
  /// wait for readers, and the second instance is cleaned.
  @Test func aDeinitThatResolvesAndCleansInsideACleanDoesNotDeadlock() async {
    let done = await resultOnThread(10) { () -> Bool in
      let container = DIContainer()
      container.register { PRReentrant() }.lifetime(.perContainer(.single))
      PRReentrant.container.withLock { $0 = container }
      defer { PRReentrant.container.withLock { $0 = nil } }
      let before = PRReentrant.deinits.load(ordering: .relaxed)
      do { let _: PRReentrant = container.resolve() }
      container.clean()
      return PRReentrant.deinits.load(ordering: .relaxed) - before == 2
    }
    #expect(done == true, "deadlock, or the re-made instance was not cleaned")
  }

  /// An `onClean` hook resolves the same singleton (from the fast path) and cleans again,
  /// a few levels deep: no deadlock, each instance's hook runs once.
  @Test func anOnCleanHookThatResolvesAndCleansDoesNotDeadlock() async {
    let hooks = Counter()
    let done = await resultOnThread(10) { () -> Bool in
      let container = DIContainer()
      let box = LockedValue<DIContainer?>(container)
      container.register { LiveProbe() }.lifetime(.perContainer(.single))
        .onClean { _ in
          guard hooks.next() < 4, let container = box.current else { return }
          let _: LiveProbe = container.resolve()
          let _: LiveProbe = container.resolve()
          container.clean()
        }
      let _: LiveProbe = container.resolve()
      let _: LiveProbe = container.resolve()
      container.clean()
      box.withLock { $0 = nil }
      return true
    }
    #expect(done == true, "a clean from an onClean hook deadlocked")
    #expect(hooks.value == 4)
  }

  /// A factory that cleans its own container while its instance is being made: the clean
  /// finds nothing published and does not wait on itself; the instance is kept.
  @Test func aCleanFromInsideTheFactoryDoesNotDeadlock() async {
    let done = await resultOnThread(10) { () -> Bool in
      let container = DIContainer()
      let box = LockedValue<DIContainer?>(container)
      container.register { () -> LiveProbe in
        box.current?.clean()
        return LiveProbe()
      }.lifetime(.perContainer(.single))
      let first: LiveProbe = container.resolve()
      let second: LiveProbe = container.resolve()
      box.withLock { $0 = nil }
      return first === second
    }
    #expect(done == true)
  }

  /// Readers let the last reference of a cleaned singleton go, so its deinitializer, which
  /// cleans the container again, runs on a reader's thread right after its lock-free
  /// read, while another thread cleans: nothing deadlocks, no reader gets a freed object.
  @Test func aReaderReleasingTheLastReferenceRunsADeinitThatCleans() async {
    let container = DIContainer()
    container.register { PRCleansOnDeinit() }.lifetime(.perContainer(.single))
    PRCleansOnDeinit.container.withLock { $0 = container }
    defer { PRCleansOnDeinit.container.withLock { $0 = nil } }
    let rounds = TestEnvironment.rounds(20_000)
    let dead = Counter()
    let stop = Flag()
    let finished = await runThreads(3, timeout: TestEnvironment.limit(30)) { worker in
      if worker == 0 {
        while !stop.isRaised { container.clean() }
        return
      }
      for _ in 0..<rounds {
        let object: PRCleansOnDeinit = container.resolve()
        if !object.isAlive { dead.next() }
      }
      stop.raise()
    }
    stop.raise()
    #expect(finished, "deadlock between a clean and a deinitializer that cleans")
    #expect(dead.value == 0)
  }

  // MARK: - Use-after-free

  /// Short-lived threads read the singleton (each registers a request on its first
  /// read and forgets it at exit) while another thread cleans without pause: a clean's
  /// wait for readers ends, and no reader gets a freed object.
  @Test func threadsThatComeAndGoWhileCleaningNeitherHangNorReadAFreedObject() async {
    let container = DIContainer()
    container.register { LiveProbe() }.lifetime(.perContainer(.single))
    let dead = Counter()
    let stop = Flag()
    let cleans = Counter()
    let cleaner = Thread {
      while !stop.isRaised {
        container.clean()
        cleans.next()
      }
    }
    cleaner.start()
    var allFinished = true
    for _ in 0..<TestEnvironment.rounds(60, minimum: 8) {
      let finished = await runThreads(4, timeout: TestEnvironment.limit(20)) { _ in
        for _ in 0..<50 {
          let probe: LiveProbe = container.resolve()
          if !probe.isAlive { dead.next() }
        }
      }
      allFinished = allFinished && finished
      if !finished { break }
    }
    let cleansBefore = cleans.value
    let progressed = await resultOnThread(20) { () -> Bool in
      let deadline = Date().addingTimeInterval(TestEnvironment.limit(5))
      while cleans.value == cleansBefore, Date() < deadline { usleep(1000) }
      return cleans.value > cleansBefore
    }
    stop.raise()
    #expect(allFinished, "a reader thread did not finish")
    #expect(progressed == true, "the cleaner is stuck waiting for readers of exited threads")
    #expect(dead.value == 0)
  }

  /// A child container reads its parent's singleton (the parent's cell) while the parent
  /// cleans it: same object as the parent's, never a freed one.
  @Test func aChildReadsTheParentsSingletonWhileTheParentCleans() async throws {
    let parent = DIContainer()
    parent.register { LiveProbe() }.lifetime(.perContainer(.single))
    let child = DIContainer(parent: parent)
    let fromParent: LiveProbe = try parent.tryResolve()
    let fromChild: LiveProbe = try child.tryResolve()
    #expect(fromParent === fromChild)
    let dead = Counter()
    let stop = Flag()
    let rounds = TestEnvironment.rounds(20_000)
    let finished = await runThreads(3, timeout: TestEnvironment.limit(30)) { worker in
      if worker == 0 {
        while !stop.isRaised { parent.clean() }
        return
      }
      for _ in 0..<rounds {
        let probe: LiveProbe = child.resolve()
        if !probe.isAlive { dead.next() }
      }
      stop.raise()
    }
    stop.raise()
    #expect(finished)
    #expect(dead.value == 0)
  }

  /// A `.perApplication` cell is process-wide: one container's shutdown drops the object
  /// that threads reading another container's registration of the same site get.
  @Test func shuttingDownOneContainerWhileAnotherReadsTheSameProcessWideCell() async throws {
    let reader = DIContainer()
    prRegisterApplicationProbe(in: reader)
    let dead = Counter()
    let stop = Flag()
    let rounds = TestEnvironment.rounds(30_000)
    let readers = Task.detached {
      await runThreads(2, timeout: TestEnvironment.limit(30)) { _ in
        for _ in 0..<rounds {
          let probe: LiveProbe = reader.resolve()
          if !probe.isAlive { dead.next() }
          if stop.isRaised { return }
        }
      }
    }
    for _ in 0..<TestEnvironment.rounds(200, minimum: 20) {
      let other = DIContainer()
      prRegisterApplicationProbe(in: other)
      let _: LiveProbe = try other.tryResolve()
      await other.shutdown()
    }
    stop.raise()
    let finished = await readers.value
    #expect(finished)
    #expect(dead.value == 0)
  }

  /// Readers resolve while the container shuts down: each read before it is a live
  /// object, each after it fails with `containerShutDown`, and every object made is freed
  /// once the readers let go.
  @Test func shutdownRacingReadsNeverHandsOutAFreedObject() async {
    for _ in 0..<TestEnvironment.rounds(40, minimum: 5) {
      var container: DIContainer? = DIContainer()
      let ledger = ProbeLedger()
      container!.register { LiveProbe(ledger) }.lifetime(.perContainer(.single))
      let weakContainer = LockedValue<DIContainer?>(container)
      let dead = Counter()
      let wrongErrors = Counter()
      let started = Counter()
      let readers = Task.detached {
        await runThreads(2, timeout: TestEnvironment.limit(20)) { _ in
          started.next()
          guard let container = weakContainer.current else { return }
          while true {
            do throws(DIError) {
              let probe: LiveProbe = try container.tryResolve()
              if !probe.isAlive { dead.next() }
            } catch {
              if error.code != .containerShutDown { wrongErrors.next() }
              return
            }
          }
        }
      }
      while started.value < 2 { await Task.yield() }
      await container!.shutdown()
      let finished = await readers.value
      #expect(finished)
      #expect(dead.value == 0)
      #expect(wrongErrors.value == 0)
      // An instance that a request begun before the shutdown made after it is dropped at
      // once: none outlives the readers, though the container is still here.
      #expect(ledger.alive == 0, "\(ledger.alive) objects outlived the shutdown and the readers")
      weakContainer.withLock { $0 = nil }
      container = nil
      if !finished || dead.value != 0 { break }
    }
  }

  /// Registrations publish new snapshots without pause while readers ask for the
  /// singleton by its class (exact: the fast path) and by a protocol and a superclass
  /// (the fast path's cast misses, so the request goes on with the component it looked
  /// up, if its context reads the same table). Every answer is the one live object.
  @Test func newSnapshotsWhileReadersReuseTheirLookUp() async throws {
    let container = DIContainer()
    container.register(PRSub.init).as(PRService.self).as(PRBase.self).as(PRSub.self)
      .lifetime(.perContainer(.single))
    // A prototype has no cell: every request of it goes on with its look-up's component.
    container.register { PRKeyed(key: 7) }.lifetime(.prototype)
    let original: PRSub = try container.tryResolve()
    let wrong = Counter()
    let stop = Flag()
    let rounds = TestEnvironment.rounds(40_000)
    let finished = await runThreads(3, timeout: TestEnvironment.limit(60)) { worker in
      if worker == 0 {
        var registered = 0
        while !stop.isRaised && registered < 1_500 {
          container.register { PRUnrelated() }.as(PRUnrelated.self, tag: LiveProbe.self)
          registered += 1
          // Publishes the new snapshot now (and reclaims old ones).
          let _: PRSub = container.resolve()
        }
        return
      }
      for round in 0..<rounds {
        let keyed: PRKeyed = container.resolve()
        if keyed.key != 7 { wrong.next() }
        switch round % 3 {
        case 0:
          let object: any PRService = container.resolve()
          if object !== original || !object.isAlive { wrong.next() }
        case 1:
          let object: PRBase = container.resolve()
          if object !== original || !object.isAlive { wrong.next() }
        default:
          let object: PRSub = container.resolve()
          if object !== original || !object.isAlive { wrong.next() }
        }
      }
      stop.raise()
    }
    stop.raise()
    #expect(finished)
    #expect(wrong.value == 0)
  }

  /// `.multiton` cells are retired by a clean (each withdraws and waits): readers with
  /// arguments never get a freed object, and the cleans end.
  @Test func multitonCleansWhileReadersReadWithArguments() async {
    let container = DIContainer()
    container.register { PRKeyed(key: arg($0)) }.lifetime(.multiton)
    let dead = Counter()
    let stop = Flag()
    let rounds = TestEnvironment.rounds(20_000)
    let finished = await runThreads(3, timeout: TestEnvironment.limit(30)) { worker in
      if worker == 0 {
        while !stop.isRaised { container.clean() }
        return
      }
      for round in 0..<rounds {
        let probe: PRKeyed = container.resolve(arg: round % 4)
        if !probe.isAlive { dead.next() }
      }
      stop.raise()
    }
    stop.raise()
    #expect(finished)
    #expect(dead.value == 0)
  }

  /// Two cells publish one object: a clean of one waits for readers of the other's (the
  /// hazard is the address), but it still ends while they read without pause.
  @Test func aCleanEndsWhileReadersAnnounceTheSameObjectFromAnotherCell() async {
    let container = DIContainer()
    container.register { PRShared.instance as any PRSharedA }.lifetime(.perContainer(.single))
    container.register { PRShared.instance as any PRSharedB }.lifetime(.perContainer(.single))
    let stop = Flag()
    let cleans = Counter()
    let finished = await runThreads(3, timeout: TestEnvironment.limit(30)) { worker in
      if worker == 0 {
        for _ in 0..<TestEnvironment.rounds(2_000) {
          let _: any PRSharedA = container.resolve()
          container.clean()
          cleans.next()
        }
        stop.raise()
        return
      }
      while !stop.isRaised {
        let _: any PRSharedB = container.resolve()
      }
    }
    stop.raise()
    #expect(finished, "a clean waited forever on readers of the same object elsewhere")
  }

  // MARK: - The exact-class reinterpretation

  /// The published object is reinterpreted only when its class is exactly the requested
  /// type: a subclass asked for as its superclass or protocol, generic classes of
  /// different arguments, and `Optional` all give the same object as the locked path.
  @Test func theExactClassCheckTellsSubclassesGenericsAndOptionalsApart() throws {
    let container = DIContainer()
    container.register(PRSub.init).as(PRBase.self).as(PRService.self)
      .lifetime(.perContainer(.single))
    container.register { PRGeneric<Int>() }.lifetime(.perContainer(.single))
    container.register { PRGeneric<String>() }.lifetime(.perContainer(.single))
    for _ in 0..<3 {
      let base: PRBase = try container.tryResolve()
      let service: any PRService = try container.tryResolve()
      let optional: PRBase? = try container.tryResolve()
      #expect(type(of: base) == PRSub.self)
      #expect(base === service)
      #expect(optional === base)
      let ints: PRGeneric<Int> = try container.tryResolve()
      let strings: PRGeneric<String> = try container.tryResolve()
      #expect(ints.marker == "Int")
      #expect(strings.marker == "String")
      #expect(ObjectIdentifier(ints) != ObjectIdentifier(strings))
    }
    // The implementation is a service too: the same object, by exact class.
    let sub: PRSub = try container.tryResolve()
    let base: PRBase = try container.tryResolve()
    #expect(sub === base)
  }

  /// A factory that returns a subclass instance under its superclass's type: read as the
  /// superclass (the fast path's class check misses), it is the same object every time.
  @Test func aSubclassInstanceUnderItsSuperclassIsCastNotReinterpreted() throws {
    let container = DIContainer()
    container.register { PRSub() as PRBase }.lifetime(.perContainer(.single))
    let first: PRBase = try container.tryResolve()
    let second: PRBase = try container.tryResolve()
    #expect(first === second)
    #expect(type(of: second) == PRSub.self)
    // The object's class is not a service of this component: the fast path finds no
    // component for it, whatever the published object's class.
    let error = #expect(throws: DIError.self) {
      let _: PRSub = try container.tryResolve()
    }
    #expect(error?.code == .notRegistered)
  }

  // MARK: - Same answers as the locked path

  /// `tryResolve(arguments: [])`, `resolve()`, `*container` and `resolve(_:from:arguments:)`
  /// answer the same object once it is published, and the same error for a type with two
  /// candidates after one of them was read.
  @Test func everyEntryPointAnswersTheSameOnceTheObjectIsPublished() throws {
    let container = DIContainer()
    container.register { LiveProbe() }.lifetime(.perContainer(.single))
    let first: LiveProbe = container.resolve()
    let second: LiveProbe = container.resolve()
    let third: LiveProbe = try container.tryResolve(arguments: [])
    let fourth: LiveProbe = *container
    let fifth = try container.resolve(LiveProbe.self, from: nil, arguments: nil)
    #expect(first === second && second === third && third === fourth && fourth === fifth)
    container.register { LiveProbe() }.lifetime(.perContainer(.single))
    let error = #expect(throws: DIError.self) {
      let _: LiveProbe = try container.tryResolve()
    }
    #expect(error?.code == .ambiguous)
  }

  /// A child container that registers its own singleton of the parent's type reads its
  /// own, not the parent's published one (and the parent still reads its own).
  @Test func aChildsOwnRegistrationWinsOverThePublishedParentObject() throws {
    let parent = DIContainer()
    parent.register { LiveProbe() }.lifetime(.perContainer(.single))
    let fromParent: LiveProbe = parent.resolve()
    let child = DIContainer(parent: parent)
    child.register { LiveProbe() }.lifetime(.perContainer(.single))
    let fromChild: LiveProbe = child.resolve()
    let again: LiveProbe = child.resolve()
    #expect(fromChild === again)
    #expect(fromChild !== fromParent)
    let parentAgain: LiveProbe = parent.resolve()
    #expect(parentAgain === fromParent)
  }

  /// A `.weak` singleton is not published: once the caller lets it go, the fast path does
  /// not resurrect it, and a reader holding it keeps getting the same one.
  @Test func aWeakSingletonIsReadUnderTheLockOnly() throws {
    let container = DIContainer()
    container.register { LiveProbe() }.lifetime(.perContainer(.weak))
    weak var gone: LiveProbe?
    var firstID = 0
    do {
      let probe: LiveProbe = container.resolve()
      let again: LiveProbe = container.resolve()
      #expect(probe === again)
      firstID = probe.id
      gone = probe
    }
    #expect(gone == nil)
    let next: LiveProbe = container.resolve()
    #expect(next.id != firstID)
  }
}
