import DIContainer
import DIFrameworks
import DIParts
import Synchronization
import Testing

/// SPEC.md, "Lifetimes": every row of the table, `.weak` and `.single`, and prototype cycles.
/// The process-wide lifetimes are in ``SpecGlobalStateTests/ApplicationLifetimes``.
@Suite struct LifetimeSpecTests {
  protocol Animal: AnyObject {}
  final class Cat: Animal {}
  final class Owner {}
  final class Family {
    let first: Owner
    let second: Owner
    init(first: Owner, second: Owner) {
      self.first = first
      self.second = second
    }
  }

  @Test func prototypeIsTheDefaultAndMakesANewInstanceAtEveryRequest() {
    let container = DIContainer()
    container.register(Cat.init)
    container.register(Owner.init).lifetime(.prototype)
    container.register(Family.init)
    let first: Cat = container.resolve()
    let second: Cat = container.resolve()
    #expect(first !== second)
    let family: Family = container.resolve()
    #expect(family.first !== family.second)
  }

  final class Left {
    let right: Right
    init(right: Right) { self.right = right }
  }
  final class Right {
    var left: Left?
  }

  @Test func objectGraphBuildsACycle() throws {
    let container = DIContainer()
    container.register(Left.init)
    container.register(Right.init).lifetime(.objectGraph).injection(cycle: true, \.left)
    let right: Right = try container.tryResolve()
    let left = try #require(right.left)
    #expect(left.right === right)
    right.left = nil
  }

  @Test func perContainerSingleIsOnePerContainerAndDroppedByClean() {
    let container = DIContainer()
    container.register(Cat.init).lifetime(.perContainer(.single))
    let other = DIContainer()
    other.register(Cat.init).lifetime(.perContainer(.single))
    weak var weakCat: Cat?
    do {
      let cat: Cat = container.resolve()
      let again: Cat = container.resolve()
      let fromOther: Cat = other.resolve()
      #expect(cat === again)
      #expect(cat !== fromOther)
      weakCat = cat
    }
    #expect(weakCat != nil, "`.single`: the container keeps it while nobody else does")
    container.clean()
    #expect(weakCat == nil, "clean() drops it")
    let fresh: Cat = container.resolve()
    #expect(fresh !== weakCat)
  }

  final class Created: Sendable {
    let count = Atomic(0)
    var value: Int { count.load(ordering: .relaxed) }
  }

  final class Toy: Animal {
    init(_ created: Created) { created.count.add(1, ordering: .relaxed) }
  }

  @Test func perContainerWeakIsReusedWhileAnyoneHoldsItThenANewOneIsMade() {
    let container = DIContainer()
    let created = Created()
    container.register { Toy(created) }.as(Animal.self).lifetime(.perContainer(.weak))
    weak var weakToy: Toy?
    do {
      let toy: Toy = container.resolve()
      let again: Toy = container.resolve()
      let animal: Animal = container.resolve()
      #expect(toy === again)
      #expect(toy === animal)
      weakToy = toy
    }
    #expect(created.value == 1, "reused while anyone holds it")
    #expect(weakToy == nil, "the container does not keep a .weak object")
    let fresh: Toy = container.resolve()
    #expect(created.value == 2, "then a new one is made")
    let freshAgain: Toy = container.resolve()
    #expect(fresh === freshAgain)
  }

  // MARK: - perFramework, perPart

  enum CatPart: DIPart {
    static func load(container: DIContainer) {
      container.register(Cat.init).lifetime(.perPart(.single))
    }
  }

  enum WeakCatPart: DIPart {
    static func load(container: DIContainer) {
      container.register(Owner.init).lifetime(.perPart(.weak))
    }
  }

  enum FirstFramework: DIFramework {
    static func load(container: DIContainer) {
      container.register(Cat.init).lifetime(.perFramework(.single))
    }
  }

  enum SecondFramework: DIFramework {
    static func load(container: DIContainer) {
      container.register(Cat.init).lifetime(.perFramework(.single))
    }
  }

