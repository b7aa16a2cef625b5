import DIContainer
import DIFrameworks
import DITestSupport
import Foundation
import Testing

// SPEC.md, "Overrides, defaults and inspection": `withOverrides` works like a child container
// bound to the task; cached instances made inside are the level's and are dropped (hooks run)
// when `operation` returns or throws.

protocol SOClock: Sendable { var now: Int { get } }
struct SOSystemClock: SOClock { let now = 1 }
struct SOFixedClock: SOClock { let now = 42 }
struct SOOtherClock: SOClock { let now = 7 }
struct SOValueClock: SOClock { let now: Int }

final class SOReport: Sendable {
  let clock: any SOClock
  init(clock: any SOClock) { self.clock = clock }
}

final class SOCachedThing: Sendable {
  let id: Int
  init(id: Int) { self.id = id }
}

protocol SOPlugin: Sendable { var name: String { get } }
struct SOPluginA: SOPlugin { let name = "A" }
struct SOPluginB: SOPlugin { let name = "B" }
struct SOPluginFake: SOPlugin { let name = "fake" }

struct SOOverrideFailure: Error, Equatable { let reason: String }

enum SOClockFramework: DIFramework {
  static func load(container: DIContainer) {
    container.register(SOSystemClock.init).as(SOClock.self)
    container.register(SOReport.init)
  }
}

@Suite struct SOOverrideLevelSpecTests {
  private func makeContainer() -> DIContainer {
    let container = DIContainer()
    container.register(SOSystemClock.init).as(SOClock.self)
    container.register(SOReport.init)
    return container
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func parallelTasksEachSeeTheirOwnOverridesOnOneContainer() async throws {
    let container = makeContainer()
    let gate = Gate()
    let seen = try await withThrowingTaskGroup(of: (Int, Int).self) { group in
      for value in 100..<108 {
        group.addTask {
          try await container.withOverrides { c in
            c.register { SOValueClock(now: value) }.as(SOClock.self)
          } operation: {
            await gate.pass()  // every task is inside its own override at once
            let report: SOReport = try await container.resolveAsync()
            return (value, report.clock.now)
          }
        }
      }
      group.addTask {
        // A task with no override, resolving while eight overrides are active.
        await gate.pass()
        let report: SOReport = try await container.resolveAsync()
        return (0, report.clock.now)
      }
      try await gate.awaitArrivals(9)
      gate.open()
      return try await group.reduce(into: [Int: Int]()) { $0[$1.0] = $1.1 }
    }
    #expect(seen[0] == 1, "a task without overrides sees the container's clock")
    for value in 100..<108 { #expect(seen[value] == value, "task \(value) sees its own clock") }
    let after: SOReport = try await container.resolveAsync()
    #expect(after.clock.now == 1)
  }

  @Test func nestedOverridesStackAndTheOuterOneComesBack() async throws {
    let container = makeContainer()
    container.register(SOPluginA.init).as(SOPlugin.self)
    try await container.withOverrides { c in
      c.register(SOFixedClock.init).as(SOClock.self)
    } operation: {
      try await container.withOverrides { c in
        c.register(SOPluginFake.init).as(SOPlugin.self)
      } operation: {
        let report: SOReport = try await container.resolveAsync()
        let plugin: SOPlugin = try await container.resolveAsync()
        #expect(report.clock.now == 42, "the outer override is still seen inside the inner one")
        #expect(plugin.name == "fake")
      }
      try await container.withOverrides { c in
        c.register(SOOtherClock.init).as(SOClock.self)
      } operation: {
        let report: SOReport = try await container.resolveAsync()
        #expect(report.clock.now == 7, "the inner override beats the outer one")
      }
      let report: SOReport = try await container.resolveAsync()
      let plugin: SOPlugin = try await container.resolveAsync()
      #expect(report.clock.now == 42, "back to the outer override")
      #expect(plugin.name == "A", "the inner override is gone")
    }
    let report: SOReport = try await container.resolveAsync()
    #expect(report.clock.now == 1)
  }

  @Test func cachedInstancesMadeInsideAreTheLevelsAndDroppedWithHooksWhenOperationReturns()
    async throws
  {
    let container = DIContainer()
    let made = Counter()
    let cleaned = EventLog<Int>()
    container.register { SOCachedThing(id: made.next()) }.lifetime(.perContainer(.single))
      .onClean { thing in cleaned.append(thing.id) }
    let outside: SOCachedThing = try await container.resolveAsync()
    let inside: SOCachedThing = try await container.withOverrides { c in
      c.register { SOCachedThing(id: 100 + made.next()) }.lifetime(.perContainer(.single))
        .onClean { thing in cleaned.append(thing.id) }
    } operation: {
      let first: SOCachedThing = try await container.resolveAsync()
      let second: SOCachedThing = try await container.resolveAsync()
      #expect(first === second, "cached on the override level")
      #expect(cleaned.all.isEmpty)
      return first
    }
    #expect(inside.id == 102)
    #expect(cleaned.all == [102], "the level's instance is dropped, hook run, at the end")
    let again: SOCachedThing = try await container.resolveAsync()
    #expect(again === outside, "the container's own cached instance stays")
  }

  @Test func cachedInstancesMadeInsideAreDroppedWhenOperationThrows() async throws {
    let container = DIContainer()
    let cleaned = Counter()
    let asyncCleaned = Signal()
    let error = await #expect(throws: SOOverrideFailure.self) {
      try await container.withOverrides { c in
        c.register { SOCachedThing(id: 1) }.lifetime(.perContainer(.single))
          .onClean { _ in cleaned.next() }
        c.register { SOReport(clock: SOFixedClock()) }.lifetime(.perContainer(.single))
          .onClean { _ in
            await Task.yield()
            asyncCleaned.signal()
          }
      } operation: {
        let _: SOCachedThing = try await container.resolveAsync()
        let _: SOReport = try await container.resolveAsync()
        throw SOOverrideFailure(reason: "inside")
      }
    }
    #expect(error == SOOverrideFailure(reason: "inside"), "the operation's error, unchanged")
    #expect(cleaned.value == 1)
    #expect(asyncCleaned.value == 1, "async hooks are awaited before withOverrides returns")
  }

  @Test func aThrowingOverridesClosureRethrowsAndLeavesNoOverrideBehind() async throws {
    let container = makeContainer()
    let ran = Flag()
    let error = await #expect(throws: SOOverrideFailure.self) {
      try await container.withOverrides { c in
        c.register(SOFixedClock.init).as(SOClock.self)
        throw SOOverrideFailure(reason: "overrides")
      } operation: {
        ran.raise()
      }
    }
    #expect(error == SOOverrideFailure(reason: "overrides"))
    #expect(!ran.isRaised, "operation does not run when overrides throws")
    let report: SOReport = try await container.resolveAsync()
    #expect(report.clock.now == 1)
  }

