import DIContainer
import DITestSupport
import Dispatch
import Testing

@Suite struct ConcurrencyTests {
  @Test(arguments: [
    DILifetime.perContainer(.single), .scoped, .custom(DIScope(name: "CycleScope")),
  ])
  func twoThreadsEnteringACycleFromBothEndsEndWithoutDeadlockOrHalfBuiltObjects(
    _ lifetime: DILifetime
  ) {
    for _ in 0..<10 {
      let container = DIContainer()
      let xMade = DispatchSemaphore(value: 0)
      let yMade = DispatchSemaphore(value: 0)
      // Each factory waits until the other has run too, so both creations are under way
      // when their injections ask for each other.
      // Only the first making of each waits: a request refused at the loop leaves its
      // making to the other request, which then makes it without waiting.
      let xCount = Counter()
      let yCount = Counter()
      container.register { () -> CycleX in
        xCount.next()
        if xCount.value == 1 {
          xMade.signal()
          _ = yMade.wait(timeout: .now() + 5)
        }
        return CycleX()
      }
      .lifetime(lifetime).injection(\.y)
      container.register { () -> CycleY in
        yCount.next()
        if yCount.value == 1 {
          yMade.signal()
          _ = xMade.wait(timeout: .now() + 5)
        }
        return CycleY()
      }
      .lifetime(lifetime).injection(\.x)
      let scope = container.makeScope()
      let done = DispatchGroup()
      let outcomes = EventLog<String>()
      DispatchQueue.global().async(group: done) {
        do throws(DIError) {
          let x: CycleX = try scope.tryResolve()
          outcomes.append(x.y?.x === x ? "built" : "half-built")
        } catch {
          outcomes.append("\(error.code)")
        }
      }
      DispatchQueue.global().async(group: done) {
        do throws(DIError) {
          let y: CycleY = try scope.tryResolve()
          outcomes.append(y.x?.y === y ? "built" : "half-built")
        } catch {
          outcomes.append("\(error.code)")
        }
      }
      let finished = done.wait(timeout: .now() + TestEnvironment.limit(20)) == .success
      #expect(finished, "two threads resolving a cycle deadlocked (\(lifetime))")
      guard finished else { return }
      // Each thread got a whole object, or the error naming the loop between the two
      // requests; at least one got its object.
      #expect(outcomes.all.allSatisfy { $0 == "built" || $0 == "cycle" }, "\(outcomes.all)")
      #expect(outcomes.all.contains("built"))
      // Once both are done, the one X and the one Y hold each other.
      let x: CycleX = scope.resolve()
      let y: CycleY = scope.resolve()
      #expect(x.y === y)
      #expect(y.x === x)
      scope.close()
    }
  }

  @Test func concurrentFirstResolvesOfASingletonCreateOneInstance() {
    for _ in 0..<20 {
      let container = DIContainer()
      let created = Counter()
      container.register { () -> Owner in
        created.next()
        return Owner()
      }
      .lifetime(.perContainer(.single))
      let seen = EventLog<String>()
      DispatchQueue.concurrentPerform(iterations: 64) { _ in
        let owner: Owner = container.resolve()
        seen.append("\(ObjectIdentifier(owner).hashValue)")
      }
      #expect(created.value == 1)
      #expect(Set(seen.all).count == 1)
    }
  }

  /// A delayed value shares its resolution's object graph, whichever thread reads it:
  /// concurrent first reads of `Provider`s made in one graph find its one `.objectGraph`
  /// instance (and ThreadSanitizer sees the graph's lock).
  @Test func providersOfOneGraphReadOnManyThreadsShareItsInstance() {
    final class Holder: @unchecked Sendable {
      let owner: Owner
      let owners: [Provider<Owner>]
      let toys: [Provider<Toy>]
      init(owner: Owner, owners: [Provider<Owner>], toys: [Provider<Toy>]) {
        self.owner = owner
        self.owners = owners
        self.toys = toys
      }
    }
    for _ in 0..<20 {
      let container = DIContainer()
      container.register(Owner.init).lifetime(.objectGraph)
      container.register { (_: Owner) in Toy() }.lifetime(.prototype)
      container.register {
        (owner: Owner, a: Provider<Owner>, b: Provider<Owner>, c: Provider<Toy>, d: Provider<Toy>)
        in Holder(owner: owner, owners: [a, b], toys: [c, d])
      }
      let holder: Holder = container.resolve()
      let seen = EventLog<String>()
      DispatchQueue.concurrentPerform(iterations: 8) { index in
        _ = holder.toys[index % 2].value
        seen.append("\(holder.owners[index % 2].value === holder.owner)")
      }
      #expect(seen.all == Array(repeating: "true", count: 8))
    }
  }

  /// Reads of one `Provider` on many threads at once each build a whole graph: every read
  /// sees one instance of each `.objectGraph` component, even one that another read made
  /// at the same moment, and no factory's instance is made only to be dropped.
  @Test func concurrentReadsOfOneProviderEachSeeOneInstanceOfEachObjectGraphComponent() {
    final class Unit: Sendable {}
    final class Repository: Sendable {
      let unit: Unit
      init(unit: Unit) { self.unit = unit }
    }
    final class Handler: Sendable {
      let repository: Repository
      let unit: Unit
      init(repository: Repository, unit: Unit) {
        self.repository = repository
        self.unit = unit
      }
    }
    final class Holder: Sendable {
      let handlers: Provider<Handler>
      init(handlers: Provider<Handler>) { self.handlers = handlers }
    }
    for _ in 0..<TestEnvironment.rounds(2000) {
      let container = DIContainer()
      let units = Counter()
      container.register { () -> Unit in
        units.next()
        return Unit()
      }.lifetime(.objectGraph)
      container.register(Repository.init)
      container.register(Handler.init)
      container.register(Holder.init)
      let holder: Holder = container.resolve()
      let handlers = LockedValue<[Handler]>([])
      DispatchQueue.concurrentPerform(iterations: 8) { _ in
        let handler = holder.handlers.value
        handlers.withLock { $0.append(handler) }
      }
      let read = handlers.current
      #expect(read.allSatisfy { $0.unit === $0.repository.unit })
      #expect(Set(read.map { ObjectIdentifier($0.unit) }).count == units.value)
    }
  }