  enum WeakFramework: DIFramework {
    static func load(container: DIContainer) {
      container.register(Owner.init).lifetime(.perFramework(.weak))
    }
  }

  @Test func perFrameworkIsOnePerFrameworkAndDroppedByCleanFramework() {
    let container = DIContainer()
    container.append(framework: FirstFramework.self)
    container.append(framework: SecondFramework.self)
    weak var weakFirst: Cat?
    do {
      let first: Cat = container.resolve(from: FirstFramework.self)
      let firstAgain: Cat = container.resolve(from: FirstFramework.self)
      let second: Cat = container.resolve(from: SecondFramework.self)
      #expect(first === firstAgain)
      #expect(first !== second)
      weakFirst = first
    }
    container.clean()
    #expect(weakFirst != nil, "clean() does not drop .perFramework instances")
    let second: Cat = container.resolve(from: SecondFramework.self)
    container.clean(framework: FirstFramework.self)
    #expect(weakFirst == nil)
    let secondAgain: Cat = container.resolve(from: SecondFramework.self)
    #expect(second === secondAgain, "only FirstFramework's instance is dropped")
  }

  @Test func perFrameworkWeakIsReusedWhileHeld() {
    let container = DIContainer()
    container.append(framework: WeakFramework.self)
    weak var weakOwner: Owner?
    do {
      let owner: Owner = container.resolve()
      let again: Owner = container.resolve()
      #expect(owner === again)
      weakOwner = owner
    }
    #expect(weakOwner == nil)
  }

  @Test func perPartIsOnePerPartAndDroppedByCleanPart() {
    let container = DIContainer()
    container.append(part: CatPart.self)
    container.append(part: WeakCatPart.self)
    weak var weakCat: Cat?
    do {
      let cat: Cat = container.resolve()
      let again: Cat = container.resolve()
      #expect(cat === again)
      weakCat = cat
    }
    container.clean()
    #expect(weakCat != nil, "clean() does not drop .perPart instances")
    container.clean(part: CatPart.self)
    #expect(weakCat == nil)

    weak var weakOwner: Owner?
    do {
      let owner: Owner = container.resolve()
      let again: Owner = container.resolve()
      #expect(owner === again)
      weakOwner = owner
    }
    #expect(weakOwner == nil, ".perPart(.weak) is not kept")
  }

  // MARK: - multiton, custom

  final class Kitten {
    let name: String
    let age: Int
    init(name: String, age: Int = 0) {
      self.name = name
      self.age = age
    }
  }

  @Test func multitonIsOnePerDistinctSetOfRuntimeArguments() {
    let container = DIContainer()
    container.register { Kitten(name: arg($0)) }.lifetime(.multiton)
    let mimi: Kitten = container.resolve(arg: "Mimi")
    let mimiAgain: Kitten = container.resolve(arg: "Mimi")
    let mew: Kitten = container.resolve(arg: "Mew")
    #expect(mimi === mimiAgain)
    #expect(mimi !== mew)

    let other = DIContainer()
    other.register { Kitten(name: arg($0), age: arg($1)) }.lifetime(.multiton)
    let three: Kitten = other.resolve(args: "Mimi", 3)
    let threeAgain: Kitten = other.resolve(args: "Mimi", 3)
    let four: Kitten = other.resolve(args: "Mimi", 4)
    #expect(three === threeAgain)
    #expect(three !== four)
  }

  @Test func customIsOnePerCustomScope() {
    let container = DIContainer()
    let session = DIScope(name: "LifetimeSession")
    let other = DIScope(name: "LifetimeOther")
    container.register(Cat.init).lifetime(.custom(session))
    container.register(Owner.init).lifetime(.custom(other))
    container.register(Family.init).lifetime(.custom(name: "LifetimeSession"))
    let cat: Cat = container.resolve()
    let catAgain: Cat = container.resolve()
    #expect(cat === catAgain)
    let family: Family = container.resolve()
    session.clean()
    let afterClean: Cat = container.resolve()
    #expect(afterClean !== cat)
    let familyAfterClean: Family = container.resolve()
    #expect(familyAfterClean !== family, ".custom(name:) found the scope named LifetimeSession")
    #expect(familyAfterClean.first === family.first, "the other scope was not cleaned")
  }
}

