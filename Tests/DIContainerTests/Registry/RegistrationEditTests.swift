import DIContainer
import DITestSupport
import Testing

/// A builder edit after the registration was compiled (after a resolve): a compiled
/// registration keeps its draft in its component only, so the edit starts from that
/// draft again and must lose nothing of it, its instances' cells included.
@Suite struct RegistrationEditTests {
  @Test func aServiceAddedAfterAResolveSharesTheInstanceAlreadyMade() {
    let container = DIContainer()
    let builder = container.register(Cat.init).lifetime(.perContainer(.single))
    let cat: Cat = container.resolve()
    builder.as(Pet.self)
    let pet: Pet = container.resolve()
    #expect(pet === cat)
    let again: Cat = container.resolve()
    #expect(again === cat)
  }

  @Test func aLifetimeSetBackAfterAResolveFindsItsCellsInstance() {
    let container = DIContainer()
    let builder = container.register(Cat.init).lifetime(.perContainer(.single))
    let first: Cat = container.resolve()
    builder.lifetime(.prototype)
    let made: Cat = container.resolve()
    let madeAgain: Cat = container.resolve()
    #expect(made !== first)
    #expect(madeAgain !== made)
    builder.lifetime(.perContainer(.single))
    let kept: Cat = container.resolve()
    #expect(kept === first)
  }

  @Test func aMultitonsInstancesSurviveAnEditAfterAResolve() {
    let container = DIContainer()
    let builder = container.register { Counted(number: arg($0)) }.lifetime(.multiton)
    let one: Counted = container.resolve(arg: 1)
    let two: Counted = container.resolve(arg: 2)
    builder.as(Numbered.self)
    let oneAgain: Counted = container.resolve(arg: 1)
    let twoAsService: Numbered = container.resolve(arg: 2)
    #expect(oneAgain === one)
    #expect(twoAsService === two)
  }

  @Test func aCustomScopesInstanceSurvivesAnEditAfterAResolve() {
    let container = DIContainer()
    let scope = DIScope(name: "session")
    let builder = container.register(Cat.init).lifetime(.custom(scope))
    let cat: Cat = container.resolve()
    builder.as(Animal.self)
    let animal: Animal = container.resolve()
    #expect(animal === cat)
    container.clean(scope: "session")
    let fresh: Cat = container.resolve()
    #expect(fresh !== cat)
  }

  @Test func editsBeforeAndAfterAResolveAllCount() {
    let container = DIContainer()
    let cats = container.register(Cat.init).lifetime(.perContainer(.single))
    let dogs = container.register(Dog.init).lifetime(.perContainer(.single))
    let cat: Cat = container.resolve()
    // Two edits of one compiled registration before the next snapshot, none of the other.
    cats.as(Pet.self)
    cats.as(Animal.self)
    let dog: Dog = container.resolve()
    let pet: Pet = container.resolve()
    let animal: Animal = container.resolve()
    #expect(pet === cat)
    #expect(animal === cat)
    dogs.as(Animal.self, tag: Dog.self)
    let taggedDog: Animal = by(tag: Dog.self, on: container.resolve())
    #expect(taggedDog === dog)
    let dogAgain: Dog = container.resolve()
    #expect(dogAgain === dog)
  }

  @Test func anEditAfterAResolveKeepsTheRegistrationsPlaceAndHooks() throws {
    let container = DIContainer()
    let cleaned = Counter()
    let builder = container.register(Cat.init).lifetime(.perContainer(.single))
      .onClean { _ in cleaned.next() }
    let cat: Cat = container.resolve()
    builder.as(Pet.self)
    container.register { Kitten(name: "Tom") }.as(Pet.self)
    let pets: [Pet] = many(container.resolve())
    #expect(pets.count == 2)
    #expect(pets.first === cat)
    container.clean()
    #expect(cleaned.value == 1)
    let error = try #require(throws: DIError.self) {
      let _: Toy = try container.tryResolve()
    }
    #expect(error.code == .notRegistered)
  }
}

/// A service of ``Counted``.
private protocol Numbered: AnyObject {}

/// An object made from a runtime argument.
private final class Counted: Numbered {
  let number: Int
  init(number: Int) { self.number = number }
}
