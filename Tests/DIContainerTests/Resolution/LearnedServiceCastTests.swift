// A component registered `as` a class-bound protocol learns, at the first request, the
// witness table of its objects' class for that protocol, and builds the existential from
// it afterwards (ServiceCast). These tests hold that every request still gets its own
// object as the service, through every lifetime's path, for objects of several classes,
// for the services that are not learned, under concurrent first requests, and that no
// object is leaked or freed early.

import DITestSupport
import Foundation
import Testing

@testable import DIContainer

/// Whether components learn witness tables: only with the runtime-layout reads in use (the
/// `RuntimeLayoutShortcuts` trait on, and the start-up check passed).
private var learnsCasts: Bool { UnsafeRuntimeLayout.checked }

private protocol LSNamed: AnyObject { var name: String { get } }
private protocol LSOther: AnyObject { var other: Int { get } }
private protocol LSPlain { var name: String { get } }

private class LSBase: PRCounted, LSNamed, LSOther, LSPlain, @unchecked Sendable {
  var name: String { "base" }
  var other: Int { 1 }
}
private final class LSSub: LSBase, @unchecked Sendable {
  override var name: String { "sub" }
  override var other: Int { 2 }
}
private final class LSStranger: PRCounted, @unchecked Sendable {}
private final class LSUser: PRCounted, @unchecked Sendable {
  let named: any LSNamed
  init(named: any LSNamed, _ ledger: PRLedger) {
    self.named = named
    super.init(ledger)
  }
}

@MainActor private final class LSMainOnly { nonisolated init() {} }
extension LSMainOnly: @MainActor LSNamed { var name: String { "main" } }

@Suite struct LearnedServiceCastTests {
  /// The learned cast of the one component providing `LSNamed` in `container`.
  private func learnedCast(in container: DIContainer) -> ServiceCast? {
    guard case .single(let component) = container.snapshot.lookUp(ServiceKey(LSNamed.self))
    else { return nil }
    return component.serviceCast(to: (any LSNamed).self)
  }

  @Test func aServiceKeepsItsObjectThroughEveryLifetime() {
    let lifetimes: [DILifetime] = [
      .prototype, .objectGraph, .perContainer(.single), .perContainer(.weak), .scoped,
    ]
    for lifetime in lifetimes {
      let ledger = PRLedger()
      let learned = resolveThrough(lifetime, ledger)
      #expect(learned == learnsCasts, "\(lifetime): a witness table was learned: \(learned)")
      // The container, its scope and every object are gone.
      #expect(ledger.alive == 0, "\(lifetime): an object built from a learned table was leaked")
    }
  }

  /// Resolves `LSNamed` directly and as a dependency, three times each, in a scope of a
  /// container where its component has `lifetime`; returns whether a table was learned.
  private func resolveThrough(_ lifetime: DILifetime, _ ledger: PRLedger) -> Bool {
    let container = DIContainer()
    container.register { LSBase(ledger) }.as(LSNamed.self).lifetime(lifetime)
    container.register { LSUser(named: $0, ledger) }
    let scope = container.makeScope()
    defer { scope.close() }
    for _ in 0..<3 {
      let user: LSUser = scope.resolve()
      let direct: any LSNamed = scope.resolve()
      #expect(user.named.name == "base", "\(lifetime)")
      #expect(direct.name == "base", "\(lifetime)")
      #expect(type(of: user.named) == LSBase.self, "\(lifetime)")
    }
    return learnedCast(in: container)?.witnessTable(of: ObjectIdentifier(LSBase.self)) != nil
  }

  @Test func theLearnedObjectIsTheCachedOneNotACopy() {
    let ledger = PRLedger()
    let container = DIContainer()
    container.register { LSBase(ledger) }.as(LSNamed.self).lifetime(.perContainer(.single))
    let first: any LSNamed = container.resolve()
    let second: any LSNamed = container.resolve()
    let exact: LSBase = container.resolve()
    #expect(ObjectIdentifier(first) == ObjectIdentifier(exact))
    #expect(ObjectIdentifier(second) == ObjectIdentifier(exact))
    #expect(ledger.made == 1)
  }

  @Test func objectsOfAnotherClassAreCastAsBefore() {
    let ledger = PRLedger()
    let container = DIContainer()
    let turn = LockedValue(0)
    container.register { () -> LSBase in
      let odd = turn.withLock { value -> Bool in
        value += 1
        return value % 2 == 1
      }
      return odd ? LSBase(ledger) : LSSub(ledger)
    }.as(LSNamed.self)
    do {
      // Each request makes one object: base, sub, base, … The first one's class is learned.
      var names: [String] = []
      for _ in 0..<6 {
        let named: any LSNamed = container.resolve()
        names.append(named.name)
      }
      #expect(names == ["base", "sub", "base", "sub", "base", "sub"])
      let cast = learnedCast(in: container)
      #expect((cast?.witnessTable(of: ObjectIdentifier(LSBase.self)) != nil) == learnsCasts)
      #expect(cast?.witnessTable(of: ObjectIdentifier(LSSub.self)) == nil)
    }
    #expect(ledger.made == 6)
    #expect(ledger.alive == 0)
  }