  @Test func childTasksSeeTheOverridesButDetachedTasksDoNot() async throws {
    let container = makeContainer()
    try await container.withOverrides { c in
      c.register(SOFixedClock.init).as(SOClock.self)
    } operation: {
      async let child: SOReport = container.resolveAsync()
      let unstructured = Task { try await container.resolveAsync() as SOReport }
      let detached = Task.detached { try await container.resolveAsync() as SOReport }
      let grouped = try await withThrowingTaskGroup(of: Int.self) { group in
        group.addTask { (try await container.resolveAsync() as SOReport).clock.now }
        return try await group.next()
      }
      #expect(try await child.clock.now == 42, "async let")
      #expect(try await unstructured.value.clock.now == 42, "Task { }")
      #expect(grouped == 42, "task group")
      #expect(try await detached.value.clock.now == 1, "Task.detached does not see the level")
    }
  }

  @Test func delayedValuesMadeInsideKeepTheOverrides() async throws {
    let container = makeContainer()
    let outsideLazy: Lazy<SOReport> = try container.tryResolve()
    try await container.withOverrides { c in
      c.register(SOFixedClock.init).as(SOClock.self)
    } operation: {
      let lazy: Lazy<SOReport> = try await container.resolveAsync()
      let provider: Provider<SOReport> = try await container.resolveAsync()
      let asyncLazy: AsyncLazy<SOReport> = try await container.resolveAsync()
      let asyncProvider: AsyncProvider<SOReport> = try await container.resolveAsync()
      #expect(synchronously { lazy.value.clock.now } == 42, "Lazy made inside")
      #expect(synchronously { provider.value.clock.now } == 42, "Provider made inside")
      #expect(try await asyncLazy.value.clock.now == 42, "AsyncLazy made inside")
      #expect(try await asyncProvider.value.clock.now == 42, "AsyncProvider made inside")
      #expect(
        synchronously { outsideLazy.value.clock.now } == 1,
        "a Lazy made before the operation keeps the container without the overrides")
    }
  }

  @Test func requestScopesOpenedInsideSeeTheOverridesAndAreClosedAtTheEnd() async throws {
    let container = makeContainer()
    let cleaned = Counter()
    container.register { SOCachedThing(id: 5) }.lifetime(.scoped)
      .onClean { _ in cleaned.next() }
    try await container.withOverrides { c in
      c.register(SOFixedClock.init).as(SOClock.self)
    } operation: {
      let scope = container.makeScope()  // left open on purpose
      let report: SOReport = try await scope.resolveAsync()
      #expect(report.clock.now == 42, "a prototype resolved in a scope opened inside")
      let first: SOCachedThing = try await scope.resolveAsync()
      #expect(first === (try await scope.resolveAsync() as SOCachedThing))
      let viaWithScope = try await container.withScope { scope in
        let _: SOCachedThing = try await scope.resolveAsync()
        return (try await scope.resolveAsync() as SOReport).clock.now
      }
      #expect(viaWithScope == 42, "withScope inside resolves with the overrides")
      #expect(cleaned.value == 1, "withScope closed its own scope")
    }
    #expect(cleaned.value == 2, "the scope left open inside is closed when operation returns")
  }

  @Test func manyInsideAnOverrideCollectsTheLevelsThenTheContainers() async throws {
    let container = DIContainer()
    container.register(SOPluginA.init).as(SOPlugin.self)
    container.register(SOPluginB.init).as(SOPlugin.self)
    let names = try await container.withOverrides { c in
      c.register(SOPluginFake.init).as(SOPlugin.self)
    } operation: {
      let all: [SOPlugin] = many(try await container.resolveAsync())
      return all.map(\.name)
    }
    #expect(names == ["fake", "A", "B"])
    let all: [SOPlugin] = many(try await container.resolveAsync())
    #expect(all.map(\.name) == ["A", "B"])
  }

  @Test func aParentsPrototypeResolvedThroughAChildSeesAnOverrideOfTheChild() async throws {
    let parent = makeContainer()
    let child = DIContainer(parent: parent)
    let report: SOReport = try await child.withOverrides { c in
      c.register(SOFixedClock.init).as(SOClock.self)
    } operation: {
      try await child.resolveAsync()
    }
    #expect(report.clock.now == 42, "the parent's prototype Report is built with the override")
    let inParent: SOReport = try await parent.withOverrides { _ in
    } operation: {
      try await parent.resolveAsync()
    }
    #expect(inParent.clock.now == 1)
  }

  @Test func overridingOnAChildIsNotSeenByTheParentInsideTheOperation() async throws {
    let parent = makeContainer()
    let child = DIContainer(parent: parent)
    try await child.withOverrides { c in
      c.register(SOFixedClock.init).as(SOClock.self)
    } operation: {
      let fromChild: SOReport = try await child.resolveAsync()
      let fromParent: SOReport = try await parent.resolveAsync()
      #expect(fromChild.clock.now == 42)
      #expect(fromParent.clock.now == 1, "overrides of a child never reach its parent")
    }
  }

  @Test func anOverrideNeverLeaksIntoAContainersCachedInstance() async throws {
    let container = DIContainer()
    container.register(SOSystemClock.init).as(SOClock.self)
    container.register(SOReport.init).lifetime(.perContainer(.single))
    let inside: SOReport = try await container.withOverrides { c in
      c.register(SOFixedClock.init).as(SOClock.self)
    } operation: {
      try await container.resolveAsync()
    }
    #expect(inside.clock.now == 1, "the container's cached Report is made from its own Clock")
    let outside: SOReport = try await container.resolveAsync()
    #expect(outside === inside, "and stays the container's after the operation")
  }

  @Test func resolvingFromAFrameworkInsideAnOverrideSeesTheOverride() async throws {
    let container = DIContainer()
    container.append(framework: SOClockFramework.self)
    let report: SOReport = try await container.withOverrides { c in
      c.register(SOFixedClock.init).as(SOClock.self)
    } operation: {
      try await container.resolveAsync(from: SOClockFramework.self)
    }
    #expect(report.clock.now == 42)
    let synchronous = try synchronousOverrideFromFramework(container)
    #expect(synchronous.clock.now == 42)
    let plain: SOReport = try container.tryResolve(from: SOClockFramework.self)
    #expect(plain.clock.now == 1)
  }

  /// The synchronous form run as synchronous code does: on a thread of its own (so that
  /// waiting for another thread inside `operation` holds no thread of the cooperative pool).
  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func theSynchronousFormDropsItsInstancesWithHooksAndIsNotSeenByOtherThreads() async throws {
    let container = makeContainer()
    let cleaned = Counter()
    let otherThread = LockedValue<Int?>(nil)
    let results = LockedValue<(inside: Int?, cleanedInside: Int?, cleanedAfter: Int?)>(
      (nil, nil, nil))
    let finished = Signal()
    let outer = Thread {
      let inside: Int? = try? container.withOverrides { c in
        c.register(SOFixedClock.init).as(SOClock.self)
        c.register { SOCachedThing(id: 9) }.lifetime(.perContainer(.single))
          .onClean { _ in cleaned.next() }
      } operation: {
        let done = Signal()
        let inner = Thread {
          otherThread.set(try? (container.tryResolve() as SOReport).clock.now)
          done.signal()
        }
        inner.start()
        _ = done.waitBlocking()
        let _: SOCachedThing = try container.tryResolve()
        results.withLock { $0.cleanedInside = cleaned.value }
        return (try container.tryResolve() as SOReport).clock.now
      }
      results.withLock {
        $0.inside = inside
        $0.cleanedAfter = cleaned.value
      }
      finished.signal()
    }
    outer.start()
    #expect(await finished.wait())
    let seen = results.current
    #expect(seen.inside == 42, "a thread outside any task sees its own level")
    #expect(seen.cleanedInside == 0)
    #expect(otherThread.current == 1, "a thread started inside does not see the level")
    #expect(seen.cleanedAfter == 1, "synchronous hooks ran before withOverrides returned")
    let report: SOReport = try container.tryResolve()
    #expect(report.clock.now == 1)
  }

  private func synchronousOverrideFromFramework(_ container: DIContainer) throws -> SOReport {
    try container.withOverrides { c in
      c.register(SOFixedClock.init).as(SOClock.self)
    } operation: {
      try container.tryResolve(from: SOClockFramework.self)
    }
  }

  @Test func theSynchronousFormDropsItsInstancesWhenOperationThrows() {
    let container = makeContainer()
    let cleaned = Counter()
    #expect(throws: SOOverrideFailure.self) {
      try container.withOverrides { c in
        c.register { SOCachedThing(id: 9) }.lifetime(.perContainer(.single))
          .onClean { _ in cleaned.next() }
      } operation: {
        let _: SOCachedThing = try container.tryResolve()
        throw SOOverrideFailure(reason: "sync")
      }
    }
    #expect(cleaned.value == 1)
  }
}

