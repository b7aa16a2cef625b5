import DIContainer
import DITestSupport
import Dispatch
import Foundation
import Synchronization
import Testing

// A cached object read as a protocol or a superclass (the lock-free read, then
// a checked cast), modifier values returned by identity, shutdown retiring the container's
// own cells.

// MARK: - Fixtures

private protocol RVAny { var probe: LiveProbe { get } }  // not class-constrained
private protocol RVClassBound: AnyObject { var probe: LiveProbe { get } }
private protocol RVQ { func q() -> Int }
private protocol RVR { func r() -> Int }
private protocol RVS { func s() -> Int }
private protocol RVT { func t() -> Int }
private class RVBase: @unchecked Sendable {
  let probe: LiveProbe
  init(probe: LiveProbe) { self.probe = probe }
}
private class RVMiddle: RVBase, @unchecked Sendable {}
private final class RVImpl: RVMiddle, RVAny, RVClassBound, RVQ, RVR, RVS, RVT,
  @unchecked Sendable
{
  func q() -> Int { 1 }
  func r() -> Int { 2 }
  func s() -> Int { 3 }
  func t() -> Int { 4 }
}

private class RVGenericBase<Value>: @unchecked Sendable {
  let probe: LiveProbe
  init(probe: LiveProbe) { self.probe = probe }
}
private final class RVGeneric<Value>: RVGenericBase<Value>, RVAny, @unchecked Sendable {}

/// A protocol that a main-actor class conforms to with an isolated conformance: a plain
/// `as? any RVIsolated` off the main actor fails (SE-0470).
private protocol RVIsolated { func ping() -> Int }
@MainActor private final class RVMainOnly {
  nonisolated init() {}
}
extension RVMainOnly: @MainActor RVIsolated {
  func ping() -> Int { 7 }
}

/// Every way a request asks for one `RVImpl`, checked against the exact object and a
/// plain cast. Returns a description of the first mismatch, or nil.
private func rvCheckAllServices(_ resolver: DIContainer, pick: Int) -> String? {
  do {
    let exact: RVImpl = try resolver.tryResolve()
    switch pick % 10 {
    case 0:
      let v: any RVAny = try resolver.tryResolve()
      guard (v as AnyObject) === exact, (exact as Any) is any RVAny else { return "RVAny" }
      guard v.probe.isAlive else { return "RVAny dead" }
    case 1:
      let v: any RVClassBound = try resolver.tryResolve()
      guard v === exact, v.probe.isAlive else { return "RVClassBound" }
    case 2:
      let v: any RVQ & RVR & RVS & RVT = try resolver.tryResolve()
      guard (v as AnyObject) === exact, v.q() == 1, v.r() == 2, v.s() == 3, v.t() == 4
      else { return "composition" }
    case 3:
      let v: RVBase = try resolver.tryResolve()
      guard v === exact, v.probe.isAlive else { return "RVBase" }
    case 4:
      let v: RVMiddle = try resolver.tryResolve()
      guard v === exact else { return "RVMiddle" }
    case 5:
      let v: AnyObject = try resolver.tryResolve()
      guard v === exact else { return "AnyObject" }
    case 6:
      let v: Any = try resolver.tryResolve()
      guard (v as AnyObject) === exact, v is RVImpl else { return "Any" }
    case 7:
      let v: any RVClassBound & RVQ = try resolver.tryResolve()
      guard v === exact, v.q() == 1 else { return "class-bound composition" }
    case 8:
      let v: any RVBase & RVQ = try resolver.tryResolve()
      guard v === exact, v.q() == 1 else { return "superclass composition" }
    default:
      let v: any RVT = try resolver.tryResolve()
      guard (v as AnyObject) === exact, v.t() == 4 else { return "RVT" }
    }
    return nil
  } catch {
    return "failed: \(error)"
  }
}

private func rvRegisterImpl(
  _ container: DIContainer, ledger: ProbeLedger, lifetime: DILifetime,
  onClean: (@Sendable (RVImpl) -> Void)? = nil
) {
  let builder = container.register { RVImpl(probe: LiveProbe(ledger)) }
    .as(RVAny.self).as(RVClassBound.self).as((any RVQ & RVR & RVS & RVT).self)
    .as(RVBase.self).as(RVMiddle.self).as(AnyObject.self).as(Any.self)
    .as((any RVClassBound & RVQ).self).as((any RVBase & RVQ).self).as(RVT.self)
    .lifetime(lifetime)
  if let onClean { builder.onClean { onClean($0) } }
}

