import DIContainer
import DITestSupport
import Synchronization
import Testing

private protocol SVService: AnyObject { var probe: LiveProbe { get } }
private class SVBase: @unchecked Sendable {}
private final class SVImplementation: SVBase, SVService, @unchecked Sendable {
  let probe: LiveProbe
  init(probe: LiveProbe) { self.probe = probe }
}
private final class SVHandler {
  let service: any SVService
  init(service: any SVService) { self.service = service }
}
private protocol SVValueService { var id: Int { get } }
private struct SVValue: SVValueService { let id: Int }

/// A container with an `SVImplementation` singleton registered as `SVService`, and as
/// `SVBase` too when `services` says so.
private func svSingletonContainer(_ ledger: ProbeLedger, services: Bool) -> DIContainer {
  let container = DIContainer()
  let builder = container.register { SVImplementation(probe: LiveProbe(ledger)) }
    .as(SVService.self)
    .lifetime(.perContainer(.single))
  if services { builder.as(SVBase.self) }
  return container
}

/// A cached object asked for as a protocol or a superclass, from the lock-free read of its
/// cell: the cast gives the one object, a clean drops it, and nothing keeps it after.
@Suite struct ProtocolServiceTests {
  /// Asked for again and again as its protocol and its superclass, through the top-level
  /// form and as a dependency, the singleton is the one object; after a clean, the next
  /// request gets the new instance.
  @Test func aServiceIsTheSingletonAndGoesWithIt() throws {
    let ledger = ProbeLedger()
    let container = svSingletonContainer(ledger, services: true)
    container.register(SVHandler.init)
    let first: SVImplementation = try container.tryResolve()
    for _ in 0..<3 {
      let service: any SVService = container.resolve()
      let base: SVBase = try container.tryResolve()
      let handler: SVHandler = try container.tryResolve()
      #expect(service === first)
      #expect(base === first)
      #expect(handler.service === first)
    }
    container.clean()
    let service: any SVService = container.resolve()
    #expect(service !== first, "a clean dropped the instance")
    let handler: SVHandler = try container.tryResolve()
    #expect(handler.service === service)
  }

  /// Asked for as its services, the object is held by nothing but its cell: once a clean
  /// dropped it and the callers let go, it is freed.
  @Test func aCleanFreesAnObjectAskedForAsItsServices() throws {
    let ledger = ProbeLedger()
    let container = svSingletonContainer(ledger, services: true)
    do {
      let service: any SVService = try container.tryResolve()
      let again: any SVService = try container.tryResolve()
      let base: SVBase = try container.tryResolve()
      #expect(service === again && again === base)
    }
    #expect(ledger.alive == 1)
    container.clean()
    #expect(ledger.alive == 0, "the object outlived the clean")
  }

  /// A value kept by a lifetime and asked for as its protocol is the one value.
  @Test func aValueSingletonAskedForAsItsProtocolIsTheSameValue() throws {
    let made = Atomic<Int>(0)
    let container = DIContainer()
    container.register { SVValue(id: made.add(1, ordering: .relaxed).newValue) }
      .as(SVValueService.self)
      .lifetime(.perContainer(.single))
    let first: any SVValueService = try container.tryResolve()
    let second: any SVValueService = try container.tryResolve()
    #expect(first.id == second.id)
    #expect(made.load(ordering: .relaxed) == 1)
  }

  /// Threads ask for the singleton as its protocol while another cleans it: every answer
  /// is a live object, and once all let go every object made is freed.
  @Test func cleaningWhileThreadsReadAServiceFreesEveryObject() async {
    let ledger = ProbeLedger()
    let container = svSingletonContainer(ledger, services: false)
    let rounds = TestEnvironment.rounds(20_000)
    let readersDone = Counter()
    let stop = Flag()
    let dead = Counter()
    let finished = await runThreads(4, timeout: TestEnvironment.limit(30)) { worker in
      if worker == 0 {
        repeat { container.clean() } while !stop.isRaised
        return
      }
      for _ in 0..<rounds {
        let service: any SVService = container.resolve()
        if !service.probe.isAlive { dead.next() }
      }
      if readersDone.next() == 3 { stop.raise() }
    }
    stop.raise()
    #expect(finished, "reading while cleaning did not finish: deadlock?")
    guard finished else { return }
    container.clean()
    #expect(dead.value == 0, "\(dead.value) reads returned a freed object")
    #expect(ledger.made.load(ordering: .relaxed) >= 1)
    #expect(ledger.alive == 0, "\(ledger.alive) objects outlived the clean")
  }
}