extension SpecGlobalStateTests {
  /// `.perApplication` and `.single` keep instances for the whole process: run one at a time,
  /// each test with its own registration sites.
  @Suite struct ApplicationLifetimes {
    final class Created: Sendable {
      let count = Atomic(0)
    }

    final class Clock {
      init(_ created: Created) { created.count.add(1, ordering: .relaxed) }
    }

    static func registerApplicationClock(in container: DIContainer, _ created: Created) {
      container.register { Clock(created) }.lifetime(.perApplication(.single))
    }

    static func registerWeakApplicationClock(in container: DIContainer, _ created: Created) {
      container.register { Clock(created) }.lifetime(.perApplication(.weak))
    }

    static func registerSingleClock(in container: DIContainer, _ created: Created) {
      container.register { Clock(created) }.lifetime(.single)
    }

    static func registerLazySingleClock(in container: DIContainer, _ created: Created) {
      container.register { Clock(created) }.lifetime(.single)
    }

    static let applicationCreated = Created()
    static let weakApplicationCreated = Created()
    static let singleCreated = Created()
    static let lazySingleCreated = Created()

    @Test func perApplicationSingleIsOnePerRegistrationForTheProcessAndSurvivesClean() {
      let first = DIContainer()
      Self.registerApplicationClock(in: first, Self.applicationCreated)
      let second = DIContainer()
      Self.registerApplicationClock(in: second, Self.applicationCreated)
      #expect(Self.applicationCreated.count.load(ordering: .relaxed) <= 1, "created on first use")
      let clock: Clock = first.resolve()
      first.clean()
      let again: Clock = first.resolve()
      let fromSecond: Clock = second.resolve()
      #expect(clock === again, "clean() does not drop it")
      #expect(clock === fromSecond, "one per registration, whichever container")
      #expect(Self.applicationCreated.count.load(ordering: .relaxed) == 1)
    }

    @Test func perApplicationWeakIsReusedWhileHeld() {
      let container = DIContainer()
      Self.registerWeakApplicationClock(in: container, Self.weakApplicationCreated)
      weak var weakClock: Clock?
      do {
        let clock: Clock = container.resolve()
        let again: Clock = container.resolve()
        #expect(clock === again)
        weakClock = clock
      }
      #expect(weakClock == nil)
    }

    @Test func singleIsCreatedByInitializeSingletonObjects() {
      let container = DIContainer()
      Self.registerSingleClock(in: container, Self.singleCreated)
      let before = Self.singleCreated.count.load(ordering: .relaxed)
      container.initializeSingletonObjects()
      #expect(Self.singleCreated.count.load(ordering: .relaxed) == 1)
      #expect(before == 0)
      let clock: Clock = container.resolve()
      let again: Clock = container.resolve()
      #expect(clock === again)
      container.clean()
      let afterClean: Clock = container.resolve()
      #expect(afterClean === clock)
      #expect(Self.singleCreated.count.load(ordering: .relaxed) == 1)
    }

    @Test func singleWithoutInitializeSingletonObjectsBehavesAsPerApplicationSingle() {
      let container = DIContainer()
      Self.registerLazySingleClock(in: container, Self.lazySingleCreated)
      let other = DIContainer()
      Self.registerLazySingleClock(in: other, Self.lazySingleCreated)
      #expect(Self.lazySingleCreated.count.load(ordering: .relaxed) == 0, "created on first use")
      let clock: Clock = container.resolve()
      container.clean()
      let fromOther: Clock = other.resolve()
      #expect(clock === fromOther)
      #expect(Self.lazySingleCreated.count.load(ordering: .relaxed) == 1)
    }
  }
}
