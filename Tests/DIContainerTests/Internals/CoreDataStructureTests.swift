// The atomic `Locked`, the move of a
// stored class instance out of its `Any`, the one-pass service table, and newest-first
// teardowns. Concurrent tests run on threads of their own with deadlines.

import DIContainer
import DITestSupport
import Foundation
import Testing

// MARK: - Fixtures

/// An ordered, thread-safe log (NSLock: visible to ThreadSanitizer).
private final class R24Log: @unchecked Sendable {
  private let lock = NSLock()
  private var items: [String] = []
  func add(_ item: String) { lock.withLock { items.append(item) } }
  var all: [String] { lock.withLock { items } }
}

private protocol R24Named { var name: String { get } }
private protocol R24ClassNamed: AnyObject { var name: String { get } }

private class R24Base: PRCounted, R24Named, R24ClassNamed, @unchecked Sendable {
  let name: String
  init(_ name: String, _ ledger: PRLedger) {
    self.name = name
    super.init(ledger)
  }
}
private final class R24Leaf: R24Base, @unchecked Sendable {}
private final class R24Box<Payload>: PRCounted, @unchecked Sendable {
  let payload: Payload
  init(_ payload: Payload, _ ledger: PRLedger) {
    self.payload = payload
    super.init(ledger)
  }
}
private struct R24Value: R24Named { let name: String }

/// Takes the same service several ways in one graph.
private final class R24Holder: PRCounted, @unchecked Sendable {
  let a: R24Leaf
  let b: R24Leaf
  let base: R24Base
  let named: any R24Named
  let classNamed: any R24ClassNamed
  let optional: R24Leaf?
  init(
    a: R24Leaf, b: R24Leaf, base: R24Base, named: any R24Named, classNamed: any R24ClassNamed,
    optional: R24Leaf?, _ ledger: PRLedger
  ) {
    (self.a, self.b, self.base, self.named, self.classNamed, self.optional) =
      (a, b, base, named, classNamed, optional)
    super.init(ledger)
  }
}

private enum R24TagA {}
private enum R24TagB {}
private protocol R24Plugin { var name: String { get } }
private struct R24P: R24Plugin { let name: String }
private struct R24Other1 {}
private struct R24Other2 {}
private struct R24Other3 {}
private struct R24Other4 {}

/// Chain for teardown order: C needs B needs A.
private final class R24A: @unchecked Sendable {
  let id: Int
  init(_ id: Int) { self.id = id }
}
private final class R24B: @unchecked Sendable {
  let a: R24A
  init(a: R24A) { self.a = a }
}
private final class R24C: @unchecked Sendable {
  let b: R24B
  init(b: R24B) { self.b = b }
}
private final class R24M: @unchecked Sendable {
  let key: Int
  init(_ key: Int) { self.key = key }
}
private final class R24S1: @unchecked Sendable {}
private final class R24S2: @unchecked Sendable {}
private final class R24S3: @unchecked Sendable {}

// MARK: - 1. Locked

@Suite("Locked: contention, parking and broadcasts")
struct LockedContentionTests {
  @Test("exclusion under heavy contention with holders that sleep (forces parking)")
  func exclusionWithParking() async {
    let locked = Locked(LockTally())
    let threads = 6
    let rounds = TestEnvironment.rounds(3_000, minimum: 300)
    let finished = await runThreads(threads, timeout: TestEnvironment.limit(60)) { index in
      for round in 0..<rounds {
        locked.withLock { tally in
          // Now and then hold it long enough that others spin out and park.
          tally.turn { if round % 97 == index { usleep(200) } }
        }
      }
    }
    #expect(finished, "a thread parked for the lock was never woken")
    let tally = locked.withLock { $0 }
    #expect(tally.overlaps == 0)
    #expect(tally.count == threads * rounds)
  }

  @Test("a waiter letting go of the lock wakes threads parked for it")
  func waiterReleaseWakesParked() async {
    for _ in 0..<TestEnvironment.rounds(30, minimum: 10) {
      let locked = Locked((flag: false, entered: 0))
      let finished = await runThreads(4, timeout: TestEnvironment.limit(20)) { index in
        if index == 0 {
          locked.withLockWaiting { value, waiter in
            // Hold the lock long enough that the others park (state 2), then wait:
            // only the wait's release can wake them.
            usleep(20_000)
            while !value.flag { waiter.wait() }
          }
        } else {
          usleep(2_000)
          locked.withLock { $0.entered += 1 }
          if index == 3 {
            // The last one in sets the flag once all three got the lock.
            while locked.withLock({ $0.entered }) < 3 { usleep(100) }
            locked.withLock { $0.flag = true }
            locked.broadcast()
          }
        }
      }
      #expect(finished, "parked threads stayed parked while the holder waited")
      if !finished { return }
    }
  }