  @MainActor @Test func aConformanceIsolatedToAGlobalActorIsNotRecorded() {
    let ledger = PRLedger()
    let container = DIContainer()
    container.register { LSMainOnly() }.as(LSNamed.self)
    container.register { LSUser(named: $0, ledger) }
    for _ in 0..<2 {
      let user: LSUser = container.resolve()
      #expect(user.named.name == "main")
    }
    // Cast by the runtime at each request, which checks that it runs on the main actor.
    #expect(learnedCast(in: container)?.witnessTable(of: ObjectIdentifier(LSMainOnly.self)) == nil)
    #expect(ledger.alive == 0)
  }

  @Test func onlyExistentialsOfOneClassBoundProtocolAreLearned() {
    #expect((ServiceCast(to: (any LSNamed).self) != nil) == learnsCasts)
    #expect(ServiceCast(to: (any LSPlain).self) == nil)
    #expect(ServiceCast(to: (any LSNamed & LSOther).self) == nil)
    #expect(ServiceCast(to: (any LSBase & LSNamed).self) == nil)
    #expect(ServiceCast(to: (any Error).self) == nil)
    #expect(ServiceCast(to: AnyObject.self) == nil)
    #expect(ServiceCast(to: Any.self) == nil)
    #expect(ServiceCast(to: LSBase.self) == nil)
    #expect(ServiceCast(to: Int.self) == nil)
  }

  @Test func servicesThatAreNotLearnedStillResolve() {
    let ledger = PRLedger()
    let container = DIContainer()
    container.register { LSSub(ledger) }
      .as(LSPlain.self).as((any LSNamed & LSOther).self).as(LSBase.self).as(AnyObject.self)
    do {
      let plain: any LSPlain = container.resolve()
      let both: any LSNamed & LSOther = container.resolve()
      let base: LSBase = container.resolve()
      let object: AnyObject = container.resolve()
      #expect(plain.name == "sub")
      #expect(both.name == "sub" && both.other == 2)
      #expect(base.name == "sub")
      #expect(object is LSSub)
    }
    #expect(ledger.alive == 0)
  }

  @Test func aTaggedServiceIsLearnedToo() {
    enum Red {}
    let container = DIContainer()
    let ledger = PRLedger()
    container.register { LSSub(ledger) }.as(LSNamed.self, tag: Red.self)
    for _ in 0..<3 {
      let named: any LSNamed = by(tag: Red.self, on: container.resolve())
      #expect(named.name == "sub")
    }
    #expect(ledger.alive == 0)
  }

  @Test func anObjectThatIsNoServiceIsStillAnErrorAfterAGoodOne() {
    let container = DIContainer()
    let ledger = PRLedger()
    let turn = LockedValue(0)
    container.register { () -> AnyObject in
      let first = turn.withLock { value -> Bool in
        value += 1
        return value == 1
      }
      return first ? LSBase(ledger) : LSStranger(ledger)
    }.as(LSNamed.self)
    let good = Result { () throws(DIError) -> any LSNamed in try container.tryResolve() }
    let bad = Result { () throws(DIError) -> any LSNamed in try container.tryResolve() }
    #expect((try? good.get())?.name == "base")
    #expect(throws: DIError.self) { try bad.get() }
    if case .failure(let error) = bad {
      #expect(error.code == .notAService)
      #expect(error.description.contains("LSNamed"))
    }
  }

  @Test func concurrentFirstRequestsEachGetTheirObject() async {
    for _ in 0..<TestEnvironment.rounds(40, minimum: 5) {
      let ledger = PRLedger()
      let container = DIContainer()
      container.register { LSSub(ledger) }.as(LSNamed.self).as(LSOther.self)
      container.register { LSUser(named: $0, ledger) }
      let seen = LockedValue<[String]>([])
      let finished = await runThreads(4, timeout: TestEnvironment.limit(20)) { _ in
        for _ in 0..<50 {
          let user: LSUser = container.resolve()
          let other: any LSOther = container.resolve()
          seen.withLock { $0.append("\(user.named.name)\(other.other)") }
        }
      }
      #expect(finished)
      #expect(seen.current.count == 200)
      #expect(seen.current.allSatisfy { $0 == "sub2" })
      #expect(ledger.alive == 0)
    }
  }
}
