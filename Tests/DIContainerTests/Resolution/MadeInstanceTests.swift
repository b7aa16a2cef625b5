import DIContainer
import Testing

/// A factory's class instance reaches a request for its own class as its object, moved
/// with no dynamic cast; every other request (a protocol, a superclass, an `Any`) and
/// every value type still gets a checked cast. These pin what each form of request gets.
@Suite struct MadeInstanceTests {
  private class Base {
    let name: String
    init(name: String) { self.name = name }
  }

  private final class Derived: Base, Named {
    init() { super.init(name: "derived") }
  }

  private protocol Named: AnyObject {
    var name: String { get }
  }

  private struct Point: Equatable {
    var x: Int
    var y: Int
  }

  private final class Box<Value> {
    let value: Value
    init(value: Value) { self.value = value }
  }

  private final class Holder {
    var point: Point?
  }

  @Test func aClassIsMadeAnewForItsOwnTypeAndKeepsItsState() {
    let container = DIContainer()
    container.register { Derived() }
    let first: Derived = container.resolve()
    let second: Derived = container.resolve()
    #expect(first !== second)
    #expect(first.name == "derived")
  }

  @Test func aSuperclassAndAProtocolServiceGetTheObjectThroughACheckedCast() {
    let container = DIContainer()
    container.register { Derived() }.as(Base.self).as(Named.self)
    let base: Base = container.resolve()
    let named: any Named = container.resolve()
    #expect(base is Derived)
    #expect(named is Derived)
    #expect(base.name == "derived")
    #expect(named.name == "derived")
  }

  @Test func anObjectReleasedByItsRequesterIsFreed() {
    let container = DIContainer()
    container.register { Derived() }
    weak var made: Derived?
    do {
      let object: Derived = container.resolve()
      made = object
      #expect(made != nil)
    }
    #expect(made == nil)
  }

  @Test func anObjectAsADependencyIsTheOneItsFactoryMade() throws {
    let container = DIContainer()
    container.register { Box(value: 7) }
    container.register { (box: Box<Int>) in Box(value: box) }
    let outer: Box<Box<Int>> = container.resolve()
    #expect(outer.value.value == 7)
    let plain: Box<Int> = container.resolve()
    #expect(plain !== outer.value)
  }

  @Test func aStructIsMadeAsAValue() {
    let container = DIContainer()
    container.register { Point(x: 1, y: 2) }
    container.register { (point: Point) in [point, point] }
    let point: Point = container.resolve()
    let points: [Point] = container.resolve()
    #expect(point == Point(x: 1, y: 2))
    #expect(points == [point, point])
  }

  @Test func anExistentialImplementationIsMadeAsAValue() {
    let container = DIContainer()
    container.register { () -> any Named in Derived() }
    let named: any Named = container.resolve()
    #expect(named.name == "derived")
  }

  @Test func anObjectWithAnInjectionIsTheOneInjected() {
    let container = DIContainer()
    container.register { Point(x: 3, y: 4) }
    container.register { Holder() }.injection(\.point)
    let holder: Holder = container.resolve()
    #expect(holder.point == Point(x: 3, y: 4))
  }

  @Test func anObjectThatIsNotItsServiceIsStillAnError() {
    let container = DIContainer()
    container.register { Base(name: "base") }.as(Named.self)
    let error = #expect(throws: DIError.self) { let _: any Named = try container.tryResolve() }
    #expect(error?.reason == .notAService)
  }
}
