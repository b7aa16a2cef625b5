import DIContainer
import Testing

@Suite struct RegistrationTests {
  @Test func everyRegistrationFormOfTheSpecCompilesAndResolves() throws {
    let container = DIContainer()
    container.register(Kitten.init(name:))
    container.register { "Mimi" }
    container.register(Cat.init)
    container.register { Dog() }
    container.register(Engine.init)
    container.register(CarBody.init)
    container.register { Car(engine: $0, body: $1) }
    container.register(Wheels.init)
    container.register(Bus.init(engine:wheels:))
    container.register(Presenter.self)

    let kitten: Kitten = container.resolve()
    #expect(kitten.name == "Mimi")
    let _: Cat = container.resolve()
    let _: Dog = container.resolve()
    let car: Car = container.resolve()
    let bus: Bus = container.resolve()
    #expect(bus.wheels != nil)
    #expect(car.engine !== bus.engine)
  }

  @Test func initializerWithManyParametersResolvesEachByType() {
    let container = DIContainer()
    container.register { 7 }
    container.register { "seven" }
    container.register { 7.5 }
    container.register(Owner.init)
    container.register(Toy.init)
    container.register(Food.init)
    container.register(Bowl.init)
    container.register { (a: Int, b: String, c: Double, d: Owner, e: Toy, f: Food, g: Bowl) in
      Summary(text: "\(a) \(b) \(c) \(type(of: d)) \(type(of: e)) \(type(of: f)) \(type(of: g))")
    }
    let summary: Summary = container.resolve()
    #expect(summary.text == "7 seven 7.5 Owner Toy Food Bowl")
  }

  @Test func theBuilderChainOfTheSpecConfiguresEverything() throws {
    let container = DIContainer()
    container.register(Owner.init)
    container.register(Toy.init)
    container.register(Toy.init)
    container.register(Food.init)
    container.register(Cat.init)
      .as(Animal.self)
      .as(Pet.self, tag: Indoor.self)
      .lifetime(.perContainer(.single))
      .injection(\.owner)
      .injection(\.toys) { many($0) }
      .injection { cat, food in cat.feed(food) }
      .injection(cycle: true, \.friend)
      .postInit { cat in cat.wakeUp() }
      .default()
      .test()
      .root()

    let cat: Cat = container.resolve()
    #expect(cat.owner != nil)
    #expect(cat.toys.count == 2)
    #expect(cat.food != nil)
    #expect(cat.friend === cat)
    #expect(cat.isAwake)
    #expect(cat.sawFriendWhenWaking, "postInit runs after the cycle-breaking injection")
    let animal: Animal = container.resolve()
    let pet: Pet = by(tag: Indoor.self, on: container.resolve())
    #expect(animal === cat)
    #expect(pet === cat)
  }

  @Test func asKeepsOneInstanceAcrossServices() {
    let container = DIContainer()
    container.register(Cat.init)
      .as(Animal.self)
      .as(Mammal.self)
      .as(Pet.self)
      .lifetime(.perContainer(.single))
    let cat: Cat = container.resolve()
    let animal: Animal = container.resolve()
    let mammal: Mammal = container.resolve()
    let pet: Pet = container.resolve()
    #expect(cat === animal)
    #expect(cat === mammal)
    #expect(cat === pet)
  }

  @Test func separateRegistrationsPerServiceMakeSeparateInstances() {
    let container = DIContainer()
    container.register { Cat() }.lifetime(.perContainer(.single))
    container.register { Cat() as Animal }.lifetime(.perContainer(.single))
    let cat: Cat = container.resolve()
    let animal: Animal = container.resolve()
    #expect(cat !== animal)
  }

  @Test func aTaggedServiceIsNotAPlainService() throws {
    let container = DIContainer()
    container.register(Cat.init).as(Pet.self, tag: Indoor.self)
    let plain: Pet? = container.resolve()
    #expect(plain == nil)
    let tagged: Pet = by(tag: Indoor.self, on: container.resolve())
    #expect(tagged is Cat)
    let other: DIByTag<Outdoor, Pet>? = container.resolve()
    #expect(other == nil)
  }

  @Test func postInitRunsAfterInjections() {
    let container = DIContainer()
    container.register(Owner.init)
    container.register(Food.init)
    container.register(Presenter.init)
      .injection(\.view)
      .injection(\.interactor)
      .postInit { presenter in
        precondition(presenter.view != nil && presenter.interactor != nil)
      }
    let presenter: Presenter = container.resolve()
    #expect(presenter.view != nil)
  }

  @Test func registrationRecordsItsFileAndLine() throws {
    let container = DIContainer()
    let line = #line + 1
    container.register { Car(engine: $0, body: $1) }
    let error = #expect(throws: DIError.self) { let _: Car = try container.tryResolve() }
    #expect(error?.description.contains("RegistrationTests.swift:\(line)") == true)
  }
}

struct Summary {
  let text: String
}