  @Test("a broadcast between a waiter's check and its wait is not lost (ping-pong)")
  func pingPong() async {
    let locked = Locked(0)
    let target = TestEnvironment.rounds(3_000, minimum: 300)
    let finished = await runThreads(2, timeout: TestEnvironment.limit(60)) { index in
      // Thread 0 moves even values to odd, thread 1 odd to even.
      while true {
        let done = locked.withLockWaiting { value, waiter -> Bool in
          while value < target && value % 2 != index { waiter.wait() }
          if value >= target { return true }
          value += 1
          return false
        }
        locked.broadcast()
        if done { return }
      }
    }
    #expect(finished, "a broadcast was lost")
    #expect(locked.withLock { $0 } == target)
  }

  @Test("many waiters and many contenders on one lock all finish")
  func waitersAndContenders() async {
    let locked = Locked((count: 0, released: false))
    let rounds = TestEnvironment.rounds(2_000, minimum: 200)
    let finished = await runThreads(8, timeout: TestEnvironment.limit(60)) { index in
      if index < 4 {
        for _ in 0..<rounds { locked.withLock { $0.count += 1 } }
        let last = locked.withLock { value -> Bool in
          value.count >= 4 * rounds
        }
        if last {
          locked.withLock { $0.released = true }
          locked.broadcast()
        }
      } else {
        locked.withLockWaiting { value, waiter in
          while !value.released { waiter.wait() }
        }
      }
    }
    #expect(finished)
    #expect(locked.withLock { $0.count } == 4 * rounds)
  }
}

// MARK: - 2. Moving a stored instance out of its Any

@Suite("A stored instance moved out of its Any")
struct StoredInstanceMoveTests {
  private func holderContainer(_ lifetime: DILifetime, _ ledger: PRLedger) -> DIContainer {
    let container = DIContainer()
    container.register { R24Leaf("leaf", ledger) }
      .as(R24Base.self).as(R24Named.self).as(R24ClassNamed.self)
      .lifetime(lifetime)
    container.register {
      R24Holder(a: $0, b: $1, base: $2, named: $3, classNamed: $4, optional: $5, ledger)
    }
    return container
  }

  private func checkHolder(_ holder: R24Holder) {
    let id = ObjectIdentifier(holder.a)
    #expect(ObjectIdentifier(holder.b) == id)
    #expect(ObjectIdentifier(holder.base) == id)
    #expect(ObjectIdentifier(holder.classNamed) == id)
    #expect(ObjectIdentifier(holder.named as AnyObject) == id)
    #expect(holder.optional.map(ObjectIdentifier.init) == id)
    #expect(holder.a.name == "leaf" && holder.named.name == "leaf")
  }

  @Test(
    "cached lifetimes: one object for its class, superclass, protocols and Optional; no leak",
    arguments: [
      DILifetime.objectGraph, .perContainer(.single), .perContainer(.weak),
    ])
  func cachedLifetimes(_ lifetime: DILifetime) {
    let ledger = PRLedger()
    do {
      let container = holderContainer(lifetime, ledger)
      for _ in 0..<50 {
        let holder: R24Holder = container.resolve()
        checkHolder(holder)
        let direct: R24Leaf = container.resolve()
        let optional: R24Leaf? = container.resolve()
        #expect(optional != nil)
        if case .objectGraph = lifetime {
        } else {
          #expect(optional.map(ObjectIdentifier.init) == ObjectIdentifier(direct))
          #expect(ObjectIdentifier(direct) == ObjectIdentifier(holder.a))
        }
      }
      container.clean()
    }
    #expect(ledger.alive == 0, "a reference moved out of an Any was leaked")
  }

