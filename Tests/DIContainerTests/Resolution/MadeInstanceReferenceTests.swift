import DIContainer
import DITestSupport
import Foundation
import Testing

// Made instances: a synchronous factory's class instance reaches a
// request for its exact class moved out of an `AnyObject`, with no copy. Every object
// here counts its making and its deinit in a ledger, so an over-release (a deinit while
// the object is still held, or twice) or a leak (no deinit once nobody holds it) fails.

/// A list of values recorded under a lock (by hooks, which are `@Sendable`).
private final class PRList<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private var values: [Value] = []
  func add(_ value: Value) { lock.withLock { values.append(value) } }
  var all: [Value] { lock.withLock { values } }
}

/// A switch a factory reads.
private final class PRSwitch: @unchecked Sendable {
  private let lock = NSLock()
  private var on: Bool
  init(_ on: Bool) { self.on = on }
  var isOn: Bool {
    get { lock.withLock { on } }
    set { lock.withLock { on = newValue } }
  }
}

private protocol PRClassBound: AnyObject {
  var serial: Int { get }
}

private protocol PRAnyService {
  var label: String { get }
}

/// An object whose making and deinit are counted.
private final class PRTracked: PRClassBound, PRAnyService, Sendable {
  let ledger: PRLedger
  let serial: Int
  /// Read after the object was passed around: a freed object would not keep it.
  let check: UInt64 = 0xFEED_FACE_CAFE_BEEF
  var label: String { "tracked \(serial)" }

  init(_ ledger: PRLedger) {
    self.ledger = ledger
    serial = ledger.noteMade()
  }

  deinit { ledger.noteFreed() }
}

/// A superclass; ``PRSub`` conforms to the protocols, it does not.
private class PRBase {
  let ledger: PRLedger
  let serial: Int
  var dependency: PRTracked?

  init(_ ledger: PRLedger) {
    self.ledger = ledger
    serial = ledger.noteMade()
  }

  deinit { ledger.noteFreed() }
}

private final class PRSub: PRBase, PRClassBound, PRAnyService {
  var label: String { "sub \(serial)" }
}

private final class PRBox<Value> {
  let value: Value
  let ledger: PRLedger
  init(_ value: Value, _ ledger: PRLedger) {
    self.value = value
    self.ledger = ledger
    _ = ledger.noteMade()
  }
  deinit { ledger.noteFreed() }
}

private class PRGenericBase<Value> {
  let value: Value
  let ledger: PRLedger
  init(_ value: Value, _ ledger: PRLedger) {
    self.value = value
    self.ledger = ledger
    _ = ledger.noteMade()
  }
  deinit { ledger.noteFreed() }
}

private final class PRGenericSub: PRGenericBase<Int> {}

/// An object with a dependency by initializer and one by injection.
private final class PRHost {
  let ledger: PRLedger
  let serial: Int
  let first: PRTracked
  var injected: PRTracked?
  var partner: PRTracked?

  init(first: PRTracked, _ ledger: PRLedger) {
    self.first = first
    self.ledger = ledger
    serial = ledger.noteMade()
  }

  deinit { ledger.noteFreed() }
}

private struct PRFailure: Error {
  let payload: PRTracked
}

private struct PRPoint: Equatable, PRAnyService {
  var x: Int
  var y: Int
  var label: String { "point \(x),\(y)" }
}

private enum PRShape {
  case empty
  case holding(PRTracked, Int)
}

/// Bigger than an existential's inline buffer: boxed in an `Any`.
private struct PRLarge {
  var first: PRTracked
  var second: PRTracked
  var numbers: (Int, Int, Int, Int)
}

@Suite struct MadeInstanceReferenceTests {
  // MARK: - Reference counts on the moved path

  @Test func aPrototypeObjectLivesWhileHeldAndIsFreedOnceAfter() {
    let ledger = PRLedger()
    let container = DIContainer()
    container.register { PRTracked(ledger) }
    weak var weakHeld: PRTracked?
    do {
      let held: PRTracked = container.resolve()
      weakHeld = held
      for _ in 0..<200 { let _: PRTracked = container.resolve() }
      withExtendedLifetime(held) {
        // Every other object is gone, the held one is not.
        #expect(ledger.made == 201)
        #expect(ledger.freed == 200)
        #expect(weakHeld === held)
        #expect(held.check == 0xFEED_FACE_CAFE_BEEF)
      }
    }
    #expect(weakHeld == nil)
    #expect(ledger.made == 201)
    #expect(ledger.freed == 201)
  }

