import DIContainer
import DIFrameworks

// S9's 10,000 components in 100 frameworks, from a dozen declarations: a component type is
// `StartUpComponent<StartUpNumber<Tens, Ones>, StartUpNumber<Chain, Link>>` (framework number,
// position in it), so every one is a distinct runtime type (a distinct registration) and no
// file declares 10,000 classes (S6's 1,000 generated classes already cost build time).
//
// The runtime makes a generic type's metadata on first use and finds it again in a hash
// table, which costs far more than a plain class's metadata, a static in the binary. So the
// 10,000 component types are made once, into `StartUp.components`, and the scenario then uses
// them through that list (each type's own static methods), as an application uses its own
// classes: neither implementation looks metadata up per component. (Four digit arguments,
// `StartUpComponent<D, D, D, D>`, also made nearly all keys of that table collide, the
// digits' metadata lying within a few hundred bytes; a `StartUpNumber` is made on the heap.)

/// A decimal digit as a type, `Digit0` … `Digit9`.
protocol StartUpDigit: SendableMetatype {
  /// The next digit (`Digit9`'s is itself; it is never used).
  associatedtype Next: StartUpDigit
  /// The digit's value.
  static var value: Int { get }
}

enum Digit0: StartUpDigit {
  typealias Next = Digit1
  static var value: Int { 0 }
}
enum Digit1: StartUpDigit {
  typealias Next = Digit2
  static var value: Int { 1 }
}
enum Digit2: StartUpDigit {
  typealias Next = Digit3
  static var value: Int { 2 }
}
enum Digit3: StartUpDigit {
  typealias Next = Digit4
  static var value: Int { 3 }
}
enum Digit4: StartUpDigit {
  typealias Next = Digit5
  static var value: Int { 4 }
}
enum Digit5: StartUpDigit {
  typealias Next = Digit6
  static var value: Int { 5 }
}
enum Digit6: StartUpDigit {
  typealias Next = Digit7
  static var value: Int { 6 }
}
enum Digit7: StartUpDigit {
  typealias Next = Digit8
  static var value: Int { 7 }
}
enum Digit8: StartUpDigit {
  typealias Next = Digit9
  static var value: Int { 8 }
}
enum Digit9: StartUpDigit {
  typealias Next = Digit9
  static var value: Int { 9 }
}

/// A component's position in its framework as a type; its chain's next position.
protocol StartUpPosition: SendableMetatype {
  associatedtype Next: StartUpPosition
  /// Whether this is the last position of a chain (its component needs nothing).
  static var isLast: Bool { get }
}

/// A two-digit number as a type: a framework's number, or a component's position in it
/// (`StartUpNumber<Chain, Link>`: chain `Chain`, link `Link` of ten).
enum StartUpNumber<Tens: StartUpDigit, Ones: StartUpDigit>: StartUpPosition {
  typealias Next = StartUpNumber<Tens, Ones.Next>
  static var isLast: Bool { Ones.value == 9 }
}

/// What S9 does with a component type it holds only as a metatype.
protocol StartUpComponentType: AnyObject, SendableMetatype {
  init(next: AnyObject?)
  /// Whether the component needs nothing (the last of its chain).
  static var isLast: Bool { get }
  /// Registers the component, `.perFramework(.single)`, in `container`.
  static func register(in container: DIContainer)
  /// Calls `visitor` with the component's own type.
  static func accept(_ visitor: inout some StartUpVisitor)
}

/// The component at `Position` of framework `Framework`: it needs its chain's next component
/// (the last needs nothing), so a framework holds ten chains of ten and resolving a chain's
/// head builds at most ten objects.
final class StartUpComponent<Framework, Position: StartUpPosition>: StartUpComponentType {
  let next: AnyObject?
  init(next: AnyObject?) { self.next = next }

  static var isLast: Bool { Position.isLast }

  static func register(in container: DIContainer) {
    if Position.isLast {
      container.register { StartUpComponent(next: nil) }.lifetime(.perFramework(.single))
    } else {
      container.register { (next: StartUpComponent<Framework, Position.Next>) in
        StartUpComponent(next: next)
      }.lifetime(.perFramework(.single))
    }
  }

  static func accept(_ visitor: inout some StartUpVisitor) {
    visitor.visit(self)
  }
}

/// S9's framework number `Tens Ones`: its 100 components.
enum StartUpFramework<Tens: StartUpDigit, Ones: StartUpDigit>: DIFramework {
  static func load(container: DIContainer) {
    for component in StartUp.components[Tens.value * 10 + Ones.value] {
      component.register(in: container)
    }
  }
}

/// Something done to each of S9's component types (resolving it, making it by hand).
protocol StartUpVisitor {
  mutating func visit<Component: StartUpComponentType>(_ component: Component.Type)
}

/// S9's frameworks and component types.
enum StartUp {
  /// How many components there are: 100 frameworks of 100.
  static let count = 10_000

  static let digits: [any StartUpDigit.Type] = [
    Digit0.self, Digit1.self, Digit2.self, Digit3.self, Digit4.self, Digit5.self, Digit6.self,
    Digit7.self, Digit8.self, Digit9.self,
  ]

  /// Every component type, by framework number; in a framework, each chain from its last
  /// component to its head (so a component's dependency comes before it). Made once.
  static let components: [[any StartUpComponentType.Type]] = digits.flatMap { tens in
    digits.map { ones in componentTypes(tens, ones) }
  }

  private static func componentTypes<Tens: StartUpDigit, Ones: StartUpDigit>(
    _: Tens.Type, _: Ones.Type
  ) -> [any StartUpComponentType.Type] {
    digits.flatMap { chain in
      digits.reversed().map { link in componentType(StartUpNumber<Tens, Ones>.self, chain, link) }
    }
  }

  private static func componentType<Framework, Chain: StartUpDigit, Link: StartUpDigit>(
    _: Framework.Type, _: Chain.Type, _: Link.Type
  ) -> any StartUpComponentType.Type {
    StartUpComponent<Framework, StartUpNumber<Chain, Link>>.self
  }

  /// Appends the 100 frameworks to `container`.
  static func appendAll(to container: DIContainer) {
    for tens in digits {
      for ones in digits { append(tens, ones, to: container) }
    }
  }

  private static func append<Tens: StartUpDigit, Ones: StartUpDigit>(
    _: Tens.Type, _: Ones.Type, to container: DIContainer
  ) {
    container.append(framework: StartUpFramework<Tens, Ones>.self)
  }

  /// Visits every component type once, in the order of `components`.
  static func forEachComponent(_ visitor: inout some StartUpVisitor) {
    for framework in components {
      for component in framework { component.accept(&visitor) }
    }
  }
}

/// Resolves each component once from a container.
struct StartUpResolver: StartUpVisitor {
  let container: DIContainer

  func visit<Component: StartUpComponentType>(_: Component.Type) {
    sink(container.resolve() as Component)
  }
}

/// Makes each component once by hand, passing it the chain's next one, made just before.
struct StartUpMaker: StartUpVisitor {
  private var next: AnyObject?

  mutating func visit<Component: StartUpComponentType>(_: Component.Type) {
    let component = Component(next: Component.isLast ? nil : next)
    sink(component)
    next = component
  }
}