  @Test("scoped: moved out of the scope's storage, freed at close, hooks see a live object")
  func scoped() {
    let ledger = PRLedger()
    let log = R24Log()
    do {
      let container = DIContainer()
      container.register { R24Leaf("leaf", ledger) }
        .as(R24Base.self).as(R24Named.self).as(R24ClassNamed.self)
        .lifetime(.scoped)
        .onClean { leaf in log.add(leaf.name) }
      container.register {
        R24Holder(a: $0, b: $1, base: $2, named: $3, classNamed: $4, optional: $5, ledger)
      }
      for _ in 0..<50 {
        let scope = container.makeScope()
        let first: R24Leaf = scope.resolve()
        let second: R24Leaf = scope.resolve()
        #expect(ObjectIdentifier(first) == ObjectIdentifier(second))
        let holder: R24Holder = scope.resolve()
        checkHolder(holder)
        #expect(ObjectIdentifier(holder.a) == ObjectIdentifier(first))
        scope.close()
      }
    }
    #expect(log.all.count == 50)
    #expect(ledger.alive == 0)
  }

  @Test("multiton, custom scope, perApplication, generic class: counts balance")
  func otherLifetimes() {
    let ledger = PRLedger()
    do {
      let container = DIContainer()
      let session = DIScope(name: "R24Session", storage: DICacheStorage(), policy: .single)
      container.register { R24Box<Int>(arg($0), ledger) }.lifetime(.multiton)
      container.register { R24Box<String>("s", ledger) }.lifetime(.custom(session))
      container.register { R24Box<[Int]>([1], ledger) }.lifetime(.perContainer(.single))
      for _ in 0..<20 {
        let a: R24Box<Int> = container.resolve(arg: 1)
        let b: R24Box<Int> = container.resolve(arg: 1)
        let c: R24Box<Int> = container.resolve(arg: 2)
        #expect(ObjectIdentifier(a) == ObjectIdentifier(b))
        #expect(ObjectIdentifier(a) != ObjectIdentifier(c))
        #expect(a.payload == 1 && c.payload == 2)
        let s1: R24Box<String> = container.resolve()
        let s2: R24Box<String> = container.resolve()
        #expect(ObjectIdentifier(s1) == ObjectIdentifier(s2))
        let l1: R24Box<[Int]> = container.resolve()
        let l2: R24Box<[Int]> = container.resolve()
        #expect(ObjectIdentifier(l1) == ObjectIdentifier(l2) && l1.payload == [1])
      }
      #expect(ledger.made == 4)
      session.clean()
      container.clean()
    }
    #expect(ledger.alive == 0)
  }

  @Test("a service registered as a superclass (stored type is the superclass) asked as both")
  func storedAsSuperclass() {
    let ledger = PRLedger()
    do {
      let container = DIContainer()
      // Impl is R24Base; the object is an R24Leaf.
      container.register { () -> R24Base in R24Leaf("sub", ledger) }
        .lifetime(.perContainer(.single))
      for _ in 0..<20 {
        let base: R24Base = container.resolve()
        #expect(base is R24Leaf)
        let asLeaf: R24Leaf? = container.resolve()  // not registered as R24Leaf
        #expect(asLeaf == nil)
      }
      container.clean()
    }
    #expect(ledger.alive == 0)
  }

  @Test("value types and Any-typed services are cast as before")
  func valuesAndAny() {
    let container = DIContainer()
    container.register { R24Value(name: "v") }.as(R24Named.self).lifetime(.perContainer(.single))
    container.register { () -> Any in R24Value(name: "any") }.lifetime(.perContainer(.single))
    container.register { () -> AnyObject in R24S1() }.lifetime(.perContainer(.single))
    let value: R24Value = container.resolve()
    let named: any R24Named = container.resolve()
    #expect(value.name == "v" && named.name == "v")
    let any: Any = container.resolve()
    #expect((any as? R24Value)?.name == "any")
    let object1: AnyObject = container.resolve()
    let object2: AnyObject = container.resolve()
    #expect(ObjectIdentifier(object1) == ObjectIdentifier(object2))
    #expect(object1 is R24S1)
  }

  @Test("a scoped class resolved from many threads at once: one object, freed at close")
  func concurrentScoped() async {
    let ledger = PRLedger()
    let ids = LockedValue<Set<ObjectIdentifier>>([])
    do {
      let container = DIContainer()
      container.register { R24Leaf("leaf", ledger) }.as(R24Base.self).lifetime(.scoped)
      container.register { R24Box<Int>(7, ledger) }.lifetime(.perContainer(.single))
      for _ in 0..<TestEnvironment.rounds(40, minimum: 10) {
        let scope = container.makeScope()
        let finished = await runThreads(4, timeout: TestEnvironment.limit(20)) { _ in
          for _ in 0..<50 {
            let leaf: R24Leaf = scope.resolve()
            let base: R24Base = scope.resolve()
            let box: R24Box<Int> = scope.resolve()
            ids.withLock {
              $0.insert(ObjectIdentifier(leaf))
              $0.insert(ObjectIdentifier(base))
            }
            _ = box.payload
          }
        }
        #expect(finished)
        #expect(ids.current.count == 1)
        ids.withLock { $0.removeAll() }
        scope.close()
      }
      container.clean()
    }
    #expect(ledger.alive == 0)
  }
}

