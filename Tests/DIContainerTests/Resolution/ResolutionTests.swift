import DIContainer
import DITestSupport
import Testing

@Suite struct ResolutionTests {
  @Test func everyResolutionFormOfTheSpecCompiles() throws {
    let container = DIContainer()
    container.register(Cat.init).as(Animal.self)
    container.register(Dog.init).as(Animal.self).as(Pet.self, tag: Indoor.self)
    container.register { Kitten(name: arg($0)) }.as(Pet.self)

    let cat: Cat = container.resolve()
    let cat2: Cat = *container
    let maybeCat: Cat? = container.resolve()
    let cats: [Animal] = many(container.resolve())
    let indoor: Pet = by(tag: Indoor.self, on: container.resolve())
    let cat3: Cat = try container.tryResolve()
    let mimi: Pet = container.resolve(arg: "Mimi")
    #expect(cat !== cat2)
    #expect(maybeCat != nil)
    #expect(cats.count == 2)
    #expect(indoor is Dog)
    #expect(cat3.isAwake == false)
    #expect((mimi as? Kitten)?.name == "Mimi")
  }

  @Test func runtimeArgumentsGoInOrderToArgParameters() {
    let container = DIContainer()
    container.register { Kitten(name: "\(arg($0) as String) x\(arg($1) as Int)") }
    let cat: Kitten = container.resolve(args: "Mimi", 3)
    #expect(cat.name == "Mimi x3")
  }

  @Test func aWrongArgumentTypeIsAnError() throws {
    let container = DIContainer()
    container.register { Kitten(name: arg($0)) }
    let error = #expect(throws: DIError.self) {
      let _: Kitten = try container.resolveThrowing(args: 42)
    }
    #expect(error?.reason == .wrongArgument(position: 1, expected: "String", actual: "Int"))
  }

  @Test func aMissingArgumentIsAnError() throws {
    let container = DIContainer()
    container.register { Kitten(name: arg($0)) }
    let error = #expect(throws: DIError.self) { let _: Kitten = try container.tryResolve() }
    #expect(error?.code == .missingArgument)
    #expect(error?.argumentPosition == 1)
    #expect(error?.path.map(\.requested) == ["Kitten"], "the path ends at the component")
    #expect(error?.description.contains("Kitten needs runtime argument 1 (String)") == true)
  }

  @Test func modifiersWorkInInitializerClosures() {
    let container = DIContainer()
    container.register(Cat.init).as(Animal.self)
    container.register(Dog.init).as(Animal.self).as(Pet.self, tag: Indoor.self)
    container.register {
      Shelter(animals: many($0), indoor: by(tag: Indoor.self, on: $1), owner: $2)
    }
    let shelter: Shelter = container.resolve()
    #expect(shelter.animals.count == 2)
    #expect(shelter.indoor is Dog)
    #expect(shelter.owner == nil, "an unregistered optional parameter is nil")
  }

  @Test func optionalParametersOfInitializerReferencesAreRecognized() {
    let container = DIContainer()
    container.register(Owner.init)
    container.register(House.init)
    let house: House = container.resolve()
    #expect(house.owner != nil)
    #expect(house.food == nil)
  }

  @Test func injectIntoRunsThePropertyInjectionsOfAnOutsideObject() {
    let container = DIContainer()
    container.register(Owner.init)
    container.register(Food.init)
    let hooks = Counter()
    container.register(Presenter.self)
      .injection(\.view)
      .injection(\.interactor)
      .postInit { _ in hooks.next() }
    let presenter = Presenter()
    container.inject(into: presenter)
    #expect(presenter.view != nil)
    #expect(presenter.interactor != nil)
    #expect(hooks.value == 1)
  }

  @Test func aComponentWithoutInitializerCannotBeResolved() {
    let container = DIContainer()
    container.register(Presenter.self)
    let error = #expect(throws: DIError.self) { let _: Presenter = try container.tryResolve() }
    #expect(error?.reason == .noInitializer)
  }

  @Test func aSingleTestCandidateWins() {
    let container = DIContainer()
    container.register(Cat.init).as(Animal.self).default()
    container.register(Dog.init).as(Animal.self).test()
    let animal: Animal = container.resolve()
    #expect(animal is Dog)
  }

  @Test func theDefaultCandidateWinsAmongSeveral() {
    let container = DIContainer()
    container.register(Cat.init).as(Animal.self)
    container.register(Dog.init).as(Animal.self).default()
    let animal: Animal = container.resolve()
    #expect(animal is Dog)
  }

  @Test func severalCandidatesWithoutPreferenceAreAmbiguous() throws {
    let container = DIContainer()
    container.register(Cat.init).as(Animal.self)
    container.register(Dog.init).as(Animal.self)
    let error = try #require(throws: DIError.self) { let _: Animal = try container.tryResolve() }
    guard case .ambiguous(let candidates) = error.reason else {
      Issue.record("expected ambiguous, got \(error.reason)")
      return
    }
    #expect(candidates.count == 2)
    #expect(candidates[0].hasPrefix("Cat (DIContainerTests/ResolutionTests.swift:"))
    let optional: Animal? = container.resolve()
    #expect(optional == nil, "an optional request of an ambiguous service is nil")
  }

  @Test func twoDefaultsAreStillAmbiguous() {
    let container = DIContainer()
    container.register(Cat.init).as(Animal.self).default()
    container.register(Dog.init).as(Animal.self).default()
    let animal: Animal? = container.resolve()
    #expect(animal == nil)
  }

  @Test func manyCollectsTaggedAndUntaggedCandidatesInRegistrationOrder() {
    let container = DIContainer()
    container.register(Dog.init).as(Animal.self, tag: Indoor.self)
    container.register(Cat.init).as(Animal.self)
    let all: [Animal] = many(container.resolve())
    #expect(all.count == 2)
    #expect(all.first is Dog)
    let indoor: [Animal] = many(by(tag: Indoor.self, on: container.resolve()))
    #expect(indoor.count == 1)
    let none: [Pet] = many(container.resolve())
    #expect(none.isEmpty)
  }

  @Test func anOptionalDependencyThatFailsFurtherDownIsStillAnError() {
    let container = DIContainer()
    container.register { Car(engine: $0, body: $1) }
    container.register(Engine.init)
    let error = #expect(throws: DIError.self) { let _: Car? = try container.tryResolve() }
    #expect(error?.reason == .notRegistered)
    #expect(error?.path.map(\.requested) == ["Car", "CarBody"])
  }

  @Test func aComponentThatDoesNotConformToItsServiceIsAnError() {
    let container = DIContainer()
    container.register(Owner.init).as(Animal.self)
    let error = #expect(throws: DIError.self) { let _: Animal = try container.tryResolve() }
    #expect(error?.reason == .notAService)
  }
}

final class Shelter {
  let animals: [Animal]
  let indoor: Pet
  let owner: Owner?
  init(animals: [Animal], indoor: Pet, owner: Owner?) {
    self.animals = animals
    self.indoor = indoor
    self.owner = owner
  }
}

final class House {
  let owner: Owner?
  let food: Food?
  init(owner: Owner?, food: Food?) {
    self.owner = owner
    self.food = food
  }
}

extension DIContainer {
  /// `resolve(args:)` as a throwing call, for tests of argument errors.
  fileprivate func resolveThrowing<T, A>(args argument: A) throws(DIError) -> T {
    try resolve(T.self, from: nil, arguments: [argument])
  }
}