/// Registers a `.perApplication` component at one file and line, so every container that
/// calls it shares its process-wide cell.
private func rvRegisterShared(_ container: DIContainer, ledger: ProbeLedger) {
  container.register { RVGeneric<Int8>(probe: LiveProbe(ledger)) }
    .as(RVAny.self).as(RVGenericBase<Int8>.self)
    .lifetime(.perApplication(.single))
}

/// Whether `a` and `b` are the same object (outside `#expect`, whose thunks for
/// `AnyObject` conversions crash this compiler).
private func rvSame(_ a: Any, _ b: Any) -> Bool {
  ObjectIdentifier(a as AnyObject) == ObjectIdentifier(b as AnyObject)
}

// MARK: - A cached object as its services

@Suite struct CachedObjectCastTests {
  /// Every service type of one singleton is the exact object, repeatedly.
  @Test func everyServiceTypeIsTheExactObject() throws {
    let ledger = ProbeLedger()
    let container = DIContainer()
    rvRegisterImpl(container, ledger: ledger, lifetime: .perContainer(.single))
    for round in 0..<40 {
      #expect(rvCheckAllServices(container, pick: round) == nil)
    }
    #expect(ledger.made.load(ordering: .relaxed) == 1)
    container.clean()
    #expect(ledger.alive == 0, "something kept the object after clean")
  }

  /// Generic classes: `RVGenericBase<Int8>` must not answer a request for
  /// `RVGenericBase<UInt8>` (different metadata), which is not a service.
  @Test func genericSuperclassesAreKeptApart() throws {
    let ledger = ProbeLedger()
    let container = DIContainer()
    container.register { RVGeneric<Int8>(probe: LiveProbe(ledger)) }
      .as(RVAny.self).as(RVGenericBase<Int8>.self)
      .lifetime(.perContainer(.single))
    let exact: RVGeneric<Int8> = try container.tryResolve()
    let exactID = ObjectIdentifier(exact)
    for _ in 0..<3 {
      let base: RVGenericBase<Int8> = try container.tryResolve()
      let service: any RVAny = try container.tryResolve()
      let baseID = ObjectIdentifier(base)
      let serviceID = ObjectIdentifier(service as AnyObject)
      #expect(baseID == exactID)
      #expect(serviceID == exactID)
    }
    #expect(throws: DIError.self) { let _: RVGenericBase<UInt8> = try container.tryResolve() }
  }

  /// Clean and re-make again and again: the allocator reuses the freed object's address
  /// (ABA on ObjectIdentifier). A protocol read must always be the current object.
  @Test func reMadeInstancesAtTheSameAddressAreNeverServedAnOldOne() throws {
    let ledger = ProbeLedger()
    let container = DIContainer()
    rvRegisterImpl(container, ledger: ledger, lifetime: .perContainer(.single))
    var sameAddress = 0
    var lastAddress: ObjectIdentifier?
    for round in 0..<2_000 {
      do {
        let exact: RVImpl = try container.tryResolve()
        if lastAddress == ObjectIdentifier(exact) { sameAddress += 1 }
        lastAddress = ObjectIdentifier(exact)
        let service: any RVAny = try container.tryResolve()
        let base: RVBase = try container.tryResolve()
        #expect(rvSame(service, exact) && base === exact && service.probe.isAlive)
        if let mismatch = rvCheckAllServices(container, pick: round) {
          Issue.record("round \(round): \(mismatch)")
          break
        }
      }
      container.clean()
    }
    #expect(ledger.alive == 0, "\(ledger.alive) objects outlived the cleans")
  }