// MARK: - 3. The one-pass service table

@Suite("The one-pass service table")
struct ServiceTableTests {
  private func names(_ plugins: [any R24Plugin]) -> [String] { plugins.map(\.name) }

  @Test("many keeps registration order, interleaved with other keys")
  func manyOrder() {
    let container = DIContainer()
    container.register { R24P(name: "1") }.as(R24Plugin.self)
    container.register { R24Other1() }
    container.register { R24P(name: "2") }.as(R24Plugin.self)
    container.register { R24Other2() }
    container.register { R24Other3() }
    container.register { R24P(name: "3") }.as(R24Plugin.self)
    container.register { R24P(name: "4") }.as(R24Plugin.self)
    container.register { R24Other4() }
    container.register { R24P(name: "5") }.as(R24Plugin.self)
    let all: [any R24Plugin] = many(container.resolve())
    #expect(names(all) == ["1", "2", "3", "4", "5"])
    let none: (any R24Plugin)? = container.resolve()
    #expect(none == nil, "five candidates, no default: ambiguous")
  }

  @Test("tags, tag intersections and many with tagged components")
  func tags() {
    let container = DIContainer()
    container.register { R24P(name: "plain1") }.as(R24Plugin.self)
    container.register { R24P(name: "a") }.as(R24Plugin.self, tag: R24TagA.self)
    container.register { R24P(name: "ab") }
      .as(R24Plugin.self, tag: R24TagA.self).as(R24Plugin.self, tag: R24TagB.self)
    container.register { R24P(name: "plain2") }.as(R24Plugin.self)
    container.register { R24P(name: "b") }.as(R24Plugin.self, tag: R24TagB.self)
    let all: [any R24Plugin] = many(container.resolve())
    #expect(names(all) == ["plain1", "a", "ab", "plain2", "b"])
    let taggedA: [any R24Plugin] = many(by(tag: R24TagA.self, on: container.resolve()))
    #expect(names(taggedA) == ["a", "ab"])
    let taggedB: [any R24Plugin] = many(by(tag: R24TagB.self, on: container.resolve()))
    #expect(names(taggedB) == ["ab", "b"])
    let both: any R24Plugin = by(tags: R24TagA.self, R24TagB.self, on: container.resolve())
    #expect(both.name == "ab")
  }

  @Test("default and test candidates win wherever they were registered")
  func defaultAndTest() {
    let container = DIContainer()
    container.register { R24P(name: "1") }.as(R24Plugin.self)
    container.register { R24P(name: "2") }.as(R24Plugin.self).default()
    container.register { R24P(name: "3") }.as(R24Plugin.self)
    let chosen: any R24Plugin = container.resolve()
    #expect(chosen.name == "2")
    container.register { R24P(name: "4") }.as(R24Plugin.self).test()
    let tested: any R24Plugin = container.resolve()
    #expect(tested.name == "4")
    let all: [any R24Plugin] = many(container.resolve())
    #expect(names(all) == ["1", "2", "3", "4"])
  }

  @Test("registrations after a snapshot join in order; a child's come first")
  func laterAndChild() {
    let container = DIContainer()
    container.register { R24P(name: "1") }.as(R24Plugin.self)
    let single: any R24Plugin = container.resolve()
    #expect(single.name == "1")
    container.register { R24P(name: "2") }.as(R24Plugin.self)
    let ambiguous: (any R24Plugin)? = container.resolve()
    #expect(ambiguous == nil)
    let child = DIContainer(parent: container)
    child.register { R24P(name: "c1") }.as(R24Plugin.self)
    child.register { R24P(name: "c2") }.as(R24Plugin.self, tag: R24TagA.self)
    child.register { R24P(name: "c3") }.as(R24Plugin.self)
    let all: [any R24Plugin] = many(child.resolve())
    #expect(names(all) == ["c1", "c2", "c3", "1", "2"])
    let childOnly: (any R24Plugin)? = child.resolve()
    #expect(childOnly == nil, "two plain child candidates: ambiguous")
    container.register { R24P(name: "3") }.as(R24Plugin.self)
    let parentAll: [any R24Plugin] = many(container.resolve())
    #expect(names(parentAll) == ["1", "2", "3"])
  }
}

