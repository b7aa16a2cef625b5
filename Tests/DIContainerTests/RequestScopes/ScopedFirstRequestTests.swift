// The first request of a
// `.scoped` component in a scope reads the kept instance and claims the making under one
// lock (`DIRequestScope.keptObjectOrClaim(for:by:)`), and hands the claimed token to
// `CreateOnce.valueOrOpen(..., claimed:)`; `State.keep` appends with
// `SmallIdentityMap.insertNew` (a debug `assert` that the key is absent) instead of `set`.
//
// What would break, and what these tests hold it to:
// - a making claimed and never ended (left in the scope's `makings`): a later request of
//   the same component on another thread waits forever (every threaded test has a
//   deadline), the state is never reused (`reopen` needs no making), and
//   `noMakingIsLeft` sees it;
// - a claim where another request's making is under way, or in a closed scope: a second
//   instance made in one scope (factory calls are counted), or a factory run after
//   `close()`;
// - a key kept twice: the `assert` of `insertNew` traps in this debug build, and hooks
//   run twice (they are counted);
// - a kept value that is no class instance (a struct, an existential) taken for one.
//
// Workers never call `#expect` (see CoreTestSupport.swift): they record what they saw.

import DITestSupport
import Dispatch
import Foundation
import Testing

@testable import DIContainer

// MARK: - Fixtures

private final class RSCObject: PRCounted, @unchecked Sendable {}

/// A `.scoped` value that is no class instance: the scope keeps a struct.
private struct RSCValue: Sendable {
  let serial: Int
}

private protocol RSCService: AnyObject {
  var serial: Int { get }
}
private final class RSCServiceImpl: PRCounted, RSCService, @unchecked Sendable {}
private final class RSCTaggedImpl: PRCounted, RSCService, @unchecked Sendable {}
private enum RSCTag {}

/// A protocol that is not class-bound, served by a struct.
private protocol RSCPlain: Sendable {
  var serial: Int { get }
}
private struct RSCPlainImpl: RSCPlain {
  let serial: Int
}

private final class RSCSelfLoop: PRCounted, @unchecked Sendable {
  init(again: RSCSelfLoop, _ ledger: PRLedger) { super.init(ledger) }
}

/// A `.scoped` object whose property injection needs an object that needs it back.
private final class RSCCyclic: PRCounted, @unchecked Sendable {
  var friend: RSCFriend?
}
private final class RSCFriend: PRCounted, @unchecked Sendable {
  let cyclic: RSCCyclic
  init(cyclic: RSCCyclic, _ ledger: PRLedger) {
    self.cyclic = cyclic
    super.init(ledger)
  }
}

/// A `.scoped` chain: the top needs the middle, which needs the bottom.
private final class RSCBottom: PRCounted, @unchecked Sendable {}
private final class RSCMiddle: PRCounted, @unchecked Sendable {
  let bottom: RSCBottom
  init(bottom: RSCBottom, _ ledger: PRLedger) {
    self.bottom = bottom
    super.init(ledger)
  }
}
private final class RSCTop: PRCounted, @unchecked Sendable {
  let middle: RSCMiddle
  init(middle: RSCMiddle, _ ledger: PRLedger) {
    self.middle = middle
    super.init(ledger)
  }
}

/// A child container's `.scoped` object holding its parent's `.scoped` one.
private final class RSCHolder: PRCounted, @unchecked Sendable {
  let object: RSCObject
  init(object: RSCObject, _ ledger: PRLedger) {
    self.object = object
    super.init(ledger)
  }
}

private final class RSCAsyncThing: PRCounted, @unchecked Sendable {}

/// Made by a factory that resolves in its scope again, through the public API.
private final class RSCNested: PRCounted, @unchecked Sendable {
  let inner: RSCObject
  init(inner: RSCObject, _ ledger: PRLedger) {
    self.inner = inner
    super.init(ledger)
  }
}
private final class RSCSelfAsking: PRCounted, @unchecked Sendable {}

/// One of many `.scoped` component types: `RSCItem<SCDigit1, SCDigit7>` is item 17.
private class RSCItemBase: PRCounted, @unchecked Sendable {
  var index: Int { -1 }
}
private final class RSCItem<Tens: SCDigit, Ones: SCDigit>: RSCItemBase, @unchecked Sendable {
  override var index: Int { Tens.value * 10 + Ones.value }
}

/// A prototype that needs every item: one graph with all the `.scoped` items in it.
private final class RSCAllItems: @unchecked Sendable {
  let items: [RSCItemBase]
  init(items: [RSCItemBase]) { self.items = items }
}

private struct RSCFailure: Error {}

/// `T` from `scope`, as a result (for worker threads, which do not call `#expect`).
private func rscResolve<T>(_ type: T.Type = T.self, in scope: DIRequestScope) -> Result<
  T, DIError
> {
  Result { () throws(DIError) -> T in try scope.tryResolve() }
}

/// Whether no making is left in `scope`'s state: every making claimed, by the first look
/// or by the create-once path, ended.
private func noMakingIsLeft(in scope: DIRequestScope) -> Bool {
  scope.state.withLock { $0.makings.isEmpty }
}

