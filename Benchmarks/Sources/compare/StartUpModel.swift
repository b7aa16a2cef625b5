import DIContainer
import DIFrameworks

// S9's 10,000 components in 100 frameworks, from a dozen declarations: a component type is
// `StartUpComponent<StartUpNumber<Tens, Ones>, StartUpNumber<Chain, Link>>` (framework number,
// position in it), so every one is a distinct runtime type (a distinct registration) and no
// file declares 10,000 classes (S6's 1,000 generated classes already cost build time).
//
// Why two numbers and not four digit arguments: the Swift runtime finds a generic type's
// metadata in a hash table whose hash mixes each argument's metadata address; the digits'
// metadata lie within a few hundred bytes of each other, so `StartUpComponent<D, D, D, D>`
// made nearly all 10,000 keys collide and the lookups, not the scenario, cost most of the
// time. A `StartUpNumber` is made at run time, on the heap, and its addresses mix well.

/// A decimal digit as a type, `Digit0` … `Digit9`.
protocol StartUpDigit: SendableMetatype {
  /// The next digit (`Digit9`'s is itself; it is never used).
  associatedtype Next: StartUpDigit
  /// Whether this is the last digit of a chain.
  static var isLast: Bool { get }
}

extension StartUpDigit {
  static var isLast: Bool { false }
}

enum Digit0: StartUpDigit { typealias Next = Digit1 }
enum Digit1: StartUpDigit { typealias Next = Digit2 }
enum Digit2: StartUpDigit { typealias Next = Digit3 }
enum Digit3: StartUpDigit { typealias Next = Digit4 }
enum Digit4: StartUpDigit { typealias Next = Digit5 }
enum Digit5: StartUpDigit { typealias Next = Digit6 }
enum Digit6: StartUpDigit { typealias Next = Digit7 }
enum Digit7: StartUpDigit { typealias Next = Digit8 }
enum Digit8: StartUpDigit { typealias Next = Digit9 }
enum Digit9: StartUpDigit {
  typealias Next = Digit9
  static var isLast: Bool { true }
}

/// A two-digit number as a type: a framework's number, or a component's position in it.
enum StartUpNumber<Tens: StartUpDigit, Ones: StartUpDigit> {}

/// The component at `Position` (`StartUpNumber<Chain, Link>`) of framework `Framework`: it
/// needs its chain's next component (the last, `Link` = `Digit9`, needs nothing), so a
/// framework holds ten chains of ten and resolving a chain's head builds at most ten objects.
final class StartUpComponent<Framework, Position> {
  let next: AnyObject?
  init(next: AnyObject?) { self.next = next }
}

/// S9's framework number `Tens Ones`: 100 `.perFramework(.single)` components.
enum StartUpFramework<Tens: StartUpDigit, Ones: StartUpDigit>: DIFramework {
  static func load(container: DIContainer) {
    for chain in StartUp.digits {
      for link in StartUp.digits { register(chain, link, in: container) }
    }
  }

  private static func register<Chain: StartUpDigit, Link: StartUpDigit>(
    _: Chain.Type, _: Link.Type, in container: DIContainer
  ) {
    typealias Framework = StartUpNumber<Tens, Ones>
    typealias Component = StartUpComponent<Framework, StartUpNumber<Chain, Link>>
    if Link.isLast {
      container.register { Component(next: nil) }.lifetime(.perFramework(.single))
    } else {
      container.register { (next: StartUpComponent<Framework, StartUpNumber<Chain, Link.Next>>) in
        Component(next: next)
      }.lifetime(.perFramework(.single))
    }
  }
}

/// Something done to each of S9's component types (resolving it, making it by hand).
protocol StartUpVisitor {
  mutating func visit<Framework, Chain, Link>(
    _ component: StartUpComponent<Framework, StartUpNumber<Chain, Link>>.Type)
}

/// S9's walks over its frameworks and component types.
enum StartUp {
  /// How many components there are: 100 frameworks of 100.
  static let count = 10_000

  static let digits: [any StartUpDigit.Type] = [
    Digit0.self, Digit1.self, Digit2.self, Digit3.self, Digit4.self, Digit5.self, Digit6.self,
    Digit7.self, Digit8.self, Digit9.self,
  ]

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

  /// Visits every component type once, each chain from its last component to its head (so
  /// a component's dependency has been visited before it).
  static func forEachComponent(_ visitor: inout some StartUpVisitor) {
    for tens in digits {
      for ones in digits {
        for chain in digits {
          for link in digits.reversed() { visit(tens, ones, chain, link, &visitor) }
        }
      }
    }
  }

  private static func visit<
    Tens: StartUpDigit, Ones: StartUpDigit, Chain: StartUpDigit, Link: StartUpDigit
  >(
    _: Tens.Type, _: Ones.Type, _: Chain.Type, _: Link.Type, _ visitor: inout some StartUpVisitor
  ) {
    visitor.visit(StartUpComponent<StartUpNumber<Tens, Ones>, StartUpNumber<Chain, Link>>.self)
  }
}

/// Resolves each component once from a container.
struct StartUpResolver: StartUpVisitor {
  let container: DIContainer

  func visit<Framework, Chain, Link>(
    _: StartUpComponent<Framework, StartUpNumber<Chain, Link>>.Type
  ) {
    sink(container.resolve() as StartUpComponent<Framework, StartUpNumber<Chain, Link>>)
  }
}

/// Makes each component once by hand, passing it the chain's next one, made just before.
struct StartUpMaker: StartUpVisitor {
  private var next: AnyObject?

  mutating func visit<Framework, Chain, Link>(
    _: StartUpComponent<Framework, StartUpNumber<Chain, Link>>.Type
  ) {
    typealias Component = StartUpComponent<Framework, StartUpNumber<Chain, Link>>
    let component = Component(next: Link.isLast ? nil : next)
    sink(component)
    next = component
  }
}
