import DIContainer
import DITestSupport
import Synchronization
import Testing

private protocol PIService: AnyObject {}
private class PIBase {}
private final class PIImplementation: PIBase, PIService {}
private final class PIHolder {
  let first: PIImplementation
  let second: PIImplementation
  init(first: PIImplementation, second: PIImplementation) {
    self.first = first
    self.second = second
  }
}
private struct PIValue { let id: Int }

/// A ready object kept strongly by a cell is read without the cell's lock (a hazard
/// pointer per thread): these tests hold that read to what the locked one promised.
@Suite(.serialized) struct PublishedInstanceTests {
  /// Threads resolve a `.perContainer(.single)` while another cleans it again and again:
  /// every object handed out is alive when its reader uses it, and once the last clean
  /// ran and the readers let go, every object the factory made is freed (no read keeps
  /// one, and no clean frees one a reader holds).
  @Test func cleaningWhileThreadsReadFreesEveryObjectAndNoReaderGetsAFreedOne() async {
    let container = DIContainer()
    let ledger = ProbeLedger()
    container.register { LiveProbe(ledger) }.lifetime(.perContainer(.single))
    let rounds = TestEnvironment.rounds(30_000)
    let readersDone = Counter()
    let stop = Flag()
    let dead = Counter()
    let cleans = Counter()
    let finished = await runThreads(4, timeout: TestEnvironment.limit(30)) { worker in
      if worker == 0 {
        repeat {
          container.clean()
          cleans.next()
        } while !stop.isRaised
        return
      }
      for _ in 0..<rounds {
        let probe: LiveProbe = container.resolve()
        if !probe.isAlive { dead.next() }
      }
      if readersDone.next() == 3 { stop.raise() }
    }
    stop.raise()
    #expect(finished, "reading while cleaning did not finish: deadlock?")
    guard finished else { return }
    container.clean()
    let made = ledger.made.load(ordering: .relaxed)
    let freed = ledger.freed.load(ordering: .relaxed)
    #expect(dead.value == 0, "\(dead.value) reads returned an object already freed")
    #expect(cleans.value >= 1)
    #expect(made >= 1)
    #expect(freed == made, "\(made - freed) of \(made) cleaned objects are still alive")
  }

  /// The object a resolve returned, let go and cleaned, is freed: the lock-free read keeps
  /// no reference of its own.
  @Test func aCleanedSingletonIsFreedOnceTheCallerLetsGo() {
    let container = DIContainer()
    container.register { LiveProbe() }.lifetime(.perContainer(.single))
    weak var first: LiveProbe?
    do {
      let probe: LiveProbe = container.resolve()
      let again: LiveProbe = container.resolve()
      #expect(probe === again)
      first = probe
    }
    #expect(first != nil, "the container keeps its singleton")
    container.clean()
    #expect(first == nil, "a cleaned singleton outlived its clean")
    let next: LiveProbe = container.resolve()
    #expect(next.id != 0)
  }

  /// A service (a protocol or a superclass) of a published object is not its exact class:
  /// it is cast, and it is the same object as the implementation's own request returns.
  @Test func aServiceOfAPublishedObjectIsTheSameObject() throws {
    let container = DIContainer()
    container.register(PIImplementation.init)
      .as(PIService.self).as(PIBase.self).as(PIImplementation.self)
      .lifetime(.perContainer(.single))
    let implementation: PIImplementation = try container.tryResolve()
    let service: any PIService = try container.tryResolve()
    let base: PIBase = try container.tryResolve()
    #expect(service === implementation)
    #expect(base === implementation)
    let again: PIImplementation = try container.tryResolve()
    #expect(again === implementation)
  }

  /// A singleton asked for from inside a factory (a nested resolution) is the object the
  /// top-level request gets.
  @Test func aNestedRequestReadsThePublishedObject() throws {
    let container = DIContainer()
    container.register(PIImplementation.init).lifetime(.perContainer(.single))
    container.register(PIHolder.init)
    let top: PIImplementation = try container.tryResolve()
    let holder: PIHolder = try container.tryResolve()
    #expect(holder.first === top)
    #expect(holder.second === top)
  }

  /// A value kept by a lifetime is not an object to publish: it is still kept once.
  @Test func aCachedValueIsStillMadeOnce() throws {
    let made = Atomic<Int>(0)
    let container = DIContainer()
    container.register { PIValue(id: made.add(1, ordering: .relaxed).newValue) }
      .lifetime(.perContainer(.single))
    let first: PIValue = try container.tryResolve()
    let second: PIValue = try container.tryResolve()
    #expect(first.id == second.id)
    #expect(made.load(ordering: .relaxed) == 1)
  }

  /// A `.weak` lifetime's object is held weakly, never published: once its users let it
  /// go, the next request makes another.
  @Test func aWeakObjectIsNotKeptByThePublishedRead() throws {
    let container = DIContainer()
    container.register { LiveProbe() }.lifetime(.perContainer(.weak))
    weak var first: LiveProbe?
    var firstID = 0
    do {
      let probe: LiveProbe = try container.tryResolve()
      firstID = probe.id
      first = probe
      let again: LiveProbe = try container.tryResolve()
      #expect(again === probe)
    }
    #expect(first == nil)
    let next: LiveProbe = try container.tryResolve()
    #expect(next.id != firstID)
  }

  /// A registration after the first resolve publishes a new snapshot: a later request
  /// reads the new one (here, the same singleton's component, and a second candidate
  /// that makes the plain request ambiguous).
  @Test func aLaterRegistrationIsSeenByTheNextRequest() throws {
    let container = DIContainer()
    container.register(PIImplementation.init).as(PIService.self)
      .lifetime(.perContainer(.single))
    let first: any PIService = try container.tryResolve()
    container.register(PIImplementation.init).as(PIService.self)
      .lifetime(.perContainer(.single))
    let error = #expect(throws: DIError.self) {
      let _: any PIService = try container.tryResolve()
    }
    #expect(error?.code == .ambiguous)
    _ = first
  }

  /// A shut-down container's published objects are withdrawn: a request fails instead of
  /// returning one.
  @Test func aShutDownContainerHandsOutNoPublishedObject() async throws {
    let container = DIContainer()
    container.register { LiveProbe() }.lifetime(.perContainer(.single))
    weak var first: LiveProbe?
    do {
      let probe: LiveProbe = try container.tryResolve()
      first = probe
    }
    await container.shutdown()
    #expect(first == nil)
    let error = #expect(throws: DIError.self) {
      let _: LiveProbe = try container.tryResolve()
    }
    #expect(error?.code == .containerShutDown)
  }
}