/// Whether `condition` holds within a few seconds (polled): for what a worker thread's
/// closure, released a little after the thread signalled its end, may still hold.
private func rscEventually(_ condition: () -> Bool) async -> Bool {
  let deadline = hangDeadline(in: TestEnvironment.limit(5))
  while !condition() {
    guard ContinuousClock.now < deadline else { return false }
    try? await Task.sleep(for: .milliseconds(1))
  }
  return true
}

/// Registers the `.scoped` items `0..<count` (at most 100) as `RSCItemBase` too, each
/// cleaned into `ledger`.
private func registerItems(_ count: Int, in container: DIContainer, ledger: PRLedger) {
  for index in 0..<count {
    registerItem(scDigit(index / 10), scDigit(index % 10), in: container, ledger: ledger)
  }
  container.register { RSCAllItems(items: many($0)) }
}

private func registerItem<Tens: SCDigit, Ones: SCDigit>(
  _: Tens.Type, _: Ones.Type, in container: DIContainer, ledger: PRLedger
) {
  container.register { RSCItem<Tens, Ones>(ledger) }
    .lifetime(.scoped)
    .as(RSCItemBase.self)
    .onClean { ledger.noteCleaned($0.serial) }
}

/// Item `index` of `scope`, asked for by its own type.
private func item(_ index: Int, in scope: DIRequestScope) throws(DIError) -> RSCItemBase {
  try itemOf(scDigit(index / 10), scDigit(index % 10), in: scope)
}

private func itemOf<Tens: SCDigit, Ones: SCDigit>(
  _: Tens.Type, _: Ones.Type, in scope: DIRequestScope
) throws(DIError) -> RSCItemBase {
  let item: RSCItem<Tens, Ones> = try scope.tryResolve()
  return item
}

@Suite struct ScopedFirstRequestTests {
  // MARK: - The first look itself

  @Test func theFirstLookClaimsOnlyAnAbsentKeyOfAnOpenScope() throws {
    let container = DIContainer()
    let scope = container.makeScope()
    // Objects whose identities stand for three keys and two requests.
    let owners = (0..<5).map { _ in RSCObject(PRLedger()) }
    let objectKey = ObjectIdentifier(owners[0])
    let valueKey = ObjectIdentifier(owners[1])
    let lateKey = ObjectIdentifier(owners[2])
    let me = ObjectIdentifier(owners[3])
    let other = ObjectIdentifier(owners[4])

    // Absent: claimed for the request, recorded as its making.
    guard case .claimed(let token) = scope.keptObjectOrClaim(for: objectKey, by: me) else {
      Issue.record("the first look at an absent key did not claim its making")
      return
    }
    let making = scope.state.withLock { $0[objectKey].making }
    #expect(making?.creator == me)
    #expect(making?.token == token)
    // A making under way, this request's or another's: undecided, nothing claimed again.
    for request in [me, other] {
      guard case .undecided = scope.keptObjectOrClaim(for: objectKey, by: request) else {
        Issue.record("a key being made was claimed again")
        return
      }
    }
    #expect(scope.state.withLock { $0.makings.count } == 1)

    // The making keeps a class instance: later looks find it, claim nothing.
    let object = RSCObject(PRLedger())
    let kept = scope.state.withLock { (state: inout DIRequestScope.State) -> Bool in
      state[making: objectKey] = nil  // The making ends, then its store keeps the value.
      return state.keep(Instance(value: object), for: objectKey, hook: nil)
    }
    #expect(kept)
    guard case .kept(let found) = scope.keptObjectOrClaim(for: objectKey, by: other) else {
      Issue.record("a kept class instance was not found")
      return
    }
    // Compared outside `#expect`: `#expect(found === object)` (AnyObject against a class)
    // crashed Swift 6.3.1's SIL generation ("Invalid conformance in type-checked AST").
    let foundIsKept = found === object
    #expect(foundIsKept)
    #expect(noMakingIsLeft(in: scope))

    // A kept struct is no class instance: undecided, and not claimed either.
    guard case .claimed = scope.keptObjectOrClaim(for: valueKey, by: me) else {
      Issue.record("the first look at another absent key did not claim it")
      return
    }
    scope.state.withLock { (state: inout DIRequestScope.State) -> Void in
      state[making: valueKey] = nil
      _ = state.keep(Instance(value: RSCValue(serial: 7)), for: valueKey, hook: nil)
    }
    guard case .undecided = scope.keptObjectOrClaim(for: valueKey, by: other) else {
      Issue.record("a kept struct was taken for a class instance, or claimed again")
      return
    }
    #expect(noMakingIsLeft(in: scope))

    // A closed scope claims nothing.
    scope.close()
    guard case .undecided = scope.keptObjectOrClaim(for: lateKey, by: me) else {
      Issue.record("a closed scope claimed a making")
      return
    }
    guard case .undecided = scope.keptObjectOrClaim(for: objectKey, by: me) else {
      Issue.record("a closed scope still served what it dropped")
      return
    }
    #expect(noMakingIsLeft(in: scope))
    withExtendedLifetime(owners) {}
  }