  @Test func aTryResolvedObjectAndAnOptionalRequestAreEachFreedOnce() throws {
    let ledger = PRLedger()
    let container = DIContainer()
    container.register { PRTracked(ledger) }
    weak var first: PRTracked?
    weak var second: PRTracked?
    do {
      let tried: PRTracked = try container.tryResolve()
      let optional: PRTracked? = container.resolve()
      first = tried
      second = optional
      withExtendedLifetime((tried, optional)) { #expect(ledger.alive == 2) }
      #expect(tried !== optional)
      #expect(optional?.check == 0xFEED_FACE_CAFE_BEEF)
    }
    #expect(first == nil)
    #expect(second == nil)
    #expect(ledger.made == 2)
    #expect(ledger.freed == 2)
  }

  @Test func genericClassesAreMadeAndFreedOnce() {
    let ledger = PRLedger()
    let container = DIContainer()
    container.register { PRTracked(ledger) }
    container.register { PRBox(7, ledger) }
    container.register { PRBox("seven", ledger) }
    container.register { (inner: PRTracked) in PRBox(inner, ledger) }
    container.register { (box: PRBox<Int>) in PRBox(box, ledger) }
    weak var weakInner: PRTracked?
    do {
      let int: PRBox<Int> = container.resolve()
      let string: PRBox<String> = container.resolve()
      let tracked: PRBox<PRTracked> = container.resolve()
      let nested: PRBox<PRBox<Int>> = container.resolve()
      weakInner = tracked.value
      #expect(int.value == 7)
      #expect(string.value == "seven")
      #expect(tracked.value.check == 0xFEED_FACE_CAFE_BEEF)
      #expect(nested.value.value == 7)
      #expect(nested.value !== int)
      // int, string, tracked + its PRTracked, nested + its PRBox<Int>.
      withExtendedLifetime((int, string, tracked, nested)) { #expect(ledger.alive == 6) }
    }
    #expect(weakInner == nil)
    #expect(ledger.made == 6)
    #expect(ledger.freed == 6)
  }

  @Test func aGenericSubclassResolvedAsItsGenericSuperclassIsFreedOnce() {
    let ledger = PRLedger()
    let container = DIContainer()
    container.register { PRGenericSub(3, ledger) }.as(PRGenericBase<Int>.self)
    do {
      let base: PRGenericBase<Int> = container.resolve()
      let sub: PRGenericSub = container.resolve()
      #expect(base is PRGenericSub)
      #expect(base.value == 3)
      #expect(base !== sub)
      withExtendedLifetime((base, sub)) { #expect(ledger.alive == 2) }
    }
    #expect(ledger.made == 2)
    #expect(ledger.freed == 2)
  }

  @Test func aSubclassMadeAsItsSuperclassIsFreedOnceWhateverItIsResolvedAs() {
    let ledger = PRLedger()
    let container = DIContainer()
    // The component's type is the superclass; the object is a subclass (no exact match).
    container.register { () -> PRBase in PRSub(ledger) }
      .as(PRClassBound.self).as(PRAnyService.self)
    weak var weakBase: PRBase?
    weak var weakBound: (any PRClassBound)?
    do {
      let base: PRBase = container.resolve()
      let bound: any PRClassBound = container.resolve()
      let service: any PRAnyService = container.resolve()
      weakBase = base
      weakBound = bound
      #expect(base is PRSub)
      #expect(bound is PRSub)
      #expect(service.label.hasPrefix("sub "))
      withExtendedLifetime((base, bound, service)) { #expect(ledger.alive == 3) }
    }
    #expect(weakBase == nil)
    #expect(weakBound == nil)
    #expect(ledger.made == 3)
    #expect(ledger.freed == 3)
  }

  @Test func aSubclassComponentResolvedAsItselfItsSuperclassAndItsProtocols() {
    let ledger = PRLedger()
    let container = DIContainer()
    container.register { PRSub(ledger) }
      .as(PRBase.self).as(PRClassBound.self).as(PRAnyService.self).as(AnyObject.self)
    do {
      let sub: PRSub = container.resolve()
      let base: PRBase = container.resolve()
      let bound: any PRClassBound = container.resolve()
      let service: any PRAnyService = container.resolve()
      let object: AnyObject = container.resolve()
      #expect(base is PRSub)
      #expect(object is PRSub)
      #expect(Set([sub.serial, base.serial, bound.serial]).count == 3)
      #expect(service.label.hasPrefix("sub "))
      withExtendedLifetime((sub, base, bound, service, object)) { #expect(ledger.alive == 5) }
    }
    #expect(ledger.made == 5)
    #expect(ledger.freed == 5)
  }

  @Test func aDependencyChainOfPrototypeObjectsIsFreedWithItsRoot() {
    let ledger = PRLedger()
    let container = DIContainer()
    container.register { PRTracked(ledger) }
    container.register { PRHost(first: $0, ledger) }
    container.register { (host: PRHost) in PRBox(host, ledger) }
    weak var weakFirst: PRTracked?
    weak var weakHost: PRHost?
    do {
      let root: PRBox<PRHost> = container.resolve()
      weakFirst = root.value.first
      weakHost = root.value
      withExtendedLifetime(root) { #expect(ledger.alive == 3) }
      #expect(root.value.first.check == 0xFEED_FACE_CAFE_BEEF)
    }
    #expect(weakFirst == nil)
    #expect(weakHost == nil)
    #expect(ledger.freed == 3)
  }

  @Test func anObjectAFactoryReturnsAtEveryCallIsNeverReleasedByTheContainer() {
    let ledger = PRLedger()
    weak var weakShared: PRTracked?
    do {
      let shared = PRTracked(ledger)
      weakShared = shared
      let container = DIContainer()
      // A prototype whose factory hands out the same object: each request gets its own
      // reference, and gives it back.
      container.register { shared }.as(PRClassBound.self)
      for _ in 0..<1_000 {
        let got: PRTracked = container.resolve()
        let bound: any PRClassBound = container.resolve()
        if got !== shared || bound !== shared { Issue.record("another object") }
      }
      #expect(ledger.freed == 0)
      #expect(shared.check == 0xFEED_FACE_CAFE_BEEF)
    }
    #expect(weakShared == nil)
    #expect(ledger.made == 1)
    #expect(ledger.freed == 1)
  }

  @Test func manyTaggedAndAsyncRequestsOfObjectsFreeEachOnce() async throws {
    let ledger = PRLedger()
    let container = DIContainer()
    container.register { PRTracked(ledger) }.default()
    container.register { PRTracked(ledger) }.as(PRTracked.self, tag: PRPoint.self)
    container.register { (first: PRTracked) async in PRHost(first: first, ledger) }
    do {
      let all: [PRTracked] = try many(container.tryResolve())
      let tagged: PRTracked = try by(tag: PRPoint.self, on: container.tryResolve())
      let viaAsync: PRTracked = try await container.resolveAsync()
      let host: PRHost = try await container.resolveAsync()
      #expect(all.count == 2)
      #expect(all[0] !== all[1])
      #expect(tagged.check == 0xFEED_FACE_CAFE_BEEF)
      #expect(viaAsync.check == 0xFEED_FACE_CAFE_BEEF)
      #expect(host.first.check == 0xFEED_FACE_CAFE_BEEF)
      withExtendedLifetime((all, tagged, viaAsync, host)) { #expect(ledger.alive == 6) }
    }
    #expect(ledger.made == 6)
    #expect(ledger.freed == 6)
  }

  // MARK: - Injections, postInit, failable and throwing factories

  @Test func aPrototypeWithInjectionsAndPostInitIsTheObjectReturned() {
    let ledger = PRLedger()
    let postInits = PRList<Int>()
    let container = DIContainer()
    container.register { PRTracked(ledger) }
    container.register { PRHost(first: $0, ledger) }
      .injection(\.injected)
      .injection { (host: PRHost, partner: PRTracked) in host.partner = partner }
      .postInit { host in postInits.add(host.serial) }
    weak var weakHost: PRHost?
    do {
      let host: PRHost = container.resolve()
      weakHost = host
      #expect(host.injected != nil)
      #expect(host.partner != nil)
      #expect(host.injected !== host.partner)
      #expect(postInits.all == [host.serial])
      withExtendedLifetime(host) { #expect(ledger.alive == 4) }
    }
    #expect(weakHost == nil)
    #expect(ledger.made == 4)
    #expect(ledger.freed == 4)
  }

  @Test func aPrototypeWithAPostponedInjectionIsFreedOnce() {
    let ledger = PRLedger()
    let postInits = PRList<Bool>()
    let container = DIContainer()
    container.register { PRTracked(ledger) }
    container.register { PRHost(first: $0, ledger) }
      .injection(cycle: true, \.partner)
      .postInit { host in postInits.add(host.partner != nil) }
    weak var weakHost: PRHost?
    do {
      let host: PRHost = container.resolve()
      weakHost = host
      #expect(host.partner != nil)
      #expect(postInits.all == [true])
    }
    #expect(weakHost == nil)
    #expect(ledger.made == 3)
    #expect(ledger.freed == 3)
  }

  @Test func aSubclassMadeAsItsSuperclassGetsItsInjectionsAndPostInit() {
    let ledger = PRLedger()
    let postInits = PRList<String>()
    let container = DIContainer()
    container.register { PRTracked(ledger) }
    container.register { () -> PRBase in PRSub(ledger) }
      .injection(\.dependency)
      .postInit { base in postInits.add("\(type(of: base)) \(base.dependency != nil)") }
    do {
      let base: PRBase = container.resolve()
      #expect(base is PRSub)
      #expect(base.dependency != nil)
      #expect(postInits.all == ["PRSub true"])
    }
    #expect(ledger.made == 2)
    #expect(ledger.freed == 2)
  }

  @Test func aFailableFactoryObjectIsFreedOnceWhetherItIsReturnedOrDropped() {
    let ledger = PRLedger()
    let returns = PRSwitch(true)
    let container = DIContainer()
    container.register { () -> PRTracked? in
      let made = PRTracked(ledger)
      return returns.isOn ? made : nil
    }.as(PRClassBound.self)
    do {
      let tracked: PRTracked = container.resolve()
      let bound: any PRClassBound = container.resolve()
      #expect(tracked.check == 0xFEED_FACE_CAFE_BEEF)
      #expect(bound.serial != tracked.serial)
      withExtendedLifetime((tracked, bound)) { #expect(ledger.alive == 2) }
    }
    returns.isOn = false
    let error = #expect(throws: DIError.self) { let _: PRTracked = try container.tryResolve() }
    #expect(error?.code == .factoryReturnedNil)
    #expect(ledger.made == 3)
    #expect(ledger.freed == 3)
  }

  @Test func aThrowingFactoryFreesWhatItWasGivenAndWhatItThrew() throws {
    let ledger = PRLedger()
    let fails = PRSwitch(true)
    let container = DIContainer()
    container.register { PRTracked(ledger) }
    container.register { (first: PRTracked) throws -> PRHost in
      if fails.isOn { throw PRFailure(payload: PRTracked(ledger)) }
      return PRHost(first: first, ledger)
    }
    do {
      let error = try #require(throws: DIError.self) { let _: PRHost = try container.tryResolve() }
      #expect(error.code == .factoryFailed)
      let failure = try #require(error.underlyingError as? PRFailure)
      #expect(failure.payload.check == 0xFEED_FACE_CAFE_BEEF)
      // The parameter is gone; the thrown payload lives as long as the error.
      withExtendedLifetime(failure) { #expect(ledger.alive == 1) }
    }
    #expect(ledger.alive == 0)
    fails.isOn = false
    do {
      let host: PRHost = try container.tryResolve()
      #expect(host.first.check == 0xFEED_FACE_CAFE_BEEF)
    }
    #expect(ledger.made == 4)
    #expect(ledger.freed == 4)
  }

  // MARK: - Modifiers and child containers

  @Test func optionalLazyProviderAndManyOfObjectsAreFreedOnce() {
    let ledger = PRLedger()
    let container = DIContainer()
    container.register { PRTracked(ledger) }.as(PRClassBound.self)
    container.register { PRSub(ledger) }.as(PRClassBound.self)
    container.register { (lazy: Lazy<PRTracked>, provider: Provider<PRTracked>) in
      PRBox((lazy, provider), ledger)
    }
    do {
      let optional: PRTracked? = container.resolve()
      #expect(optional?.check == 0xFEED_FACE_CAFE_BEEF)
      let lazy: Lazy<PRTracked> = container.resolve()
      let provider: Provider<PRTracked> = container.resolve()
      withExtendedLifetime(optional) { #expect(ledger.alive == 1) }
      #expect(lazy.value === lazy.value)
      let fromProvider = (provider.value, provider.value)
      #expect(fromProvider.0 !== fromProvider.1)
      let all: [any PRClassBound] = many(container.resolve())
      #expect(all.count == 2)
      #expect(all.first is PRTracked)
      #expect(all.last is PRSub)
      let box: PRBox<(Lazy<PRTracked>, Provider<PRTracked>)> = container.resolve()
      #expect(box.value.0.value !== box.value.1.value)
      // optional, lazy's, the provider's two, many's two, the box, its lazy's and the
      // one its provider made (freed at once).
      #expect(ledger.made == 9)
      withExtendedLifetime((optional, lazy, fromProvider, all, box)) { #expect(ledger.alive == 8) }
    }
    #expect(ledger.freed == ledger.made)
  }

  @Test func aParentPrototypeResolvedThroughAChildUsesTheChildsOverride() {
    let ledger = PRLedger()
    let parent = DIContainer()
    parent.register { PRTracked(ledger) }.as(PRClassBound.self)
    parent.register { (bound: any PRClassBound) in PRBox(bound, ledger) }
    let child = DIContainer(parent: parent)
    child.register { PRSub(ledger) }.as(PRClassBound.self)
    do {
      let fromChild: PRBox<any PRClassBound> = child.resolve()
      let fromParent: PRBox<any PRClassBound> = parent.resolve()
      let own: PRTracked = child.resolve()
      #expect(fromChild.value is PRSub)
      #expect(fromParent.value is PRTracked)
      #expect(own.check == 0xFEED_FACE_CAFE_BEEF)
      withExtendedLifetime((fromChild, fromParent, own)) { #expect(ledger.alive == 5) }
    }
    #expect(ledger.made == 5)
    #expect(ledger.freed == 5)
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func objectsResolvedOnManyThreadsAreEachFreedOnce() async throws {
    let ledger = PRLedger()
    let wrong = Counter()
    let container = DIContainer()
    container.register { PRTracked(ledger) }
    container.register { PRSub(ledger) }.as(PRClassBound.self).as(PRBase.self)
    container.register { PRHost(first: $0, ledger) }.injection(\.injected)
    let rounds = TestEnvironment.rounds(2_000)
    let finished = await runThreads(4, timeout: TestEnvironment.limit(60)) { index in
      var kept: [AnyObject] = []
      for round in 0..<rounds {
        switch (index + round) % 4 {
        case 0:
          let tracked: PRTracked = container.resolve()
          if tracked.check != 0xFEED_FACE_CAFE_BEEF { wrong.next() }
          if round.isMultiple(of: 7) { kept.append(tracked) }
        case 1:
          let bound: any PRClassBound = container.resolve()
          if !(bound is PRSub) { wrong.next() }
        case 2:
          let host: PRHost = container.resolve()
          if host.injected == nil || host.first === host.injected { wrong.next() }
        default:
          let base: PRBase = container.resolve()
          if !(base is PRSub) { wrong.next() }
        }
        if kept.count > 50 { kept.removeAll() }
      }
    }
    try #require(finished, "resolving on threads did not finish")
    #expect(wrong.value == 0)
    #expect(ledger.made > 0)
    #expect(ledger.freed == ledger.made)
  }

  // MARK: - Value types

  @Test func structsEnumsTuplesAndLargeValuesResolveAndReleaseTheirObjects() {
    let ledger = PRLedger()
    let container = DIContainer()
    container.register { PRPoint(x: 1, y: 2) }.as(PRAnyService.self)
    container.register { PRTracked(ledger) }
    container.register { (tracked: PRTracked) in PRShape.holding(tracked, 5) }
    container.register { (tracked: PRTracked) in (tracked, "pair") }
    container.register { (first: PRTracked, second: PRTracked) in
      PRLarge(first: first, second: second, numbers: (1, 2, 3, 4))
    }
    container.register { (first: PRTracked, second: PRTracked) in [first, second] }
    container.register { "text" }
    container.register { 42 }
    do {
      let point: PRPoint = container.resolve()
      let service: any PRAnyService = container.resolve()
      #expect(point == PRPoint(x: 1, y: 2))
      #expect(service.label == "point 1,2")
      let shape: PRShape = container.resolve()
      guard case .holding(let tracked, 5) = shape else {
        Issue.record("wrong shape \(shape)")
        return
      }
      #expect(tracked.check == 0xFEED_FACE_CAFE_BEEF)
      let pair: (PRTracked, String) = container.resolve()
      #expect(pair.1 == "pair")
      let large: PRLarge = container.resolve()
      #expect(large.first !== large.second)
      #expect(large.numbers == (1, 2, 3, 4))
      let array: [PRTracked] = container.resolve()
      #expect(array.count == 2)
      #expect(container.resolve() as String == "text")
      #expect(container.resolve() as Int == 42)
      withExtendedLifetime((shape, pair, large, array)) { #expect(ledger.alive == 6) }
    }
    #expect(ledger.made == 6)
    #expect(ledger.freed == 6)
  }

  @Test func existentialAndAnyTypedImplementationsResolveAsTheirType() {
    let ledger = PRLedger()
    let container = DIContainer()
    container.register { () -> any PRClassBound in PRSub(ledger) }
    container.register { () -> any PRAnyService in PRPoint(x: 3, y: 4) }
    container.register { () -> AnyObject in PRTracked(ledger) }
    container.register { () -> Any in PRBox(9, ledger) }
    do {
      let bound: any PRClassBound = container.resolve()
      let service: any PRAnyService = container.resolve()
      let object: AnyObject = container.resolve()
      let any: Any = container.resolve()
      #expect(bound is PRSub)
      #expect(service.label == "point 3,4")
      #expect((object as? PRTracked)?.check == 0xFEED_FACE_CAFE_BEEF)
      #expect((any as? PRBox<Int>)?.value == 9)
      withExtendedLifetime((bound, service, object, any)) { #expect(ledger.alive == 3) }
    }
    #expect(ledger.made == 3)
    #expect(ledger.freed == 3)
  }

  @Test func metatypesClosuresAndOptionalValuesResolve() {
    let container = DIContainer()
    container.register { () -> PRBase.Type in PRSub.self }
    container.register { () -> any PRClassBound.Type in PRTracked.self }
    container.register { () -> @Sendable (Int) -> Int in { $0 * 3 } }
    container.register { () -> Int? in 11 }
    container.register { (number: Int) in "\(number)" }
    let metatype: PRBase.Type = container.resolve()
    let existentialMetatype: any PRClassBound.Type = container.resolve()
    let triple: @Sendable (Int) -> Int = container.resolve()
    let number: Int = container.resolve()
    #expect(metatype == PRSub.self)
    #expect(ObjectIdentifier(existentialMetatype) == ObjectIdentifier(PRTracked.self))
    #expect(triple(5) == 15)
    #expect(number == 11)
    #expect(container.resolve() as String == "11")
  }

  // MARK: - Wrong services

  @Test func anObjectThatIsNotItsServiceIsNotAServiceAndIsFreed() {
    let ledger = PRLedger()
    let makesSub = PRSwitch(false)
    let container = DIContainer()
    // Declared as a service its type does not conform to: only a subclass object is one.
    container.register { () -> PRBase in makesSub.isOn ? PRSub(ledger) : PRBase(ledger) }
      .as(PRClassBound.self)
    let error = #expect(throws: DIError.self) {
      let _: any PRClassBound = try container.tryResolve()
    }
    #expect(error?.code == .notAService)
    #expect(ledger.made == 1)
    #expect(ledger.freed == 1)
    makesSub.isOn = true
    do {
      let bound: any PRClassBound = container.resolve()
      #expect(bound is PRSub)
    }
    #expect(ledger.made == 2)
    #expect(ledger.freed == 2)
  }

  @Test func valuesThatAreNotTheirServiceAreNotAService() {
    let structs = DIContainer()
    structs.register { PRPoint(x: 0, y: 0) }.as(PRClassBound.self)
    let fromStruct = #expect(throws: DIError.self) {
      let _: any PRClassBound = try structs.tryResolve()
    }
    #expect(fromStruct?.code == .notAService)
    let existentials = DIContainer()
    existentials.register { () -> any PRAnyService in PRPoint(x: 1, y: 1) }
      .as(PRClassBound.self).as(Int.self, tag: PRPoint.self)
    let fromExistential = #expect(throws: DIError.self) {
      let _: any PRClassBound = try existentials.tryResolve()
    }
    #expect(fromExistential?.code == .notAService)
    let tagged = #expect(throws: DIError.self) {
      let _: Int = try by(tag: PRPoint.self, on: existentials.tryResolve())
    }
    #expect(tagged?.code == .notAService)
    let service: any PRAnyService = existentials.resolve()
    #expect(service.label == "point 1,1")
  }
}