  /// Many threads ask for many service types of one singleton while another cleans it.
  @Test func manyThreadsManyServiceTypesWhileCleaning() async {
    let ledger = ProbeLedger()
    let container = DIContainer()
    rvRegisterImpl(container, ledger: ledger, lifetime: .perContainer(.single))
    let rounds = TestEnvironment.rounds(6_000)
    let failures = LockedValue<[String]>([])
    let stop = Flag()
    let readersDone = Counter()
    let finished = await runThreads(4, timeout: TestEnvironment.limit(60)) { worker in
      if worker == 0 {
        repeat {
          container.clean()
          Thread.sleep(forTimeInterval: 0.0001)
        } while !stop.isRaised
        return
      }
      for round in 0..<rounds {
        // Under a concurrent clean, the exact object and the service may differ: check
        // only that the service is alive and conforms.
        do {
          let v: any RVQ & RVR & RVS & RVT = try container.tryResolve()
          let b: RVBase = try container.tryResolve()
          let a: Any = try container.tryResolve()
          let o: any RVClassBound = try container.tryResolve()
          if v.q() != 1 || v.t() != 4 || !b.probe.isAlive || !(a is RVImpl)
            || !o.probe.isAlive || round < 0
          {
            failures.withLock { $0.append("bad value") }
          }
        } catch {
          failures.withLock { $0.append("\(error)") }
        }
      }
      if readersDone.next() == 3 { stop.raise() }
    }
    stop.raise()
    #expect(finished, "deadlock?")
    guard finished else { return }
    #expect(failures.current.isEmpty, "\(failures.current.prefix(3))")
    // Quiet now: every type is the exact object.
    for round in 0..<20 { #expect(rvCheckAllServices(container, pick: round) == nil) }
    container.clean()
    #expect(ledger.alive == 0, "\(ledger.alive) objects outlived the last clean")
  }

  /// Reads of a `.perContainer(.weak)` object as its services must not keep it alive.
  @Test func aWeakInstanceReadAsAProtocolIsNotKeptAlive() throws {
    let ledger = ProbeLedger()
    let container = DIContainer()
    rvRegisterImpl(container, ledger: ledger, lifetime: .perContainer(.weak))
    weak var weakObject: RVImpl?
    do {
      let exact: RVImpl = try container.tryResolve()
      weakObject = exact
      for round in 0..<20 { #expect(rvCheckAllServices(container, pick: round) == nil) }
      let again: any RVAny = try container.tryResolve()
      #expect(rvSame(again, exact))
    }
    #expect(weakObject == nil, "a weak instance was kept alive")
    #expect(ledger.alive == 0)
  }

  /// Shutdown frees an object read as its services.
  @Test func shutdownFreesAnObjectReadAsItsServices() async throws {
    let ledger = ProbeLedger()
    let container = DIContainer()
    rvRegisterImpl(container, ledger: ledger, lifetime: .perContainer(.single))
    for round in 0..<20 { #expect(rvCheckAllServices(container, pick: round) == nil) }
    #expect(ledger.alive == 1)
    await container.shutdown()
    #expect(ledger.alive == 0, "the object outlived shutdown")
  }

  /// A child reads its parent's singleton as a protocol: the parent's clean drops it; the
  /// child's clean keeps the parent's instance.
  @Test func childReadsOfAParentsSingletonGoWithTheParentsClean() throws {
    let ledger = ProbeLedger()
    let parent = DIContainer()
    rvRegisterImpl(parent, ledger: ledger, lifetime: .perContainer(.single))
    let child = DIContainer(parent: parent)
    let first: any RVAny = try child.tryResolve()
    let exact: RVImpl = try parent.tryResolve()
    #expect(rvSame(first, exact))
    for round in 0..<20 { #expect(rvCheckAllServices(child, pick: round) == nil) }
    child.clean()
    let again: RVBase = try child.tryResolve()
    #expect(again === exact, "a child's clean dropped its parent's instance")
    _ = consume again
    _ = consume first
    _ = consume exact
    parent.clean()
    #expect(ledger.alive == 0, "the parent's instance outlived the parent's clean")
  }

  /// Two containers share a process-wide cell (`clean()` leaves it): one's shutdown leaves
  /// the instance the other still hands out, cast as each asks; the last one's shutdown
  /// drops it.
  @Test func processWideCellsSharedByTwoContainers() async throws {
    let ledger = ProbeLedger()
    let a = DIContainer()
    let b = DIContainer()
    rvRegisterShared(a, ledger: ledger)
    rvRegisterShared(b, ledger: ledger)
    do {
      let fromA: any RVAny = try a.tryResolve()
      let fromA2: RVGenericBase<Int8> = try a.tryResolve()
      let fromB: RVGeneric<Int8> = try b.tryResolve()
      #expect(rvSame(fromA, fromB) && fromA2 === fromB, "one process-wide object")
    }
    await b.shutdown()
    #expect(ledger.alive == 1, "B's shutdown dropped the object A still hands out")
    do {
      let one: any RVAny = try a.tryResolve()
      let two: any RVAny = try a.tryResolve()
      let three: RVGenericBase<Int8> = try a.tryResolve()
      #expect(rvSame(one, two) && rvSame(three, one), "A's reads disagree after B's shutdown")
    }
    await a.shutdown()
    #expect(ledger.alive == 0, "the last container's shutdown left the object")
  }

  /// A hook that resolves the service during the clean, and a deinitializer that does:
  /// no deadlock, and the hook's request gets a new, live object.
  @Test func aHookOrDeinitThatResolvesTheServiceDuringAClean() async {
    let ledger = ProbeLedger()
    let container = DIContainer()
    let seen = LockedValue<[Bool]>([])
    rvRegisterImpl(container, ledger: ledger, lifetime: .perContainer(.single)) { old in
      let new: (any RVAny)? = try? container.tryResolve()
      let base: RVBase? = try? container.tryResolve()
      guard let new, let base else { return seen.withLock { $0.append(false) } }
      seen.withLock {
        $0.append((new as AnyObject) !== old && base === (new as AnyObject) && new.probe.isAlive)
      }
    }
    let done = await resultOnThread(20) { () -> Bool in
      for round in 0..<50 {
        _ = rvCheckAllServices(container, pick: round)
        container.clean()
      }
      return true
    }
    #expect(done == true, "a clean whose hook resolves the service hung")
    #expect(seen.current.count >= 50 && seen.current.allSatisfy { $0 })
    container.clean()
  }

  /// A value kept by a lifetime and asked for as its protocol is the same value.
  @Test func aValueKeptByALifetimeAskedForAsAProtocol() throws {
    let container = DIContainer()
    let made = Atomic<Int>(0)
    container.register { RVValue(id: made.add(1, ordering: .relaxed).newValue) }
      .as(RVValueService.self).as(Any.self)
      .lifetime(.perContainer(.single))
    let a: any RVValueService = try container.tryResolve()
    let b: any RVValueService = try container.tryResolve()
    let c: Any = try container.tryResolve()
    #expect(a.id == b.id && (c as? RVValue)?.id == a.id && made.load(ordering: .relaxed) == 1)
  }

  /// An object whose class conforms with a main-actor-isolated conformance: a plain
  /// `as? any RVIsolated` fails off the main actor. After a request on the main actor, a
  /// request from another thread must still fail as the cast would (a cache of the first
  /// cast would hand an isolated conformance to another thread).
  @MainActor @Test func anIsolatedConformanceIsNotServedOffItsActor() async throws {
    let container = DIContainer()
    container.register { RVMainOnly() }.as(RVIsolated.self).lifetime(.perContainer(.single))
    // What the plain cast gives off the main actor.
    let plainOffMain = await resultOnThread { () -> Bool in
      let object: RVMainOnly? = try? container.tryResolve()
      return ((object as Any) as? any RVIsolated) != nil
    }
    #expect(plainOffMain == false, "premise: the plain cast fails off the main actor")
    let beforeMain = await resultOnThread { () -> Bool in
      let service: (any RVIsolated)? = try? container.tryResolve() as any RVIsolated
      return service != nil
    }
    #expect(beforeMain == false, "the request fails off the main actor")
    // On the main actor: the cast holds.
    let onMain: any RVIsolated = try container.tryResolve()
    #expect(onMain.ping() == 7)
    let afterMain = await resultOnThread { () -> Bool in
      let service: (any RVIsolated)? = try? container.tryResolve() as any RVIsolated
      return service != nil
    }
    #expect(
      afterMain == plainOffMain,
      "off the main actor the request answered \(String(describing: afterMain)) but `as?` gives \(String(describing: plainOffMain))"
    )
  }
}

private protocol RVValueService { var id: Int { get } }
private struct RVValue: RVValueService { let id: Int }

// MARK: - Modifiers returned by identity

private protocol RVModService: AnyObject {}
private final class RVModImpl: RVModService, @unchecked Sendable {}
private enum RVTag {}
private final class RVMissing {}

@Suite struct ModifierIdentityTests {
  @Test func optionalsNestedOptionalsAndOptionalProtocols() throws {
    let container = DIContainer()
    container.register { 5 }
    container.register { RVModImpl() }.as(RVModService.self).lifetime(.perContainer(.single))
    let one: Int? = try container.tryResolve()
    let two: Int?? = try container.tryResolve()
    let three: Int??? = try container.tryResolve()
    #expect(one == 5)
    #expect(two == .some(.some(5)))
    #expect(three == .some(.some(.some(5))))
    let missing: RVMissing? = try container.tryResolve()
    #expect(missing == nil)
    let missing2: RVMissing?? = try container.tryResolve()
    #expect((missing2 ?? nil) == nil)
    let exact: RVModImpl = try container.tryResolve()
    let service: (any RVModService)? = try container.tryResolve()
    #expect(service === exact)
    let service2: (any RVModService)?? = try container.tryResolve()
    #expect((service2 ?? nil) === exact)
  }

  @Test func lazyProviderManyAndTags() throws {
    let container = DIContainer()
    container.register { RVModImpl() }.as(RVModService.self).lifetime(.perContainer(.single))
    container.register { 41 }.as(Int.self, tag: RVTag.self)
    container.register { 1 }
    container.register { 2 }
    let exact: RVModImpl = try container.tryResolve()
    let lazy: Lazy<any RVModService> = try container.tryResolve()
    #expect(try lazy.tryValue() === exact)
    let provider: Provider<any RVModService> = try container.tryResolve()
    #expect(try provider.tryValue() === exact)
    let optionalLazy: Lazy<any RVModService>? = try container.tryResolve()
    #expect(try optionalLazy?.tryValue() === exact)
    let tagged: Int = by(tag: RVTag.self, on: try container.tryResolve())
    #expect(tagged == 41)
    let all: [Int] = many(try container.tryResolve())
    #expect(all.contains(1) && all.contains(2))
    let services: [any RVModService] = many(try container.tryResolve())
    #expect(services.count == 1 && services.first === exact)
    let optionalTagged: DIByTag<RVTag, Int>? = try container.tryResolve()
    #expect(optionalTagged?.value == 41)
  }

  @Test func failuresStillSayWhatIsMissing() throws {
    let container = DIContainer()
    let lazyError = #expect(throws: DIError.self) {
      let lazy: Lazy<RVMissing> = try container.tryResolve()
      _ = try lazy.tryValue()
    }
    #expect(
      lazyError?.description.contains("RVMissing") == true, "\(String(describing: lazyError))")
    let providerError = #expect(throws: DIError.self) {
      let provider: Provider<RVMissing> = try container.tryResolve()
      _ = try provider.tryValue()
    }
    #expect(providerError?.description.contains("RVMissing") == true)
    let tagError = #expect(throws: DIError.self) {
      let _: DIByTag<RVTag, RVMissing> = try container.tryResolve()
    }
    #expect(tagError?.description.contains("RVMissing") == true)
    #expect(tagError?.code == .notRegistered, "\(String(describing: tagError?.code))")
  }
}

