import Foundation

// The types of the SPEC's snippets, and helpers shared by the suites.

protocol Animal: AnyObject {}
protocol Mammal: AnyObject {}
protocol Pet: AnyObject {}
enum Indoor {}
enum Outdoor {}

final class Owner {}
final class Toy {}
final class Food {}
final class Bowl {}

final class Cat: Animal, Mammal, Pet {
  var owner: Owner?
  var toys: [Toy] = []
  var food: Food?
  var friend: Cat?
  var isAwake = false
  var sawFriendWhenWaking = false

  init() {}

  func feed(_ food: Food) { self.food = food }

  func wakeUp() {
    isAwake = true
    sawFriendWhenWaking = friend != nil
  }
}

final class Dog: Animal, Pet {}

final class Kitten: Animal, Pet {
  let name: String
  init(name: String) { self.name = name }
}

final class Engine {}
final class CarBody {}
final class Wheels {}

final class Car {
  let engine: Engine
  let body: CarBody
  init(engine: Engine, body: CarBody) {
    self.engine = engine
    self.body = body
  }
}

final class Bus {
  let engine: Engine
  let wheels: Wheels?
  init(engine: Engine) {
    self.engine = engine
    wheels = nil
  }
  init(engine: Engine, wheels: Wheels) {
    self.engine = engine
    self.wheels = wheels
  }
}

final class Presenter {
  var view: Owner?
  var interactor: Food?
}
