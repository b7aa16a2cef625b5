import DIContainer
import Testing

@Suite struct RegistrationTests {
  @Test func initializerReferenceResolvesParametersByType() {
    let container = DIContainer()
    container.register(Engine.init)
    container.register(Body.init)
    container.register(Car.init(engine:body:))
    let car: Car = container.resolve()
    #expect(car.engine.power == 100)
  }
}

final class Engine { let power = 100 }
final class Body {}
final class Car {
  let engine: Engine
  let body: Body
  init(engine: Engine, body: Body) {
    self.engine = engine
    self.body = body
  }
}