// MARK: - Shutdown retiring the container's own cells

private final class RVClosable: Sendable {
  let closes = Atomic<Int>(0)
}
private final class RVGate: Sendable {
  init(entered: DispatchSemaphore, release: DispatchSemaphore) {
    entered.signal()
    release.wait()
  }
}
private final class RVOuter: Sendable {
  let closable: RVClosable
  init(gate: RVGate, closable: RVClosable) { self.closable = closable }
}

@Suite struct ShutdownRetireTests {
  /// Runs a request for `RVOuter` (prototype: a gate, then an `RVClosable` of `lifetime`)
  /// that looks the `RVClosable` up only after `container.shutdown()` returned.
  private func inFlight(_ lifetime: DILifetime) async -> (RVClosable?, Int)? {
    let container = DIContainer()
    let entered = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    container.register { RVGate(entered: entered, release: release) }
    container.register { RVClosable() }.lifetime(lifetime)
      .onClean { $0.closes.add(1, ordering: .relaxed) }
    container.register(RVOuter.init)
    let made = LockedValue<RVClosable?>(nil)
    let ended = DispatchSemaphore(value: 0)
    let thread = Thread {
      let outer: RVOuter? = try? container.tryResolve()
      made.withLock { $0 = outer?.closable }
      ended.signal()
    }
    thread.start()
    guard await waitForSignals(of: entered, count: 1, until: hangDeadline(in: 10)) else {
      release.signal()
      Issue.record("the gate never ran")
      return nil
    }
    await container.shutdown()
    release.signal()
    guard await waitForSignals(of: ended, count: 1, until: hangDeadline(in: 10)) else {
      Issue.record("the request under way never ended")
      return nil
    }
    let closable = made.current
    return (closable, closable?.closes.load(ordering: .relaxed) ?? -1)
  }