@Suite struct SOOverrideLevelCachingSpecTests {
  @Test func eachParallelLevelCachesItsOwnInstanceAndDropsItOnce() async throws {
    let container = DIContainer()
    let cleaned = EventLog<Int>()
    let gate = Gate()
    let pairs = try await withThrowingTaskGroup(of: (Int, Int, Bool).self) { group in
      for value in 1...4 {
        group.addTask {
          try await container.withOverrides { c in
            c.register { SOCachedThing(id: value) }.lifetime(.perContainer(.single))
              .onClean { thing in cleaned.append(thing.id) }
          } operation: {
            await gate.pass()
            let first: SOCachedThing = try await container.resolveAsync()
            let second: SOCachedThing = try await container.resolveAsync()
            return (value, first.id, first === second)
          }
        }
      }
      try await gate.awaitArrivals(4)
      gate.open()
      return try await group.reduce(into: [(Int, Int, Bool)]()) { $0.append($1) }
    }
    for (value, id, same) in pairs {
      #expect(id == value, "each level its own instance")
      #expect(same, "cached within its level")
    }
    #expect(cleaned.all.sorted() == [1, 2, 3, 4], "each dropped once, when its operation ended")
  }

  @Test func theContainersOwnInstancesMadeInsideAreNotDroppedAtTheEnd() async throws {
    let container = DIContainer()
    let cleaned = Counter()
    container.register { SOCachedThing(id: 1) }.lifetime(.perContainer(.single))
      .onClean { _ in cleaned.next() }
    let inside: SOCachedThing = try await container.withOverrides { c in
      c.register(SOFixedClock.init).as(SOClock.self)
    } operation: {
      try await container.resolveAsync()
    }
    #expect(cleaned.value == 0, "first made inside, but the container's")
    #expect(try await container.resolveAsync() as SOCachedThing === inside)
  }