  /// A read of a `Provider` runs the postponed injections it made itself before it
  /// returns, whichever other reads of the graph run at once.
  @Test func concurrentReadsOfOneProviderEachFinishTheirOwnPostponedInjections() {
    final class Front: Sendable {
      let back = LockedValue<Back?>(nil)
    }
    final class Back: Sendable {
      let front: Front
      init(front: Front) { self.front = front }
    }
    final class Holder: Sendable {
      let backs: Provider<Back>
      init(backs: Provider<Back>) { self.backs = backs }
    }
    for _ in 0..<TestEnvironment.rounds(2000) {
      let container = DIContainer()
      container.register(Front.init).lifetime(.objectGraph)
        .injection(cycle: true) { (front: Front, back: Back) in front.back.set(back) }
      container.register(Back.init).lifetime(.objectGraph)
      container.register(Holder.init)
      let holder: Holder = container.resolve()
      let complete = LockedValue<[Bool]>([])
      DispatchQueue.concurrentPerform(iterations: 8) { _ in
        let back = holder.backs.value
        let finished = back.front.back.current === back
        complete.withLock { $0.append(finished) }
      }
      #expect(complete.current == Array(repeating: true, count: 8))
    }
  }

  @Test func resolvingWhileAnotherThreadRegistersAndCleans() {
    let container = DIContainer()
    container.register(Owner.init).lifetime(.perContainer(.single))
    container.register(Food.init)
    container.register { Family(first: $0, second: $1) }
    let failures = Counter()
    let splitFamilies = Counter()
    DispatchQueue.concurrentPerform(iterations: 4) { worker in
      for round in 0..<300 {
        if worker == 0 {
          container.register(Dog.init).as(Animal.self, tag: Indoor.self)
          if round.isMultiple(of: 10) { container.clean() }
        } else {
          let family: Family = container.resolve()
          let food: Food? = container.resolve()
          let dogs: [Animal] = many(container.resolve())
          if food == nil || dogs.count > 300 { failures.next() }
          // A clean() between Family's two Owner requests may rightly give two owners;
          // otherwise both are the container's one Owner.
          if family.first !== family.second { splitFamilies.next() }
        }
      }
    }
    #expect(failures.value == 0)
    // 30 cleans, each between the two requests of at most the three readers' families.
    #expect(splitFamilies.value <= 3 * 30, "\(splitFamilies.value) of 900 families split")
    let family: Family = container.resolve()
    #expect(family.first === family.second)
    let dogs: [Animal] = many(container.resolve())
    #expect(dogs.count == 300)
  }

  @Test func aSlowFactoryDoesNotStallUnrelatedResolves() {
    let container = DIContainer()
    let release = DispatchSemaphore(value: 0)
    let started = DispatchSemaphore(value: 0)
    container.register { () -> Owner in
      started.signal()
      release.wait()
      return Owner()
    }
    .lifetime(.perContainer(.single))
    container.register(Food.init).lifetime(.perContainer(.single))

    let slowDone = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      let _: Owner = container.resolve()
      slowDone.signal()
    }
    started.wait()
    let unrelatedDone = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      let _: Food = container.resolve()
      unrelatedDone.signal()
    }
    let unrelatedFinished =
      unrelatedDone.wait(timeout: .now() + TestEnvironment.limit(10)) == .success
    release.signal()
    slowDone.wait()
    #expect(unrelatedFinished, "an unrelated resolve waited for a slow factory")
  }

  @Test func aFactoryMayResolveOnAnotherThreadWithoutDeadlock() {
    let container = DIContainer()
    container.register(Food.init).lifetime(.perContainer(.single))
    container.register { () -> Owner in
      let done = DispatchSemaphore(value: 0)
      DispatchQueue.global().async {
        let _: Food = container.resolve()
        done.signal()
      }
      precondition(
        done.wait(timeout: .now() + TestEnvironment.limit(10)) == .success,
        "nested resolve deadlocked")
      return Owner()
    }
    .lifetime(.perContainer(.single))
    let finished = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      let _: Owner = container.resolve()
      finished.signal()
    }
    #expect(finished.wait(timeout: .now() + TestEnvironment.limit(20)) == .success)
  }

  @Test func concurrentWeakResolvesNeverReturnADeadInstance() {
    let container = DIContainer()
    container.register(Cat.init).lifetime(.perContainer(.weak))
    DispatchQueue.concurrentPerform(iterations: 8) { _ in
      for _ in 0..<500 {
        let cat: Cat = container.resolve()
        #expect(cat.toys.isEmpty)
      }
    }
    weak var weakCat: Cat?
    do {
      let cat: Cat = container.resolve()
      weakCat = cat
    }
    #expect(weakCat == nil)
  }
}

final class CycleX: @unchecked Sendable {
  var y: CycleY?
}

final class CycleY: @unchecked Sendable {
  var x: CycleX?
}