  @Test func perContainerMadeAfterShutdownHasItsHookRunOnce() async {
    guard let (closable, closes) = await inFlight(.perContainer(.single)) else { return }
    #expect(closable != nil)
    #expect(closes == 1)
  }

  @Test func perFrameworkAndPerPartMadeAfterShutdownHaveTheirHookRunOnce() async {
    for lifetime in [DILifetime.perFramework(.single), .perPart(.single)] {
      guard let (closable, closes) = await inFlight(lifetime) else { return }
      #expect(closable != nil, "\(lifetime)")
      #expect(closes == 1, "\(lifetime): hook ran \(closes) times")
    }
  }

  /// `.multiton`: shutdown retires the cells it finds but not the multiton's map, so a
  /// request under way that looks its cell up afterwards makes a new cell that keeps the
  /// instance where nothing will clean it: its hook never runs.
  @Test func multitonMadeAfterShutdownHasItsHookRunOnce() async {
    guard let (closable, closes) = await inFlight(.multiton) else { return }
    #expect(closable != nil)
    #expect(closes == 1, "a multiton instance made after shutdown: hook ran \(closes) times")
  }

  /// A child's shutdown must not retire its parent's cells.
  @Test func aChildsShutdownLeavesItsParentsCells() async throws {
    let parent = DIContainer()
    parent.register { RVClosable() }.lifetime(.perContainer(.single))
      .onClean { $0.closes.add(1, ordering: .relaxed) }
    let child = DIContainer(parent: parent)
    let fromChild: RVClosable = try child.tryResolve()
    await child.shutdown()
    let one: RVClosable = try parent.tryResolve()
    let two: RVClosable = try parent.tryResolve()
    #expect(one === fromChild && two === one, "the parent still keeps its instance")
    #expect(one.closes.load(ordering: .relaxed) == 0, "a child's shutdown closed the parent's")
    parent.clean()
    #expect(one.closes.load(ordering: .relaxed) == 1)
    let three: RVClosable = try parent.tryResolve()
    #expect(three !== one, "the parent's cell still caches after a clean")
    let four: RVClosable = try parent.tryResolve()
    #expect(three === four, "the parent's cell was retired")
  }