// MARK: - 4. Newest-first teardowns

@Suite("Teardowns run newest first")
struct TeardownOrderTests {
  private func chain(_ lifetime: DILifetime, _ log: R24Log) -> DIContainer {
    let container = DIContainer()
    container.register { R24A(0) }.lifetime(lifetime).onClean { _ in log.add("A") }
    container.register(R24B.init(a:)).lifetime(lifetime).onClean { _ in log.add("B") }
    container.register(R24C.init(b:)).lifetime(lifetime).onClean { _ in log.add("C") }
    return container
  }

  @Test("close(): a scope's hooks run newest first")
  func scopeClose() {
    let log = R24Log()
    let container = chain(.scoped, log)
    let scope = container.makeScope()
    let _: R24C = scope.resolve()
    scope.close()
    #expect(log.all == ["C", "B", "A"])
  }

  @Test("close(): creation order not dependency order (separate requests)")
  func scopeCloseSeparate() {
    let log = R24Log()
    let container = DIContainer()
    container.register { R24S1() }.lifetime(.scoped).onClean { _ in log.add("1") }
    container.register { R24S2() }.lifetime(.scoped).onClean { _ in log.add("2") }
    container.register { R24S3() }.lifetime(.scoped).onClean { _ in log.add("3") }
    let scope = container.makeScope()
    let _: R24S2 = scope.resolve()
    let _: R24S3 = scope.resolve()
    let _: R24S1 = scope.resolve()
    scope.close()
    #expect(log.all == ["1", "3", "2"])
  }

  @Test("closeAwaitingHooks(): async hooks newest first")
  func scopeCloseAwaiting() async throws {
    let log = R24Log()
    let container = DIContainer()
    container.register { R24S1() }.lifetime(.scoped)
      .onClean { (_: R24S1) async in
        try? await Task.sleep(for: .milliseconds(5))
        log.add("1")
      }
    container.register { R24S2() }.lifetime(.scoped)
      .onClean { (_: R24S2) async in log.add("2") }
    container.register { R24S3() }.lifetime(.scoped).onClean { _ in log.add("3") }
    let scope = container.makeScope()
    let _: R24S1 = try scope.tryResolve()
    let _: R24S3 = try scope.tryResolve()
    let _: R24S2 = try scope.tryResolve()
    await scope.closeAwaitingHooks()
    #expect(log.all == ["2", "3", "1"])
  }

  @Test("clean(): perContainer hooks newest first")
  func containerClean() {
    let log = R24Log()
    let container = chain(.perContainer(.single), log)
    let _: R24C = container.resolve()
    container.clean()
    #expect(log.all == ["C", "B", "A"])
  }

  @Test("multiton: instances made out of key order are cleaned newest first")
  func multiton() {
    let log = R24Log()
    let container = DIContainer()
    container.register { R24M(arg($0)) }.lifetime(.multiton)
      .onClean { m in log.add("m\(m.key)") }
    for key in [3, 1, 4, 2, 5] {
      let _: R24M = container.resolve(arg: key)
    }
    container.clean()
    #expect(log.all == ["m5", "m2", "m4", "m1", "m3"])
  }

  @Test("shutdown(): mixed lifetimes in reverse creation order, each hook once")
  func shutdownMixed() async throws {
    let log = R24Log()
    let container = DIContainer()
    container.register { R24S1() }.lifetime(.perContainer(.single)).onClean { _ in log.add("s1") }
    container.register { R24M(arg($0)) }.lifetime(.multiton)
      .onClean { m in log.add("m\(m.key)") }
    container.register { R24S2() }.lifetime(.perContainer(.single)).onClean { _ in log.add("s2") }
    container.register { R24S3() }.lifetime(.scoped).onClean { _ in log.add("s3") }
    let _: R24M = try container.tryResolve(arguments: [2])
    let _: R24S1 = try container.tryResolve()
    let scope = container.makeScope()
    let _: R24S3 = try scope.tryResolve()
    let _: R24M = try container.tryResolve(arguments: [1])
    let _: R24S2 = try container.tryResolve()
    await container.shutdown()
    #expect(log.all == ["s2", "m1", "s3", "s1", "m2"])
    scope.close()
    #expect(log.all.count == 5)
  }
}
