import DIContainer
import Testing

/// SPEC.md, "Registration": both snippets verbatim, and what the prose beside them states.
@Suite struct RegistrationSpecTests {
  protocol Animal: AnyObject {}
  protocol Pet: AnyObject {}
  enum Indoor {}

  final class Owner {}
  final class Toy {}
  final class Food {}
  final class Engine {}
  final class Body {}
  final class Wheels {}
  final class View {}

  final class Cat: Animal, Pet {
    var owner: Owner?
    var toys: [Toy] = []
    var food: Food?
    weak var friend: Animal?
    var wakeUps = 0
    var friendWasSetAtWakeUp = false
    var toysAtWakeUp = 0

    init() {}

    func feed(_ food: Food) { self.food = food }

    func wakeUp() {
      wakeUps += 1
      friendWasSetAtWakeUp = friend != nil
      toysAtWakeUp = toys.count
    }
  }

  final class Dog {}

  final class Car {
    let engine: Engine
    let body: Body
    init(engine: Engine, body: Body) {
      self.engine = engine
      self.body = body
    }
  }

  final class Bus {
    let engine: Engine
    let wheels: Wheels?
    init(engine: Engine, wheels: Wheels) {
      self.engine = engine
      self.wheels = wheels
    }
    init(engine: Engine) {
      self.engine = engine
      self.wheels = nil
    }
  }

  final class Presenter {
    var view: View?
  }

  /// Twelve parameters: registration is not limited to a generated arity.
  final class Dashboard {
    let parts: [AnyObject]
    init(
      a: Engine, b: Body, c: Wheels, d: View, e: Owner, f: Toy, g: Food, h: Dog, i: Engine,
      j: Body, k: Wheels, l: View
    ) {
      parts = [a, b, c, d, e, f, g, h, i, j, k, l]
    }
  }

  final class Missing {}
  final class Named {
    let name: String
    init(name: String) { self.name = name }
  }

  /// Parameters of an initializer reference that are recognized by their type.
  final class Recognizer {
    let missing: Missing?
    let engine: Lazy<Engine>
    let body: Provider<Body>
    let named: Provider1<Named, String>
    init(
      missing: Missing?, engine: Lazy<Engine>, body: Provider<Body>, named: Provider1<Named, String>
    ) {
      self.missing = missing
      self.engine = engine
      self.body = body
      self.named = named
    }
  }

  @Test func everyRegistrationFormOfTheSpecResolves() throws {
    let container = DIContainer()
    container.register(Cat.init)  // initializer reference (Cat has one init)
    container.register { Dog() }  // closure
    container.register { Car(engine: $0, body: $1) }  // positional parameters are resolved
    container.register(Bus.init(engine:wheels:))  // full initializer name, when there are several
    // no initializer: instances come from outside (inject(into:))
    container.register(Presenter.self)

    container.register(Engine.init)
    container.register(Body.init)
    container.register(Wheels.init)

    let cat: Cat = container.resolve()
    let otherCat: Cat = container.resolve()
    #expect(cat !== otherCat, "the default lifetime is .prototype")
    let dog: Dog? = container.resolve()
    #expect(dog != nil)
    let car: Car = container.resolve()
    let otherCar: Car = container.resolve()
    #expect(car.engine !== otherCar.engine)
    let bus: Bus = container.resolve()
    #expect(bus.wheels != nil, "the initializer named in full is the one used")

    let existing = Presenter()
    container.inject(into: existing)
    let error = #expect(throws: DIError.self) {
      let _: Presenter = try container.tryResolve()
    }
    #expect(error?.reason == .noInitializer)
  }

  @Test func injectIntoRunsThePropertyInjectionsOfARegisterTypeComponent() {
    let container = DIContainer()
    container.register(View.init)
    container.register(Presenter.self).injection(\.view)
    let presenter = Presenter()
    container.inject(into: presenter)
    #expect(presenter.view != nil)
  }

  @Test func everyBuilderCallOfTheSpecChainsAndTakesEffect() throws {
    let container = DIContainer()
    container.register(Owner.init)
    container.register { Toy() }
    container.register { Toy() }
    container.register(Food.init)

    container.register(Cat.init)
      .as(Animal.self)  // service: resolvable as Animal too
      .as(Pet.self, tag: Indoor.self)  // service under a tag (any type is a tag)
      .lifetime(.perContainer(.single))
      .injection(\.owner)  // property injection by key path
      .injection(\.toys) { many($0) }  // with a modifier
      .injection { cat, food in cat.feed(food) }  // method injection
      .injection(cycle: true, \.friend)  // breaks a cycle: done after the graph is built
      .postInit { cat in cat.wakeUp() }  // after every injection, cyclic ones included
      .default()  // preferred among several candidates of a service
      .test()  // beats every other candidate, modularity included
      .root()  // an entry point of the graph (for validation)

    let cat: Cat = container.resolve()
    #expect(cat.owner != nil)
    #expect(cat.toys.count == 2)
    #expect(cat.food != nil)
    #expect(cat.friend === cat, "the cyclic injection resolved Animal: the same .single Cat")
    #expect(cat.wakeUps == 1)
    #expect(cat.friendWasSetAtWakeUp, "postInit runs after the cyclic injection")
    #expect(cat.toysAtWakeUp == 2)

    let animal: Animal = container.resolve()
    let pet: Pet = by(tag: Indoor.self, on: container.resolve())
    #expect(animal === cat)
    #expect(pet === cat)
    let untagged: Pet? = container.resolve()
    #expect(untagged == nil, "a service under a tag is not a plain service")

    let graph = container.makeGraph()
    let component = try #require(graph.components.first { $0.type == Cat.self })
    #expect(component.isDefault)
    #expect(component.isTest)
    #expect(component.isRoot)
  }

  @Test func anyNumberOfParametersIsRegistered() {
    let container = DIContainer()
    container.register(Engine.init)
    container.register(Body.init)
    container.register(Wheels.init)
    container.register(View.init)
    container.register(Owner.init)
    container.register(Toy.init)
    container.register(Food.init)
    container.register(Dog.init)
    container.register(Dashboard.init)
    let dashboard: Dashboard = container.resolve()
    #expect(dashboard.parts.count == 12)
  }

  @Test func anInitializerReferenceRecognizesOptionalLazyAndProviderParameters() {
    let container = DIContainer()
    container.register(Engine.init).lifetime(.perContainer(.single))
    container.register(Body.init)
    container.register { Named(name: arg($0)) }
    container.register(Recognizer.init)
    let recognizer: Recognizer = container.resolve()
    #expect(recognizer.missing == nil, "an unresolvable Optional parameter gets nil")
    #expect(!recognizer.engine.wasMade, "a Lazy creates nothing before its first value")
    let engine: Engine = container.resolve()
    #expect(recognizer.engine.value === engine)
    #expect(recognizer.body.value !== recognizer.body.value)
    #expect(recognizer.named.value("Mimi").name == "Mimi")
  }
}