  /// Requests race shutdown: every instance of the container's own lifetimes that any
  /// request got has its hook run exactly once, and the container keeps none.
  @Test func requestsRacingShutdownRunEveryHookExactlyOnce() async {
    for lifetime in [DILifetime.perContainer(.single), .perFramework(.single), .perPart(.single)] {
      for _ in 0..<TestEnvironment.rounds(30, minimum: 5) {
        let container = DIContainer()
        let all = LockedValue<[ObjectIdentifier: RVClosable]>([:])
        container.register { () -> RVClosable in
          let made = RVClosable()
          all.withLock { $0[ObjectIdentifier(made)] = made }
          return made
        }
        .lifetime(lifetime)
        .onClean { $0.closes.add(1, ordering: .relaxed) }
        let go = Flag()
        let finished = await runThreads(3, timeout: TestEnvironment.limit(30)) { worker in
          if worker == 0 {
            let done = DispatchSemaphore(value: 0)
            Task.detached {
              await container.shutdown()
              go.raise()
              done.signal()
            }
            done.wait()
            return
          }
          for _ in 0..<200 {
            let _: RVClosable? = try? container.tryResolve()
            if go.isRaised { break }
          }
        }
        #expect(finished, "deadlock racing shutdown")
        guard finished else { return }
        let counts = all.current.values.map { $0.closes.load(ordering: .relaxed) }
        #expect(counts.allSatisfy { $0 == 1 }, "\(lifetime): hook counts \(counts)")
      }
    }
  }
}