  @Test func aLevelsMultitonAndCustomScopeInstancesAreDroppedAtTheEnd() async throws {
    let container = DIContainer()
    let cleaned = EventLog<String>()
    let scope = DIScope(name: "SOOverrideLevelScope", storage: DICacheStorage())
    container.register(SOSystemClock.init).as(SOClock.self).lifetime(.custom(scope))
    let outer: SOClock = try await container.resolveAsync()
    try await container.withOverrides { c in
      c.register { SOCachedThing(id: arg($0)) }.lifetime(.multiton)
        .onClean { thing in cleaned.append("multiton \(thing.id)") }
      c.register { SOReport(clock: SOFixedClock()) }.lifetime(.custom(scope))
        .onClean { _ in cleaned.append("custom") }
    } operation: {
      let one: SOCachedThing = try await container.resolveAsync(arg: 1)
      #expect(one === (try await container.resolveAsync(arg: 1) as SOCachedThing))
      let _: SOCachedThing = try await container.resolveAsync(arg: 2)
      let report: SOReport = try await container.resolveAsync()
      #expect(report === (try await container.resolveAsync() as SOReport))
    }
    #expect(cleaned.all.sorted() == ["custom", "multiton 1", "multiton 2"])
    #expect(cleaned.all.first == "custom", "newest first")
    let again: SOClock = try await container.resolveAsync()
    #expect(again.now == outer.now)
  }