  @Test func insertNewPastTheIndexedCountAndAfterReuseFindsEveryKey() {
    let owners = (0..<40).map { _ in RSCObject(PRLedger()) }
    let keys = owners.map(ObjectIdentifier.init)
    for count in [3, 16, 17, 40] {
      var map = SmallIdentityMap<Int>()
      for round in 0..<2 {
        for (index, key) in keys.prefix(count).enumerated() {
          #expect(map[key] == nil)
          map.insertNew(index * 10 + round, for: key)
        }
        for (index, key) in keys.prefix(count).enumerated() {
          #expect(map[key] == index * 10 + round)
          #expect(map.position(of: key).map { map.entries[$0].slot } == index * 10 + round)
        }
        for key in keys.dropFirst(count) { #expect(map[key] == nil) }
        // Emptied for reuse: nothing of the last round is found again.
        let kept = map.removeAllKeepingSmallStorage()
        if count > SmallIdentityMap<Int>.indexedCount { #expect(!kept) }
        if count < SmallIdentityMap<Int>.initialCapacity { #expect(kept) }
        #expect(map.isEmpty)
        for key in keys { #expect(map[key] == nil) }
      }
    }
    withExtendedLifetime(owners) {}
  }

  // MARK: - First requests, one thread

  @Test func theFirstRequestOfAScopedClassMakesItOnceAndTheScopeKeepsIt() throws {
    let ledger = PRLedger()
    let calls = Counter()
    let container = DIContainer()
    container.register { () -> RSCObject in
      calls.next()
      return RSCObject(ledger)
    }
    .lifetime(.scoped).onClean { ledger.noteCleaned($0.serial) }
    let scope = container.makeScope()
    let first: RSCObject = try scope.tryResolve()
    #expect(noMakingIsLeft(in: scope))
    for _ in 0..<3 {
      let again: RSCObject = try scope.tryResolve()
      #expect(again === first)
    }
    let other = container.makeScope()
    let second: RSCObject = try other.tryResolve()
    #expect(second !== first)
    #expect(calls.value == 2)
    scope.close()
    other.close()
    #expect(ledger.cleaned == [first.serial, second.serial])
    scope.close()
    #expect(ledger.cleaned.count == 2)
  }

  @Test func aScopedStructIsMadeOnceAndCleanedOnce() throws {
    let ledger = PRLedger()
    let calls = Counter()
    let container = DIContainer()
    container.register { () -> RSCValue in
      calls.next()
      return RSCValue(serial: ledger.noteMade())
    }
    .lifetime(.scoped).onClean { ledger.noteCleaned($0.serial) }
    let scope = container.makeScope()
    let first: RSCValue = try scope.tryResolve()
    for _ in 0..<3 {
      let again: RSCValue = try scope.tryResolve()
      #expect(again.serial == first.serial)
    }
    #expect(calls.value == 1)
    #expect(noMakingIsLeft(in: scope))
    scope.close()
    #expect(ledger.cleaned == [first.serial])
    // A new scope makes its own.
    let next = container.makeScope()
    let fresh: RSCValue = try next.tryResolve()
    #expect(fresh.serial != first.serial)
    next.close()
    #expect(calls.value == 2)
    #expect(ledger.cleaned == [first.serial, fresh.serial])
  }

  @Test func aScopedExistentialIsNoClassInstanceButIsStillOne() throws {
    // The kept value is an existential: a box whose type is no class, which the first
    // look must leave to the create-once path.
    let ledger = PRLedger()
    let calls = Counter()
    let container = DIContainer()
    container.register { () -> any RSCService in
      calls.next()
      return RSCServiceImpl(ledger)
    }
    .lifetime(.scoped)
    let scope = container.makeScope()
    let service: any RSCService = try scope.tryResolve()
    for _ in 0..<2 {
      let serviceAgain: any RSCService = try scope.tryResolve()
      #expect(serviceAgain === service)
    }
    #expect(calls.value == 1)
    #expect(noMakingIsLeft(in: scope))
    scope.close()
  }

  @Test func aScopedServiceIsOneObjectByProtocolTagAndOwnType() throws {
    let ledger = PRLedger()
    let calls = Counter()
    let container = DIContainer()
    container.register { () -> RSCServiceImpl in
      calls.next()
      return RSCServiceImpl(ledger)
    }
    .as(RSCService.self).lifetime(.scoped).onClean { ledger.noteCleaned($0.serial) }
    container.register { () -> RSCTaggedImpl in
      calls.next()
      return RSCTaggedImpl(ledger)
    }
    .as(RSCService.self, tag: RSCTag.self).lifetime(.scoped)
    .onClean { ledger.noteCleaned($0.serial) }
    container.register { () -> any RSCPlain in
      calls.next()
      return RSCPlainImpl(serial: ledger.noteMade())
    }
    .lifetime(.scoped)

    // First requests by protocol and by tag, then by the own types.
    let scope = container.makeScope()
    let service: any RSCService = try scope.tryResolve()
    let tagged: any RSCService = by(tag: RSCTag.self, on: try scope.tryResolve())
    let plain: any RSCPlain = try scope.tryResolve()
    #expect(service is RSCServiceImpl)
    #expect(tagged is RSCTaggedImpl)
    let serviceByType: RSCServiceImpl = try scope.tryResolve()
    let taggedByType: RSCTaggedImpl = try scope.tryResolve()
    #expect(serviceByType === service)
    #expect(taggedByType === tagged)
    let taggedAgain: any RSCService = by(tag: RSCTag.self, on: try scope.tryResolve())
    #expect(taggedAgain === tagged)
    let plainAgain: any RSCPlain = try scope.tryResolve()
    #expect(plainAgain.serial == plain.serial)
    #expect(calls.value == 3)

    // The other way round in a second scope: own types first.
    let other = container.makeScope()
    let otherByType: RSCServiceImpl = try other.tryResolve()
    let otherTaggedByType: RSCTaggedImpl = try other.tryResolve()
    let otherService: any RSCService = try other.tryResolve()
    let otherTagged: any RSCService = by(tag: RSCTag.self, on: try other.tryResolve())
    #expect(otherService === otherByType)
    #expect(otherTagged === otherTaggedByType)
    #expect(otherByType !== serviceByType)
    #expect(calls.value == 5)
    #expect(noMakingIsLeft(in: scope) && noMakingIsLeft(in: other))
    scope.close()
    other.close()
    #expect(
      ledger.cleaned == [
        taggedByType.serial, serviceByType.serial, otherTaggedByType.serial, otherByType.serial,
      ])
  }

  @Test func moreThanSixteenScopedComponentsInOneGraphAreEachMadeOnce() throws {
    let ledger = PRLedger()
    let container = DIContainer()
    let count = 21
    registerItems(count, in: container, ledger: ledger)
    var madeBefore = 0
    for round in 0..<3 {
      let scope = container.makeScope()
      let items: [RSCItemBase]
      if round == 1 {
        // First requests one by one, from the last (the map switches to its index on the
        // way), then the graph finds every one of them.
        var single: [RSCItemBase] = []
        for index in (0..<count).reversed() { single.insert(try item(index, in: scope), at: 0) }
        items = try (scope.tryResolve() as RSCAllItems).items
        #expect(zip(single, items).allSatisfy { $0 === $1 })
      } else {
        // One graph makes them all (first requests), then each is asked for.
        items = try (scope.tryResolve() as RSCAllItems).items
      }
      #expect(items.map(\.index) == Array(0..<count))
      for index in 0..<count {
        #expect(try item(index, in: scope) === items[index])
      }
      let again = try (scope.tryResolve() as RSCAllItems).items
      #expect(zip(again, items).allSatisfy { $0 === $1 })
      #expect(ledger.made == madeBefore + count, "round \(round): an item was made twice")
      #expect(noMakingIsLeft(in: scope))
      let cleanedBefore = ledger.cleaned.count
      scope.close()
      // Newest first.
      let serialsByAge = items.map(\.serial).sorted()
      #expect(Array(ledger.cleaned.dropFirst(cleanedBefore)) == serialsByAge.reversed())
      madeBefore = ledger.made
    }
    #expect(ledger.cleaned.count == 3 * count)
    #expect(Set(ledger.cleaned).count == 3 * count)
  }

  @Test func hooksRunOncePerKeptInstanceNewestFirst() throws {
    let ledger = PRLedger()
    let container = DIContainer()
    container.register { RSCBottom(ledger) }.lifetime(.scoped)
      .onClean { ledger.noteCleaned($0.serial) }
    container.register { RSCMiddle(bottom: $0, ledger) }.lifetime(.scoped)
      .onClean { ledger.noteCleaned($0.serial) }
    container.register { RSCTop(middle: $0, ledger) }.lifetime(.scoped)
      .onClean { ledger.noteCleaned($0.serial) }
    container.register { RSCObject(ledger) }.lifetime(.scoped)
      .onClean { ledger.noteCleaned($0.serial) }
    weak var weakTop: RSCTop?
    do {
      let scope = container.makeScope()
      let top: RSCTop = try scope.tryResolve()
      let object: RSCObject = try scope.tryResolve()
      let middle: RSCMiddle = try scope.tryResolve()
      let bottom: RSCBottom = try scope.tryResolve()
      weakTop = top
      #expect(top.middle === middle && middle.bottom === bottom)
      #expect(ledger.made == 4)
      scope.close()
      scope.close()
      #expect(ledger.cleaned == [object.serial, top.serial, middle.serial, bottom.serial])
    }
    #expect(weakTop == nil)
    #expect(ledger.alive == 0)
  }

  // MARK: - Cycles

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func aScopedInitializerAskingForItselfIsACycleEveryTimeNotAHang() async throws {
    let ledger = PRLedger()
    let container = DIContainer()
    container.register { RSCSelfLoop(again: $0, ledger) }.lifetime(.scoped)
    container.register { RSCObject(ledger) }.lifetime(.scoped)
    let scope = container.makeScope()
    // From threads of their own, with deadlines: a making left claimed by the first
    // failure would make the later requests wait for a request that is over.
    for _ in 0..<3 {
      #expect(await scFailure(RSCSelfLoop.self, from: scope)?.code == .cycle)
      #expect(noMakingIsLeft(in: scope))
    }
    #expect(ledger.made == 0)
    let object = try #require(await scInstance(RSCObject.self, from: scope))
    #expect(await scInstance(RSCObject.self, from: scope) === object)
    scope.close()
    #expect(ledger.alive == 1)
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func aScopedFactoryResolvingInItsScopeAgainSharesOrFailsWithoutAHang() async throws {
    // A factory that resolves in its own scope runs the same request (the thread's): a
    // first request of another `.scoped` component is claimed and made inside the outer
    // making; one of its own component is a cycle, not a wait for itself.
    let ledger = PRLedger()
    let selfCalls = Counter()
    let box = LockedValue<DIRequestScope?>(nil)
    let container = DIContainer()
    container.register { RSCObject(ledger) }.lifetime(.scoped)
      .onClean { ledger.noteCleaned($0.serial) }
    container.register { () throws -> RSCNested in
      guard let scope = box.current else { throw RSCFailure() }
      let inner: RSCObject = try scope.tryResolve()
      return RSCNested(inner: inner, ledger)
    }
    .lifetime(.scoped).onClean { ledger.noteCleaned($0.serial) }
    container.register { () throws -> RSCSelfAsking in
      selfCalls.next()
      guard let scope = box.current else { throw RSCFailure() }
      let _: RSCSelfAsking = try scope.tryResolve()
      return RSCSelfAsking(ledger)
    }
    .lifetime(.scoped)
    let scope = container.makeScope()
    box.withLock { $0 = scope }
    defer { box.withLock { $0 = nil } }
    let nested = try #require(await scInstance(RSCNested.self, from: scope))
    #expect(try scope.tryResolve() as RSCObject === nested.inner)
    #expect(try scope.tryResolve() as RSCNested === nested)
    for attempt in 1...2 {
      let error = await scFailure(RSCSelfAsking.self, from: scope)
      let codes = [error?.code, (error?.underlyingError as? DIError)?.code]
      #expect(codes.contains(.cycle), "attempt \(attempt): \(String(describing: error))")
      #expect(noMakingIsLeft(in: scope))
    }
    #expect(selfCalls.value == 2)
    #expect(ledger.made == 2)
    scope.close()
    #expect(ledger.cleaned == [nested.serial, nested.inner.serial])
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func aPropertyInjectionCycleServesThePartialInstanceToItsOwnRequest() async throws {
    let ledger = PRLedger()
    for breaksTheCycle in [false, true] {
      // The second time through a cycle-breaking injection (a postponed making).
      let container = DIContainer()
      container.register { RSCCyclic(ledger) }.lifetime(.scoped)
        .injection(cycle: breaksTheCycle, \.friend)
        .onClean { ledger.noteCleaned($0.serial) }
      container.register { RSCFriend(cyclic: $0, ledger) }
      let scope = container.makeScope()
      // On a thread of its own, with a deadline: a request that took its own making for
      // another's would wait for itself.
      let cyclic = try #require(await scInstance(RSCCyclic.self, from: scope))
      #expect(cyclic.friend?.cyclic === cyclic)
      let again: RSCCyclic = try scope.tryResolve()
      #expect(again === cyclic)
      #expect(noMakingIsLeft(in: scope))
      scope.close()
      cyclic.friend = nil
    }
    // Per scope: one cyclic, one friend.
    #expect(ledger.made == 4)
    #expect(ledger.cleaned.count == 2)
    #expect(await rscEventually { ledger.alive == 0 })
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func aPostponedMakingMakesAnotherThreadWaitForTheSameInstance() async throws {
    // The cyclic object's making stays open while its postponed injection runs (held at
    // the gate in the friend's factory); a second thread's first request waits for it,
    // and neither gets a second instance.
    let ledger = PRLedger()
    let gate = Gate()
    let container = DIContainer()
    container.register { RSCCyclic(ledger) }.lifetime(.scoped)
      .injection(cycle: true, \.friend)
      .onClean { ledger.noteCleaned($0.serial) }
    container.register { (cyclic: RSCCyclic) -> RSCFriend in
      gate.passBlocking()
      return RSCFriend(cyclic: cyclic, ledger)
    }
    let scope = container.makeScope()
    let results = LockedValue<[Result<RSCCyclic, DIError>]>([])
    let first = Task {
      await runOnThread(timeout: TestEnvironment.limit(30)) {
        let result = rscResolve(RSCCyclic.self, in: scope)
        results.withLock { $0.append(result) }
      }
    }
    try #require(await gate.waitForArrivals(1), "the postponed injection did not run")
    let second = Task {
      await runOnThread(timeout: TestEnvironment.limit(30)) {
        let result = rscResolve(RSCCyclic.self, in: scope)
        results.withLock { $0.append(result) }
      }
    }
    try await Task.sleep(for: .milliseconds(30))
    #expect(results.current.isEmpty, "a request got the object before its making ended")
    gate.open()
    #expect(await first.value, "the first request hung")
    #expect(await second.value, "the waiting request hung")
    let objects = try results.current.map { try $0.get() }
    #expect(objects.count == 2)
    #expect(objects.count == 2 && objects[0] === objects[1])
    #expect(objects.first?.friend?.cyclic === objects.first)
    #expect(gate.count == 1)
    #expect(ledger.made == 2)
    #expect(noMakingIsLeft(in: scope))
    scope.close()
    #expect(ledger.cleaned == objects.prefix(1).map(\.serial))
    objects.first?.friend = nil
  }

  // MARK: - Failures

  @Test func aFactoryThatThrowsFirstKeepsNothingAndTheScopeGoesOn() throws {
    let ledger = PRLedger()
    let calls = Counter()
    let container = DIContainer()
    container.register { () throws -> RSCObject in
      if calls.next() % 2 == 1 { throw RSCFailure() }
      return RSCObject(ledger)
    }
    .lifetime(.scoped).onClean { ledger.noteCleaned($0.serial) }
    let reusedBefore = container.openScopes.reuse.reused
    var serials: Set<Int> = []
    let rounds = 4
    for _ in 0..<rounds {
      // Let go at the end of each round, so the next scope may reuse its state: only an
      // empty state (no making left) is reused.
      let scope = container.makeScope()
      let error = try #require(throws: DIError.self) {
        _ = try rscResolve(RSCObject.self, in: scope).get()
      }
      #expect(error.code == .factoryFailed)
      #expect(error.underlyingError is RSCFailure)
      #expect(noMakingIsLeft(in: scope))
      let object: RSCObject = try scope.tryResolve()
      let again: RSCObject = try scope.tryResolve()
      #expect(again === object)
      #expect(serials.insert(object.serial).inserted)
      scope.close()
    }
    #expect(calls.value == 2 * rounds)
    #expect(ledger.made == rounds)
    #expect(ledger.cleaned.count == rounds)
    #expect(ledger.alive == 0)
    #expect(container.openScopes.reuse.reused - reusedBefore == rounds - 1)
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func aThreadWaitingForAFailedFirstMakingWakesAndMakesItsOwn() async throws {
    let ledger = PRLedger()
    let gate = Gate()
    let calls = Counter()
    let container = DIContainer()
    container.register { () throws -> RSCObject in
      if calls.next() == 1 {
        gate.passBlocking()
        throw RSCFailure()
      }
      return RSCObject(ledger)
    }
    .lifetime(.scoped).onClean { ledger.noteCleaned($0.serial) }
    let scope = container.makeScope()
    let failing = LockedValue<Result<RSCObject, DIError>?>(nil)
    let waiting = LockedValue<Result<RSCObject, DIError>?>(nil)
    let first = Task {
      await runOnThread(timeout: TestEnvironment.limit(30)) {
        let result = rscResolve(RSCObject.self, in: scope)
        failing.withLock { $0 = result }
      }
    }
    try #require(await gate.waitForArrivals(1))
    let second = Task {
      await runOnThread(timeout: TestEnvironment.limit(30)) {
        let result = rscResolve(RSCObject.self, in: scope)
        waiting.withLock { $0 = result }
      }
    }
    // Time for the second request to wait for the first one's making.
    try await Task.sleep(for: .milliseconds(30))
    #expect(waiting.current == nil, "a request did not wait for the making under way")
    gate.open()
    #expect(await first.value, "the failing request hung")
    #expect(await second.value, "the waiting request never woke")
    guard case .failure(let error)? = failing.current else {
      Issue.record("the first request did not fail: \(String(describing: failing.current))")
      return
    }
    #expect(error.code == .factoryFailed)
    let made = try #require(try waiting.current?.get())
    #expect(try scope.tryResolve() as RSCObject === made)
    #expect(calls.value == 2)
    #expect(noMakingIsLeft(in: scope))
    scope.close()
    #expect(ledger.cleaned == [made.serial])
  }

  @Test func aClosedScopeRunsNoScopedFactory() throws {
    let calls = Counter()
    let container = DIContainer()
    container.register { () -> RSCObject in
      calls.next()
      return RSCObject(PRLedger())
    }
    .lifetime(.scoped)
    container.register { () -> RSCValue in
      calls.next()
      return RSCValue(serial: 0)
    }
    .lifetime(.scoped)
    let scope = container.makeScope()
    scope.close()
    for _ in 0..<2 {
      let objectError = try #require(throws: DIError.self) {
        _ = try rscResolve(RSCObject.self, in: scope).get()
      }
      #expect(objectError.code == .scopeClosed)
      let valueError = try #require(throws: DIError.self) {
        _ = try rscResolve(RSCValue.self, in: scope).get()
      }
      #expect(valueError.code == .scopeClosed)
    }
    #expect(calls.value == 0)
    #expect(noMakingIsLeft(in: scope))
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func aScopeClosedDuringARequestRunsNoScopedFactoryAfterIt() async throws {
    // The request began in an open scope; the scope closes before the request reaches
    // its `.scoped` component, whose first look must then claim nothing.
    let ledger = PRLedger()
    let gate = Gate()
    let calls = Counter()
    let container = DIContainer()
    container.register { () -> RSCObject in
      calls.next()
      return RSCObject(ledger)
    }
    .lifetime(.scoped).onClean { ledger.noteCleaned($0.serial) }
    container.register { () -> RSCBottom in
      gate.passBlocking()
      return RSCBottom(ledger)
    }
    container.register { (bottom: RSCBottom, object: RSCObject) in RSCHolder(object: object, ledger)
    }
    let scope = container.makeScope()
    let outcome = LockedValue<Result<RSCHolder, DIError>?>(nil)
    let thread = Task {
      await runOnThread(timeout: TestEnvironment.limit(30)) {
        let result = rscResolve(RSCHolder.self, in: scope)
        outcome.withLock { $0 = result }
      }
    }
    try #require(await gate.waitForArrivals(1), "the request did not start")
    scope.close()
    gate.open()
    #expect(await thread.value, "the request hung")
    #expect(outcome.current?.failure?.code == .scopeClosed)
    #expect(calls.value == 0, "a .scoped factory ran in a closed scope")
    #expect(ledger.cleaned.isEmpty)
    #expect(noMakingIsLeft(in: scope))
  }

  // MARK: - Threads

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func threadsRacingForTheFirstRequestShareOneInstancePerScope() async throws {
    let ledger = PRLedger()
    let objectCalls = Counter()
    let valueCalls = Counter()
    let container = DIContainer()
    container.register { () -> RSCObject in
      objectCalls.next()
      usleep(100)  // so that the other threads come while it is made
      return RSCObject(ledger)
    }
    .lifetime(.scoped).onClean { ledger.noteCleaned($0.serial) }
    container.register { () -> RSCValue in
      valueCalls.next()
      usleep(100)
      return RSCValue(serial: ledger.noteMade())
    }
    .lifetime(.scoped).onClean { ledger.noteCleaned($0.serial) }
    let rounds = TestEnvironment.rounds(30, minimum: 6)
    let threads = 6
    var wrong: [String] = []
    for round in 0..<rounds {
      let scope = container.makeScope()
      let got = LockedValue<[(RSCObject, Int)]>([])
      let failures = LockedValue<[String]>([])
      let finished = await runThreads(threads, timeout: TestEnvironment.limit(30)) { index in
        do throws(DIError) {
          let object: RSCObject
          let value: RSCValue
          if index.isMultiple(of: 2) {
            object = try scope.tryResolve()
            value = try scope.tryResolve()
          } else {
            value = try scope.tryResolve()
            object = try scope.tryResolve()
          }
          got.withLock { $0.append((object, value.serial)) }
        } catch {
          failures.withLock { $0.append(scBrief(error)) }
        }
      }
      try #require(finished, "round \(round): threads making their first requests hung")
      wrong += failures.current
      let all = got.current
      if all.count != threads { wrong.append("round \(round): \(all.count) results") }
      if let (object, serial) = all.first,
        !all.allSatisfy({ $0.0 === object && $0.1 == serial })
      {
        wrong.append("round \(round): a .scoped instance was made twice in one scope")
      }
      if !noMakingIsLeft(in: scope) { wrong.append("round \(round): a making was left") }
      scope.close()
      // The threads' closures, which may outlive this round a little, hold no object.
      got.withLock { $0 = [] }
    }
    #expect(wrong.isEmpty, "\(wrong.prefix(5))")
    #expect(objectCalls.value == rounds)
    #expect(valueCalls.value == rounds)
    #expect(ledger.made == 2 * rounds)
    #expect(ledger.cleaned.count == 2 * rounds)
    #expect(Set(ledger.cleaned).count == 2 * rounds)
    // Every object freed; the values (structs) count as made and are never freed.
    #expect(ledger.alive == rounds)
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func closingWhileTheFirstRequestMakesFailsItDropsTheInstanceOnceAndLeaksNothing()
    async throws
  {
    let ledger = PRLedger()
    let gate = Gate()
    let made = WeakBox<AnyObject>()
    let container = DIContainer()
    container.register { () -> RSCObject in
      let object = RSCObject(ledger)
      made.object = object
      gate.passBlocking()
      return object
    }
    .lifetime(.scoped).onClean { ledger.noteCleaned($0.serial) }
    container.register { RSCBottom(ledger) }.lifetime(.scoped)
      .onClean { ledger.noteCleaned($0.serial) }
    let scope = container.makeScope()
    let bottom: RSCBottom = try scope.tryResolve()
    let codes = LockedValue<[DIError.Code?]>([])
    let threads = Task {
      await runThreads(3, timeout: TestEnvironment.limit(30)) { _ in
        let code = rscResolve(RSCObject.self, in: scope).failure?.code
        codes.withLock { $0.append(code) }
      }
    }
    try #require(await gate.waitForArrivals(1), "no thread reached the factory")
    // Time for the other threads to wait for the making.
    try await Task.sleep(for: .milliseconds(30))
    scope.close()
    #expect(ledger.cleaned == [bottom.serial])
    gate.open()
    try #require(await threads.value, "requests in a scope closed while making hung")
    #expect(codes.current.count == 3)
    #expect(codes.current.allSatisfy { $0 == .scopeClosed }, "\(codes.current)")
    // Made once, its hook run once, and freed.
    #expect(gate.count == 1)
    #expect(ledger.made == 2)
    #expect(ledger.cleaned == [bottom.serial, 2])
    #expect(await rscEventually { made.object == nil })
    #expect(noMakingIsLeft(in: scope))
    scope.close()
    #expect(ledger.cleaned.count == 2)
    // Later scopes work (reusing this state once it is let go).
    for _ in 0..<2 {
      let next = container.makeScope()
      let fresh: RSCObject = try next.tryResolve()
      #expect(try next.tryResolve() as RSCObject === fresh)
      next.close()
      #expect(ledger.cleaned.last == fresh.serial)
    }
    #expect(gate.count == 3)
    #expect(ledger.cleaned.count == 4)
    withExtendedLifetime(bottom) {}
    #expect(ledger.alive == 1)
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func shutdownWhileTheFirstRequestMakesRunsEachHookOnce() async throws {
    let ledger = PRLedger()
    let gate = Gate()
    let container = DIContainer()
    container.register { () -> RSCObject in
      gate.passBlocking()
      return RSCObject(ledger)
    }
    .lifetime(.scoped).onClean { ledger.noteCleaned($0.serial) }
    container.register { RSCBottom(ledger) }.lifetime(.scoped)
      .onClean { ledger.noteCleaned($0.serial) }
    let scope = container.makeScope()
    let bottom: RSCBottom = try scope.tryResolve()
    let outcome = LockedValue<Result<RSCObject, DIError>?>(nil)
    let thread = Task {
      await runOnThread(timeout: TestEnvironment.limit(30)) {
        let result = rscResolve(RSCObject.self, in: scope)
        outcome.withLock { $0 = result }
      }
    }
    try #require(await gate.waitForArrivals(1))
    await container.shutdown()
    #expect(ledger.cleaned == [bottom.serial])
    gate.open()
    #expect(await thread.value, "the request hung")
    let code = outcome.current?.failure?.code
    #expect(code == .scopeClosed || code == .containerShutDown, "\(String(describing: code))")
    scope.close()
    #expect(ledger.made == 2)
    #expect(ledger.cleaned.count == 2)
    #expect(Set(ledger.cleaned).count == 2)
    #expect(noMakingIsLeft(in: scope))
    withExtendedLifetime(bottom) {}
    #expect(ledger.alive == 1)
  }

  // MARK: - Child containers

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func aChildScopeKeepsOneInstanceOfItsParentsScopedComponent() async throws {
    let ledger = PRLedger()
    let calls = Counter()
    let parent = DIContainer()
    parent.register { () -> RSCObject in
      calls.next()
      usleep(100)
      return RSCObject(ledger)
    }
    .lifetime(.scoped).onClean { ledger.noteCleaned($0.serial) }
    let child = DIContainer(parent: parent)
    child.register { RSCHolder(object: $0, ledger) }.lifetime(.scoped)
      .onClean { ledger.noteCleaned($0.serial) }

    let scope = child.makeScope()
    let object: RSCObject = try scope.tryResolve()
    let holder: RSCHolder = try scope.tryResolve()
    #expect(holder.object === object)
    #expect(try scope.tryResolve() as RSCObject === object)
    #expect(try scope.tryResolve() as RSCHolder === holder)
    let parentScope = parent.makeScope()
    let parentObject: RSCObject = try parentScope.tryResolve()
    #expect(parentObject !== object)
    #expect(calls.value == 2)
    #expect(noMakingIsLeft(in: scope) && noMakingIsLeft(in: parentScope))
    scope.close()
    #expect(ledger.cleaned == [holder.serial, object.serial])
    parentScope.close()
    #expect(ledger.cleaned == [holder.serial, object.serial, parentObject.serial])

    // Threads making their first request of the parent's component in a child scope.
    let racing = child.makeScope()
    let got = LockedValue<[RSCObject]>([])
    let finished = await runThreads(4, timeout: TestEnvironment.limit(30)) { index in
      let result: Result<RSCObject, DIError> =
        index.isMultiple(of: 2)
        ? rscResolve(RSCObject.self, in: racing)
        : rscResolve(RSCHolder.self, in: racing).map(\.object)
      if case .success(let object) = result { got.withLock { $0.append(object) } }
    }
    try #require(finished, "first requests in a child scope hung")
    let objects = got.current
    #expect(objects.count == 4)
    #expect(objects.allSatisfy { $0 === objects.first })
    #expect(calls.value == 3)
    #expect(noMakingIsLeft(in: racing))
    racing.close()
    #expect(ledger.cleaned.count == 5)
    #expect(Set(ledger.cleaned).count == 5)
  }

  // MARK: - Async

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func asyncRequestsInAScopeShareItsScopedInstances() async throws {
    let ledger = PRLedger()
    let asyncCalls = Counter()
    let container = DIContainer()
    container.register { RSCObject(ledger) }.lifetime(.scoped)
      .onClean { ledger.noteCleaned($0.serial) }
    container.register { () async -> RSCAsyncThing in
      asyncCalls.next()
      try? await Task.sleep(for: .milliseconds(2))
      return RSCAsyncThing(ledger)
    }
    .lifetime(.scoped).onClean { ledger.noteCleaned($0.serial) }
    let scope = container.makeScope()
    // A synchronous `.scoped` component's first request is async.
    let object: RSCObject = try await scope.resolveAsync()
    #expect(try scope.tryResolve() as RSCObject === object)
    #expect(try await scope.resolveAsync() as RSCObject === object)
    // Tasks racing for the async one's first request.
    let things = try await withThrowingTaskGroup(of: RSCAsyncThing.self) { group in
      for _ in 0..<6 {
        group.addTask { try await scope.resolveAsync() }
      }
      return try await group.reduce(into: [RSCAsyncThing]()) { $0.append($1) }
    }
    #expect(things.count == 6)
    #expect(things.allSatisfy { $0 === things.first })
    #expect(asyncCalls.value == 1)
    // A synchronous request gets the instance made.
    #expect(try scope.tryResolve() as RSCAsyncThing === things.first)
    #expect(noMakingIsLeft(in: scope))
    scope.close()
    #expect(ledger.cleaned == [things.first?.serial, object.serial].compactMap { $0 })

    // withScope: the same, closed at its end.
    let (inside, cleanedBefore) = try await container.withScope { scope in
      let first: RSCObject = try await scope.resolveAsync()
      let second: RSCObject = try await scope.resolveAsync()
      #expect(first === second)
      return (first.serial, ledger.cleaned.count)
    }
    #expect(ledger.cleaned.count == cleanedBefore + 1)
    #expect(ledger.cleaned.last == inside)
  }
}

extension Result {
  /// The error, when it failed.
  fileprivate var failure: Failure? {
    if case .failure(let error) = self { return error }
    return nil
  }
}
