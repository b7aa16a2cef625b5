import DIContainer
import DITestSupport
import Testing

@Suite struct LifetimeTests {
  @Test func prototypeIsTheDefaultAndMakesANewInstanceEachTime() {
    let container = DIContainer()
    container.register(Cat.init)
    let first: Cat = container.resolve()
    let second: Cat = container.resolve()
    #expect(first !== second)
  }

  @Test func objectGraphSharesOneInstanceWithinOneResolve() {
    let container = DIContainer()
    container.register(Owner.init).lifetime(.objectGraph)
    container.register { Family(first: $0, second: $1) }
    let family: Family = container.resolve()
    let other: Family = container.resolve()
    #expect(family.first === family.second)
    #expect(family.first !== other.first)
  }

  @Test func perContainerSingleIsOnePerContainerAndDroppedByClean() {
    let container = DIContainer()
    container.register(Cat.init).lifetime(.perContainer(.single))
    let first: Cat = container.resolve()
    let again: Cat = container.resolve()
    #expect(first === again)

    let otherContainer = DIContainer()
    otherContainer.register(Cat.init).lifetime(.perContainer(.single))
    let fromOther: Cat = otherContainer.resolve()
    #expect(fromOther !== first)

    container.clean()
    let afterClean: Cat = container.resolve()
    #expect(afterClean !== first)
  }

  @Test func perContainerSingleKeepsItsInstanceWhenNobodyElseDoes() {
    let container = DIContainer()
    container.register(Cat.init).lifetime(.perContainer(.single))
    weak var weakCat: Cat?
    do {
      let cat: Cat = container.resolve()
      weakCat = cat
    }
    #expect(weakCat != nil)
    container.clean()
    #expect(weakCat == nil, "clean() drops the container's reference")
  }

  @Test func perContainerWeakIsReusedWhileHeldAndReleasedAfter() {
    let container = DIContainer()
    container.register(Cat.init).lifetime(.perContainer(.weak))
    weak var weakCat: Cat?
    do {
      let cat: Cat = container.resolve()
      let again: Cat = container.resolve()
      #expect(cat === again)
      weakCat = cat
    }
    #expect(weakCat == nil, "the container does not keep a .weak instance")
    let fresh: Cat = container.resolve()
    #expect(fresh !== weakCat)
  }

  @Test func oneInstanceAcrossServicesForWeakToo() {
    let container = DIContainer()
    container.register(Cat.init).as(Animal.self).lifetime(.perContainer(.weak))
    let cat: Cat = container.resolve()
    let animal: Animal = container.resolve()
    #expect(cat === animal)
  }

  @Test func aWeakValueTypeIsNotShared() {
    let container = DIContainer()
    let counter = Counter()
    container.register { counter.next() }.lifetime(.perContainer(.weak))
    let first: Int = container.resolve()
    let second: Int = container.resolve()
    #expect(first != second)
  }

  @Test func cleanDoesNotDropOtherLifetimes() {
    let container = DIContainer()
    container.register(Owner.init).lifetime(.perFramework(.single))
    container.register(Food.init).lifetime(.perPart(.single))
    let owner: Owner = container.resolve()
    let food: Food = container.resolve()
    container.clean()
    let ownerAgain: Owner = container.resolve()
    let foodAgain: Food = container.resolve()
    #expect(owner === ownerAgain)
    #expect(food === foodAgain)
  }

  @Test func aLifetimeCanBeChangedBeforeUse() {
    let container = DIContainer()
    let builder = container.register(Cat.init)
    let prototype1: Cat = container.resolve()
    builder.lifetime(.perContainer(.single))
    let single1: Cat = container.resolve()
    let single2: Cat = container.resolve()
    #expect(prototype1 !== single1)
    #expect(single1 === single2)
  }
}

/// Process-wide lifetimes share state between containers, so these tests run one at a
/// time and each uses its own registration site.
@Suite(.serialized) struct ApplicationLifetimeTests {
  static func registerSharedCat(in container: DIContainer, _ lifetime: DILifetime) {
    container.register(Cat.init).lifetime(lifetime)  // one registration site for all
  }

  @Test func perApplicationSingleIsSharedByContainersAndSurvivesClean() {
    let first = DIContainer()
    let second = DIContainer()
    Self.registerSharedCat(in: first, .perApplication(.single))
    Self.registerSharedCat(in: second, .perApplication(.single))
    let fromFirst: Cat = first.resolve()
    let fromSecond: Cat = second.resolve()
    #expect(fromFirst === fromSecond)
    first.clean()
    let afterClean: Cat = first.resolve()
    #expect(afterClean === fromFirst)
  }

  @Test func perApplicationWeakIsReleasedWhenNobodyHoldsIt() {
    let container = DIContainer()
    container.register(Dog.init).lifetime(.perApplication(.weak))
    weak var weakDog: Dog?
    do {
      let dog: Dog = container.resolve()
      let again: Dog = DIContainerTestsSupport.resolveDogFromANewContainer()
      #expect(dog !== again, "another registration site is another registration")
      weakDog = dog
    }
    #expect(weakDog == nil)
  }

  @Test func singleIsCreatedByInitializeSingletonObjects() {
    let container = DIContainer()
    let created = Counter()
    container.register { () -> Toy in
      created.next()
      return Toy()
    }
    .lifetime(.single)
    #expect(created.value == 0)
    container.initializeSingletonObjects()
    #expect(created.value == 1)
    let toy: Toy = container.resolve()
    let again: Toy = container.resolve()
    #expect(toy === again)
    container.clean()
    let afterClean: Toy = container.resolve()
    #expect(afterClean === toy)
    #expect(created.value == 1)
  }

  @Test func singleWithoutInitializeBehavesAsPerApplicationSingle() {
    let container = DIContainer()
    let created = Counter()
    container.register { () -> Bowl in
      created.next()
      return Bowl()
    }
    .lifetime(.single)
    #expect(created.value == 0)
    let bowl: Bowl = container.resolve()
    let again: Bowl = container.resolve()
    #expect(created.value == 1)
    #expect(bowl === again)
  }
}

enum DIContainerTestsSupport {
  static func resolveDogFromANewContainer() -> Dog {
    let container = DIContainer()
    container.register(Dog.init).lifetime(.perApplication(.weak))
    return container.resolve()
  }
}

final class Family {
  let first: Owner
  let second: Owner
  init(first: Owner, second: Owner) {
    self.first = first
    self.second = second
  }
}