  @Test func aLevelInheritsTheContainersDefaultLifetime() async throws {
    let container = DIContainer(defaultLifetime: .perContainer(.single))
    let cleaned = Counter()
    try await container.withOverrides { c in
      c.register { SOCachedThing(id: 3) }.onClean { _ in cleaned.next() }
    } operation: {
      let first: SOCachedThing = try await container.resolveAsync()
      #expect(first === (try await container.resolveAsync() as SOCachedThing))
    }
    #expect(cleaned.value == 1, "cached by the inherited default and dropped at the end")
  }

  @Test func aLevelsInstancesAreDroppedNewestFirst() async throws {
    let container = DIContainer()
    let cleaned = EventLog<String>()
    try await container.withOverrides { c in
      c.register { SOCachedThing(id: 1) }.lifetime(.perContainer(.single))
        .onClean { _ in cleaned.append("thing") }
      c.register { (thing: SOCachedThing) in SOReport(clock: SOValueClock(now: thing.id)) }
        .lifetime(.perContainer(.single))
        .onClean { _ in cleaned.append("report") }
    } operation: {
      let _: SOReport = try await container.resolveAsync()
    }
    #expect(cleaned.all == ["report", "thing"], "dependents first")
  }

  @Test func anotherContainerIsUnaffectedInsideTheOperation() async throws {
    let first = DIContainer()
    first.register(SOSystemClock.init).as(SOClock.self)
    let second = DIContainer()
    second.register(SOSystemClock.init).as(SOClock.self)
    try await first.withOverrides { c in
      c.register(SOFixedClock.init).as(SOClock.self)
    } operation: {
      let overridden: SOClock = try await first.resolveAsync()
      let other: SOClock = try await second.resolveAsync()
      #expect(overridden.now == 42)
      #expect(other.now == 1)
    }
  }

  private func synchronousInnerOverride(_ container: DIContainer) throws -> (Int, String) {
    try container.withOverrides { c in
      c.register(SOPluginFake.init).as(SOPlugin.self)
    } operation: {
      (
        (try container.tryResolve() as SOReport).clock.now,
        (try container.tryResolve() as SOPlugin).name
      )
    }
  }

  @Test func theSynchronousFormNestsInsideTheAsyncForm() async throws {
    let container = DIContainer()
    container.register(SOSystemClock.init).as(SOClock.self)
    container.register(SOReport.init)
    container.register(SOPluginA.init).as(SOPlugin.self)
    let (now, name) = try await container.withOverrides { c in
      c.register(SOFixedClock.init).as(SOClock.self)
    } operation: {
      try synchronousInnerOverride(container)
    }
    #expect(now == 42, "the outer async level is seen by the inner synchronous one")
    #expect(name == "fake")
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func concurrentFirstRequestsInsideOneLevelMakeOneInstance() async throws {
    let container = DIContainer()
    let made = Counter()
    let ids = try await container.withOverrides { c in
      c.register { () async -> SOCachedThing in
        await Task.yield()
        return SOCachedThing(id: made.next())
      }
      .lifetime(.perContainer(.single))
    } operation: {
      try await withThrowingTaskGroup(of: ObjectIdentifier.self) { group in
        for _ in 0..<32 {
          group.addTask { ObjectIdentifier(try await container.resolveAsync() as SOCachedThing) }
        }
        return try await group.reduce(into: Set<ObjectIdentifier>()) { $0.insert($1) }
      }
    }
    #expect(ids.count == 1)
    #expect(made.value == 1)
  }
}

@Suite struct SOOverrideLevelChoiceSpecTests {
  @Test func aContainersObjectGraphComponentSeesTheOverrides() async throws {
    let container = DIContainer()
    container.register(SOSystemClock.init).as(SOClock.self)
    container.register(SOReport.init).lifetime(.objectGraph)
    let report: SOReport = try await container.withOverrides { c in
      c.register(SOFixedClock.init).as(SOClock.self)
    } operation: {
      try await container.resolveAsync()
    }
    #expect(report.clock.now == 42)
  }

  @Test func anOverridesPlainCandidateBeatsTheContainersTestAndDefaultOnes() async throws {
    let container = DIContainer()
    container.register(SOSystemClock.init).as(SOClock.self).test()
    container.register(SOOtherClock.init).as(SOClock.self).default()
    let clock: SOClock = try await container.withOverrides { c in
      c.register(SOFixedClock.init).as(SOClock.self)
    } operation: {
      try await container.resolveAsync()
    }
    #expect(clock.now == 42, "the level decides first")
  }

  @Test func twoCandidatesOnTheLevelWithoutADefaultAreAmbiguous() async throws {
    let container = DIContainer()
    container.register(SOSystemClock.init).as(SOClock.self)
    let error = await #expect(throws: DIError.self) {
      try await container.withOverrides { c in
        c.register(SOFixedClock.init).as(SOClock.self)
        c.register(SOOtherClock.init).as(SOClock.self)
      } operation: {
        let _: SOClock = try await container.resolveAsync()
      }
    }
    #expect(error?.code == .ambiguous)
  }

  @Test func addressedArgumentsReachTheLevelsComponents() async throws {
    let container = DIContainer()
    container.register { SOValueClock(now: arg($0)) }.as(SOClock.self)
    container.register(SOReport.init)
    let report: SOReport = try await container.withOverrides { c in
      c.register { SOValueClock(now: 1000 + arg($0)) }.as(SOClock.self)
    } operation: {
      try await container.resolveAsync(arguments: .for(SOClock.self, 5))
    }
    #expect(report.clock.now == 1005)
  }
}

@Suite struct SOScopedThroughChildSpecTests {
  /// SPEC, "Child containers": only a parent's `.prototype` and `.objectGraph` components see a
  /// child's registrations; "a parent's cached instances are made by the parent from the
  /// parent's registrations". A `.scoped` instance is cached (in the request scope), so a
  /// parent's `.scoped` component in a scope the child opened is built from the parent's.
  @Test func aParentsScopedComponentInAScopeOfAChildIsBuiltFromTheParents() async throws {
    let parent = DIContainer()
    parent.register(SOSystemClock.init).as(SOClock.self)
    parent.register { (clock: SOClock) in SOCachedThing(id: clock.now) }.lifetime(.scoped)
    parent.register(SOReport.init)
    let child = DIContainer(parent: parent)
    child.register(SOFixedClock.init).as(SOClock.self)
    let scope = child.makeScope()
    let thing: SOCachedThing = try await scope.resolveAsync()
    let report: SOReport = try await scope.resolveAsync()
    scope.close()
    #expect(thing.id == 1)
    #expect(report.clock.now == 42, "a prototype in the same scope sees the child's")
  }
}
