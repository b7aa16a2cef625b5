// What the library learns about types once and then reads without the runtime:
//
// 1. ServiceCast: a component registered `as` a class-bound protocol records, at the first
//    request that casts one of its objects into the existential, the object's exact class
//    and the witness table found, and builds later existentials from [object, table] with
//    `unsafeBitCast`.
// 2. Parameter modifiers: whether a type is one (and which) is asked of the runtime once
//    per process, then read from a lock-free table (ModifierCache). The tests hold the
//    process-wide table to the runtime's answers.
// 3. `DIContainer.lastLoadedModule`: the last module `hasLoaded(_:)` found loaded.
//
// Every object a learned cast writes is checked against the runtime's own cast of the same
// object (the same witness table, the same answers); objects are counted (made and freed),
// threads run with deadlines; the table's answers are compared with those of a container
// whose table does not hold the type (the runtime's path).
//
// A conformance isolated to the main actor (SE-0470), met by a request on the main actor,
// is never learned: requests on other threads must not be served it, where the runtime's
// cast fails (`anIsolatedConformanceLearnedOnTheMainActorIsNotServedOffIt`).

import DITestSupport
import Foundation
import Synchronization
import Testing

@testable import DIContainer

/// Whether components learn witness tables: only with the runtime-layout reads in use (the
/// `RuntimeLayoutShortcuts` trait on, and the start-up check passed).
private var learnsCasts: Bool { UnsafeRuntimeLayout.checked }

// MARK: - ServiceCast fixtures

private protocol R26Named: AnyObject { var name: String { get } }
private protocol R26Ranked: R26Named { var rank: Int { get } }
private protocol R26Plain { var plain: String { get } }
private protocol R26Labeled { static var label: String { get } }
private enum R26Red: R26Labeled { static var label: String { "red" } }
private enum R26Blue: R26Labeled { static var label: String { "blue" } }
private enum R26TagA {}
private enum R26TagB {}

/// Conforms to nothing: factories typed `R26Root` return objects of several classes.
private class R26Root: PRCounted, @unchecked Sendable {}

private final class R26Alpha: R26Root, R26Ranked, R26Plain, @unchecked Sendable {
  var name: String { "alpha \(serial)" }
  var rank: Int { 1 }
  var plain: String { "plain alpha" }
}

/// Another layout (a stored property) and other witnesses.
private final class R26Beta: R26Root, R26Named, @unchecked Sendable {
  let extra = [7, 8, 9]
  var name: String { "beta \(serial) \(extra.count)" }
}

/// Conforms; its subclass conforms through it.
private class R26Base: R26Root, R26Named, @unchecked Sendable {
  var name: String { "base \(serial)" }
}
private final class R26Derived: R26Base, @unchecked Sendable {
  override var name: String { "derived \(serial)" }
}

/// A generic class: every specialization is a class of its own.
private final class R26Generic<Value>: R26Root, R26Named, @unchecked Sendable {
  var name: String { "generic \(Value.self) \(serial)" }
}

/// A conditional conformance: the witness table of each specialization carries the
/// color's own `R26Labeled` table, so a table of another specialization would answer with
/// another color.
private final class R26Painted<Color>: R26Root, @unchecked Sendable {}
extension R26Painted: R26Named where Color: R26Labeled {
  var name: String { "painted \(Color.label) \(serial)" }
}

/// A subclass of a generic class conforming through its superclass.
private class R26GenericBase<Value>: R26Root, R26Named, @unchecked Sendable {
  var name: String { "genericBase \(Value.self) \(serial)" }
}
private final class R26IntChild: R26GenericBase<Int>, @unchecked Sendable {
  override var name: String { "intChild \(serial)" }
}
private final class R26StringChild: R26GenericBase<String>, @unchecked Sendable {}

private final class R26User: PRCounted, @unchecked Sendable {
  let named: any R26Named
  init(named: any R26Named, _ ledger: PRLedger) {
    self.named = named
    super.init(ledger)
  }
}

private final class R26Pair: PRCounted, @unchecked Sendable {
  let first: any R26Named
  let second: any R26Named
  init(first: any R26Named, second: any R26Named, _ ledger: PRLedger) {
    (self.first, self.second) = (first, second)
    super.init(ledger)
  }
}

/// A protocol bound to a class by a superclass requirement.
private protocol R26Rooted: R26Root { var rooted: String { get } }
private final class R26Gamma: R26Root, R26Rooted, @unchecked Sendable {
  var rooted: String { "gamma \(serial)" }
}
private final class R26RootedUser: PRCounted, @unchecked Sendable {
  let rooted: any R26Rooted
  init(rooted: any R26Rooted, _ ledger: PRLedger) {
    self.rooted = rooted
    super.init(ledger)
  }
}

private final class R26RankedUser: PRCounted, @unchecked Sendable {
  let ranked: any R26Ranked
  let plainAndObject: any R26Plain & AnyObject
  init(ranked: any R26Ranked, plainAndObject: any R26Plain & AnyObject, _ ledger: PRLedger) {
    (self.ranked, self.plainAndObject) = (ranked, plainAndObject)
    super.init(ledger)
  }
}

private final class R26Consumer: PRCounted, @unchecked Sendable {
  let all: [any R26Named]
  let lazy: Lazy<any R26Named>
  let provider: Provider<any R26Named>
  let optional: (any R26Named)?
  let tagged: any R26Named
  let lazies: [Lazy<any R26Named>]
  init(
    all: [any R26Named], lazy: Lazy<any R26Named>, provider: Provider<any R26Named>,
    optional: (any R26Named)?, tagged: any R26Named, lazies: [Lazy<any R26Named>],
    _ ledger: PRLedger
  ) {
    (self.all, self.lazy, self.provider, self.optional, self.tagged, self.lazies) =
      (all, lazy, provider, optional, tagged, lazies)
    super.init(ledger)
  }
}

private final class R26GraphUser: PRCounted, @unchecked Sendable {
  let named: any R26Named
  let provider: Provider<any R26Named>
  let lazy: Lazy<any R26Named>
  init(
    named: any R26Named, provider: Provider<any R26Named>, lazy: Lazy<any R26Named>,
    _ ledger: PRLedger
  ) {
    (self.named, self.provider, self.lazy) = (named, provider, lazy)
    super.init(ledger)
  }
}

/// Values that conform to `R26Plain` (not class-bound): as `AnyObject` they are boxed.
private struct R26PlainValue: R26Plain {
  var plain: String { "plain value" }
}
private struct R26OtherPlainValue: R26Plain {
  let padding = (1, 2, 3)
  var plain: String { "other plain value \(padding.2)" }
}
private final class R26PlainUser: @unchecked Sendable {
  let plainAndObject: any R26Plain & AnyObject
  init(plainAndObject: any R26Plain & AnyObject) { self.plainAndObject = plainAndObject }
}

/// A class whose conformance is isolated to the main actor (SE-0470): a plain cast into
/// `any R26Isolated` fails off the main actor.
private protocol R26Isolated: AnyObject { func ping() -> Int }
@MainActor private final class R26MainOnly {
  nonisolated init() {}
}
extension R26MainOnly: @MainActor R26Isolated {
  func ping() -> Int { 7 }
}
private final class R26IsolatedUser: @unchecked Sendable {
  let service: any R26Isolated
  init(service: any R26Isolated) { self.service = service }
}

/// How requests of `R26IsolatedUser` and of `any R26Isolated` come out on this thread.
private func r26IsolatedRequests(_ container: DIContainer) -> String {
  let dependency = (try? container.tryResolve() as R26IsolatedUser) != nil
  let topLevel = (try? container.tryResolve() as any R26Isolated) != nil
  return
    "dependency \(dependency ? "resolves" : "fails"), top level \(topLevel ? "resolves" : "fails")"
}

/// The object for turn `turn` of a factory that cycles through nine classes.
private func r26Make(_ turn: Int, _ ledger: PRLedger) -> R26Root {
  switch turn % 10 {
  case 0: R26Alpha(ledger)
  case 1: R26Beta(ledger)
  case 2: R26Base(ledger)
  case 3: R26Derived(ledger)
  case 4: R26Generic<Int>(ledger)
  case 5: R26Generic<String>(ledger)
  case 6: R26Painted<R26Red>(ledger)
  case 7: R26Painted<R26Blue>(ledger)
  case 8: R26IntChild(ledger)
  default: R26StringChild(ledger)
  }
}

/// What `name` of `object` must say, found with casts to concrete classes (which use no
/// protocol witness); nil for a class these tests do not know.
private func r26ExpectedName(of object: AnyObject) -> String? {
  switch object {
  case let object as R26Alpha: "alpha \(object.serial)"
  case let object as R26Beta: "beta \(object.serial) 3"
  case let object as R26Derived: "derived \(object.serial)"
  case let object as R26Base: "base \(object.serial)"
  case let object as R26Generic<Int>: "generic Int \(object.serial)"
  case let object as R26Generic<String>: "generic String \(object.serial)"
  case let object as R26Painted<R26Red>: "painted red \(object.serial)"
  case let object as R26Painted<R26Blue>: "painted blue \(object.serial)"
  case let object as R26IntChild: "intChild \(object.serial)"
  case let object as R26StringChild: "genericBase String \(object.serial)"
  default: nil
  }
}

/// The witness table word of a class existential of one protocol (a reference and one
/// table).
private func r26WitnessTable(of named: any R26Named) -> UnsafeRawPointer {
  r26SecondWord(of: [named])
}
private func r26WitnessTable(of plain: any R26Plain & AnyObject) -> UnsafeRawPointer {
  r26SecondWord(of: [plain])
}

/// The second word of the one element of `values` (an array keeps its elements unopened).
private func r26SecondWord<T>(of values: [T]) -> UnsafeRawPointer {
  precondition(MemoryLayout<T>.size == 2 * MemoryLayout<UInt>.size && values.count == 1)
  return values.withUnsafeBytes {
    $0.load(fromByteOffset: MemoryLayout<UInt>.size, as: UnsafeRawPointer.self)
  }
}

/// Whether `named` is what the runtime's own cast of its object gives: the same witness
/// table, and the name its class's code gives.
private func r26Sound(_ named: any R26Named) -> Bool {
  let object: AnyObject = named
  guard let expected = r26ExpectedName(of: object), let fresh = object as? any R26Named else {
    return false
  }
  return fresh === object && r26WitnessTable(of: fresh) == r26WitnessTable(of: named)
    && named.name == expected
}

/// A description of `named` for failure messages.
private func r26Describe(_ named: any R26Named) -> String {
  "\(type(of: named as AnyObject)) answering \(named.name)"
}

/// Whether the one component providing `service` in `container` learned a table for
/// `objectClass`.
private func r26Learned(
  _ container: DIContainer, _ service: Any.Type, for objectClass: AnyClass
) -> Bool {
  guard case .single(let component)? = container.snapshot.lookUp(ServiceKey(service)) else {
    return false
  }
  return component.serviceCast(to: service)?.witnessTable(of: ObjectIdentifier(objectClass))
    != nil
}

// MARK: - ParameterModifiers fixtures

private final class R26Leaf: PRCounted, @unchecked Sendable {}
private final class R26Missing {}
private final class R26Sink: @unchecked Sendable {
  let text: String
  init(_ text: String) { self.text = text }
}
private final class R26Noted: @unchecked Sendable {
  let note: String
  init(_ note: String) { self.note = note }
}
private final class R26AsyncHolder: @unchecked Sendable {
  let lazy: AsyncLazy<R26Leaf>
  let provider: AsyncProvider<R26Leaf>?
  init(lazy: AsyncLazy<R26Leaf>, provider: AsyncProvider<R26Leaf>?) {
    (self.lazy, self.provider) = (lazy, provider)
  }
}

/// A generic type with a thousand specializations over three digits.
private final class R26Cell<A: SCDigit, B: SCDigit, C: SCDigit>: @unchecked Sendable {
  static var number: Int { A.value * 100 + B.value * 10 + C.value }
  let number = R26Cell.number
}
private final class R26CellHolder<A: SCDigit, B: SCDigit, C: SCDigit>: @unchecked Sendable {
  let optional: R26Cell<A, B, C>?
  let lazy: Lazy<R26Cell<A, B, C>?>
  let provider: Provider<R26Cell<A, B, C>?>
  init(
    optional: R26Cell<A, B, C>?, lazy: Lazy<R26Cell<A, B, C>?>,
    provider: Provider<R26Cell<A, B, C>?>
  ) {
    (self.optional, self.lazy, self.provider) = (optional, lazy, provider)
  }
}

/// What the tests read from a cell number's holder and cell requests.
private struct R26CellReport: Equatable {
  var holderOptional: Int?
  var holderLazy: Int?
  var holderProvider: Int?
  var topOptional: Int?
  /// `Lazy<R26Cell?>` at the top level: a type of the table.
  var topLazyOptional: Int?
  /// `Lazy<R26Cell>` at the top level: a type the table does not hold.
  var topLazy: Int?
}

/// Registers the cell `number` (when `withCell`) and its holder in `container`.
private func r26RegisterCell(_ number: Int, withCell: Bool, in container: DIContainer) {
  func register<A: SCDigit, B: SCDigit, C: SCDigit>(_: A.Type, _: B.Type, _: C.Type) {
    if withCell { container.register { R26Cell<A, B, C>() } }
    container.register { R26CellHolder<A, B, C>(optional: $0, lazy: $1, provider: $2) }
  }
  register(scDigit(number / 100), scDigit(number / 10 % 10), scDigit(number % 10))
}

/// Resolves the holder and the cell `number` every way the tests read them.
private func r26CellReport(_ number: Int, in container: DIContainer) -> R26CellReport? {
  func report<A: SCDigit, B: SCDigit, C: SCDigit>(
    _: A.Type, _: B.Type, _: C.Type
  ) -> R26CellReport? {
    guard let holder = try? container.tryResolve() as R26CellHolder<A, B, C> else { return nil }
    let topOptional = try? container.tryResolve() as R26Cell<A, B, C>?
    let topLazyOptional = try? container.tryResolve() as Lazy<R26Cell<A, B, C>?>
    let topLazy = try? container.tryResolve() as Lazy<R26Cell<A, B, C>>
    return R26CellReport(
      holderOptional: holder.optional?.number,
      holderLazy: (try? holder.lazy.tryValue())?.number,
      holderProvider: (try? holder.provider.tryValue())?.number,
      topOptional: topOptional?.number,
      topLazyOptional: (try? topLazyOptional?.tryValue())?.number,
      topLazy: (try? topLazy?.tryValue())?.number)
  }
  return report(scDigit(number / 100), scDigit(number / 10 % 10), scDigit(number % 10))
}

/// The types the table holds for the cell `number`'s holder, and one it does not.
private func r26CellTypes(_ number: Int) -> (held: [Any.Type], notHeld: [Any.Type]) {
  func types<A: SCDigit, B: SCDigit, C: SCDigit>(
    _: A.Type, _: B.Type, _: C.Type
  ) -> (held: [Any.Type], notHeld: [Any.Type]) {
    (
      [
        Optional<R26Cell<A, B, C>>.self, Lazy<R26Cell<A, B, C>?>.self,
        Provider<R26Cell<A, B, C>?>.self,
      ],
      [Provider<R26Cell<A, B, C>>.self, Lazy<R26Cell<A, B, C>>.self, R26Cell<A, B, C>.self]
    )
  }
  return types(scDigit(number / 100), scDigit(number / 10 % 10), scDigit(number % 10))
}

/// The outcome of `body`, described: what `describe` says of its value, or its error's code.
private func r26Outcome<T>(
  _ body: () throws(DIError) -> T, _ describe: (T) -> String
) -> String {
  do throws(DIError) {
    return describe(try body())
  } catch {
    return "error \(error.code)"
  }
}

/// The registrations both containers of ``r26Classified(_:_:)`` share.
private func r26ModifierBase(_ ledger: PRLedger) -> DIContainer {
  let container = DIContainer()
  container.register { R26Leaf(ledger) }
  container.register { R26Leaf(ledger) }.as(R26Leaf.self, tag: R26TagA.self)
  container.register { R26Alpha(ledger) }.as(R26Named.self)
  container.register { R26Beta(ledger) }.as(R26Named.self)
  return container
}

/// How a request for `T` comes out: at the top level of a container where no component
/// has a `T` parameter (the runtime classifies `T`), at the top level of one where a
/// component has (the snapshot's table classifies it), and as that component's parameter.
private struct R26Classified {
  var runtime: String
  var table: String
  var parameter: String
  /// Whether the process-wide table answers `T` as the runtime does.
  var cacheAgrees: Bool
}

private func r26Classified<T>(
  _ type: T.Type, _ describe: @escaping @Sendable (T) -> String
) -> R26Classified {
  let ledger = PRLedger()
  let runtime = r26ModifierBase(ledger)
  let table = r26ModifierBase(ledger)
  table.register { (value: T) in R26Sink(describe(value)) }
  let runtimeOutcome = r26Outcome({ () throws(DIError) -> T in try runtime.tryResolve() }, describe)
  let tableOutcome = r26Outcome({ () throws(DIError) -> T in try table.tryResolve() }, describe)
  let parameterOutcome = r26Outcome(
    { () throws(DIError) -> R26Sink in try table.tryResolve() }, \.text)
  return R26Classified(
    runtime: runtimeOutcome, table: tableOutcome,
    parameter: parameterOutcome.hasPrefix("error") ? "error" : parameterOutcome,
    cacheAgrees: ModifierCache.modifier(of: T.self).map { ObjectIdentifier($0) }
      == (T.self as? any DIParameterModifier.Type).map { ObjectIdentifier($0) })
}

/// A short description of a leaf, or "nil".
private func r26Leafy(_ leaf: R26Leaf?) -> String { leaf == nil ? "nil" : "leaf" }

// MARK: - Module fixtures

private enum R26ModuleA {}
private enum R26ModuleB {}
private enum R26ModuleC {}
private enum R26GenericModule<Digit: SCDigit> {}

/// The framework (or part) module of `R26GenericModule<digit>`.
private func r26Module(_ digit: Int, _ kind: DIModuleID.Kind = .framework) -> DIModuleID {
  func make<D: SCDigit>(_: D.Type) -> DIModuleID {
    DIModuleID(kind, type: R26GenericModule<D>.self)
  }
  return make(scDigit(digit))
}

// MARK: - Tests

@Suite struct LearnedCastAndModifierTableTests {
  // MARK: ServiceCast: classes, layouts, witness tables

  /// A factory that returns objects of ten classes in turn (two layouts, a subclass, two
  /// specializations of a generic class, two of a conditional conformance, subclasses of a
  /// generic class): every request, as a dependency and at the top level, gets the
  /// runtime's witness table for its own object, whichever class came first.
  @Test(arguments: [0, 3, 6, 8])
  func objectsOfManyClassesGetTheirOwnClassesTables(firstTurn: Int) {
    let ledger = PRLedger()
    do {
      let container = DIContainer()
      let turn = Counter()
      container.register { () -> R26Root in r26Make(firstTurn + turn.next() - 1, ledger) }
        .as(R26Named.self)
      container.register { R26User(named: $0, ledger) }
      var unsound: [String] = []
      for _ in 0..<60 {
        let user: R26User = container.resolve()
        if !r26Sound(user.named) { unsound.append(r26Describe(user.named)) }
        let direct: any R26Named = container.resolve()
        if !r26Sound(direct) { unsound.append(r26Describe(direct)) }
      }
      #expect(unsound.count == 0, "first ones: \(unsound.prefix(5))")
      // The first class was learned: the later requests for it took the learned path.
      let first: AnyClass = type(of: r26Make(firstTurn, PRLedger()))
      #expect(r26Learned(container, (any R26Named).self, for: first) == learnsCasts)
    }
    #expect(ledger.made == 60 * 3)
    #expect(ledger.alive == 0, "a written existential leaked or was freed early")
  }

  /// The learned class is exact: a subclass of it (and its superclass) is cast by the
  /// runtime, with its own overriding witness.
  @Test func theLearnedClassIsExactNotItsSubclassOrSuperclass() {
    let ledger = PRLedger()
    do {
      let container = DIContainer()
      let next = LockedValue<[Int]>([3, 3, 2, 3, 2, 8, 9, 8, 9])
      container.register { () -> R26Root in
        r26Make(next.withLock { $0.isEmpty ? 3 : $0.removeFirst() }, ledger)
      }.as(R26Named.self)
      container.register { R26User(named: $0, ledger) }
      var names: [String] = []
      for _ in 0..<10 {
        let user: R26User = container.resolve()
        #expect(r26Sound(user.named), "\(r26Describe(user.named))")
        names.append(String(user.named.name.prefix { $0 != " " }))
      }
      #expect(
        names == [
          "derived", "derived", "base", "derived", "base", "intChild", "genericBase",
          "intChild", "genericBase", "derived",
        ])
      #expect(r26Learned(container, (any R26Named).self, for: R26Derived.self) == learnsCasts)
      #expect(!r26Learned(container, (any R26Named).self, for: R26Base.self))
    }
    #expect(ledger.alive == 0)
  }

  /// Two specializations of a conditional conformance, learned one first then the other:
  /// each answers with its own color (the table of one serves no object of the other).
  @Test func conditionalConformancesOfTwoSpecializationsKeepTheirColors() {
    let ledger = PRLedger()
    do {
      let container = DIContainer()
      container.register { R26Painted<R26Red>(ledger) }.as(R26Named.self)
      container.register { R26Painted<R26Blue>(ledger) }.as(R26Named.self, tag: R26TagA.self)
      container.register { () -> R26Root in R26Painted<R26Blue>(ledger) }
        .as(R26Named.self, tag: R26TagB.self)
      container.register {
        R26Pair(first: $0, second: by(tag: R26TagA.self, on: $1), ledger)
      }
      container.register { R26User(named: by(tag: R26TagB.self, on: $0), ledger) }
      for _ in 0..<5 {
        let pair: R26Pair = container.resolve()
        let user: R26User = container.resolve()
        #expect(pair.first.name.hasPrefix("painted red"))
        #expect(pair.second.name.hasPrefix("painted blue"))
        #expect(user.named.name.hasPrefix("painted blue"))
        #expect(r26Sound(pair.first) && r26Sound(pair.second) && r26Sound(user.named))
      }
    }
    #expect(ledger.alive == 0)
  }

  /// A factory typed `AnyObject` (and one typed `Any`) whose objects are of two classes.
  @Test func factoriesTypedAnyObjectOrAny() {
    let ledger = PRLedger()
    do {
      let container = DIContainer()
      let turn = Counter()
      container.register { () -> AnyObject in
        turn.next() % 2 == 1 ? R26Alpha(ledger) : R26Beta(ledger)
      }.as(R26Named.self)
      container.register { () -> Any in R26Generic<Int>(ledger) }
        .as(R26Named.self, tag: R26TagA.self)
      container.register { R26Pair(first: $0, second: by(tag: R26TagA.self, on: $1), ledger) }
      for round in 0..<8 {
        let pair: R26Pair = container.resolve()
        #expect(r26Sound(pair.first), "\(round): \(r26Describe(pair.first))")
        #expect(r26Sound(pair.second), "\(round): \(r26Describe(pair.second))")
        #expect((pair.first is R26Alpha) == (round % 2 == 0))
      }
    }
    #expect(ledger.alive == 0)
  }

  /// A protocol refining a class-bound one, and a composition of a protocol that is not
  /// class-bound with `AnyObject` (one witness table too).
  @Test func refinedProtocolsAndAnyObjectCompositions() {
    #expect((ServiceCast(to: (any R26Ranked).self) != nil) == learnsCasts)
    #expect((ServiceCast(to: (any R26Plain & AnyObject).self) != nil) == learnsCasts)
    #expect(ServiceCast(to: (any R26Named)?.self) == nil)
    #expect(ServiceCast(to: (any R26Named).Type.self) == nil)
    #expect(ServiceCast(to: (any R26Named.Type).self) == nil)
    #expect(ServiceCast(to: (any R26Named & R26Plain).self) == nil)
    #expect(ServiceCast(to: ((any R26Named), Int).self) == nil)
    #expect(ServiceCast(to: (() -> any R26Named).self) == nil)
    let ledger = PRLedger()
    do {
      let container = DIContainer()
      container.register { R26Alpha(ledger) }.as(R26Ranked.self)
        .as((any R26Plain & AnyObject).self)
      container.register { R26RankedUser(ranked: $0, plainAndObject: $1, ledger) }
      for _ in 0..<5 {
        let user: R26RankedUser = container.resolve()
        #expect(user.ranked.rank == 1 && r26Sound(user.ranked))
        #expect(user.plainAndObject.plain == "plain alpha")
        let object: AnyObject = user.plainAndObject
        let fresh = object as? (any R26Plain & AnyObject)
        #expect(fresh.map { r26WitnessTable(of: $0) } == r26WitnessTable(of: user.plainAndObject))
      }
      #expect(r26Learned(container, (any R26Ranked).self, for: R26Alpha.self) == learnsCasts)
      #expect(
        r26Learned(container, (any R26Plain & AnyObject).self, for: R26Alpha.self) == learnsCasts)
      // `Sendable` is a marker: `any R26Ranked & Sendable` is the same type at run time.
      let sendable: any R26Ranked & Sendable = container.resolve()
      #expect(sendable.rank == 1 && r26Sound(sendable))
    }
    // A protocol with a superclass requirement: a reference and one table too.
    do {
      let container = DIContainer()
      container.register { R26Gamma(ledger) }.as(R26Rooted.self)
      container.register { R26RootedUser(rooted: $0, ledger) }
      for _ in 0..<4 {
        let user: R26RootedUser = container.resolve()
        let object: AnyObject = user.rooted
        let fresh = object as? any R26Rooted
        #expect(user.rooted.rooted == "gamma \(user.rooted.serial)")
        #expect(fresh.map { r26SecondWord(of: [$0]) } == r26SecondWord(of: [user.rooted]))
      }
    }
    #expect(ledger.alive == 0)
  }

  /// A factory typed `AnyObject` returning boxed values (of two types) for a service
  /// `any R26Plain & AnyObject`, which qualifies for a learned cast: every request comes
  /// out as the runtime's cast of the same object does, and nothing else is served.
  @Test func boxedValuesReturnedAsAnyObjectAreCastAsTheRuntimeCastsThem() {
    let container = DIContainer()
    let turn = Counter()
    container.register { () -> AnyObject in
      switch turn.next() % 3 {
      case 0: R26Alpha(PRLedger())
      case 1: R26PlainValue() as AnyObject
      default: R26OtherPlainValue() as AnyObject
      }
    }.as((any R26Plain & AnyObject).self)
    container.register { R26PlainUser(plainAndObject: $0) }
    let runtime = [
      R26PlainValue() as AnyObject, R26OtherPlainValue() as AnyObject,
      R26Alpha(PRLedger()) as AnyObject,
    ].map { object in ((object as Any) as? (any R26Plain & AnyObject))?.plain ?? "fails" }
    var outcomes: [String] = []
    for _ in 0..<9 {
      outcomes.append(
        (try? container.tryResolve() as R26PlainUser)?.plainAndObject.plain ?? "fails")
    }
    #expect(outcomes == Array(repeating: runtime, count: 3).flatMap { $0 })
  }

  // MARK: ServiceCast: lifetimes, references

  /// Every lifetime: the object is the one the lifetime keeps (or a new one), its table
  /// the runtime's, and every object is freed once everything is gone.
  @Test(arguments: 0..<7)
  func everyLifetimeGivesItsOwnObjectThroughALearnedCast(lifetimeIndex: Int) {
    let ledger = PRLedger()
    let session = DIScope(name: "R26Session", storage: DICacheStorage(), policy: .single)
    let lifetime: DILifetime = [
      .prototype, .objectGraph, .perContainer(.single), .perContainer(.weak), .scoped,
      .custom(session), .perContainer(.single),
    ][lifetimeIndex]
    do {
      let container = DIContainer()
      let component = container.register { R26Alpha(ledger) }.as(R26Named.self)
      component.lifetime(lifetime)
      container.register { R26Pair(first: $0, second: $1, ledger) }
      if lifetimeIndex == 6 {
        // The component's objects come from a subclass-typed factory of another class.
        container.register { () -> R26Base in R26Derived(ledger) }
          .as(R26Named.self).lifetime(lifetime).test()
      }
      let scope = container.makeScope()
      var pairs: [R26Pair] = []
      for _ in 0..<4 {
        let pair: R26Pair = scope.resolve()
        #expect(r26Sound(pair.first) && r26Sound(pair.second), "\(lifetime)")
        pairs.append(pair)
      }
      let first = pairs.map { ObjectIdentifier($0.first) }
      let second = pairs.map { ObjectIdentifier($0.second) }
      switch lifetimeIndex {
      case 0:
        #expect(Set(first + second).count == 8, "prototype: a new object each time")
      case 1:
        #expect(first == second, "objectGraph: one object per graph")
        #expect(Set(first).count == 4, "objectGraph: one per graph")
      default:
        #expect(Set(first + second).count == 1, "\(lifetime): one object")
      }
      #expect(pairs.allSatisfy { r26Sound($0.first) })
      pairs.removeAll()
      scope.close()
      session.clean()
    }
    #expect(ledger.made == ledger.freed, "\(lifetime): \(ledger.alive) objects left")
  }

  /// A weak lifetime: while a user holds the object it is reused; once none does, it is
  /// freed (once) and a new one made, written with the learned table.
  @Test func aWeakObjectIsFreedOnceAndItsSuccessorWrittenSoundly() {
    let ledger = PRLedger()
    do {
      let container = DIContainer()
      container.register { R26Alpha(ledger) }.as(R26Named.self).lifetime(.perContainer(.weak))
      container.register { R26User(named: $0, ledger) }
      weak var firstObject: R26Alpha?
      var previous = 0
      for round in 0..<6 {
        do {
          let user: R26User = container.resolve()
          let again: R26User = container.resolve()
          #expect(user.named === again.named)
          #expect(r26Sound(user.named) && r26Sound(again.named))
          if round == 0 { firstObject = user.named as? R26Alpha }
          let serial = (user.named as? R26Root)?.serial ?? 0
          #expect(serial > previous, "a new object once the last one was freed")
          previous = serial
        }
        #expect(firstObject == nil, "the weak object outlived its users")
      }
      #expect(r26Learned(container, (any R26Named).self, for: R26Alpha.self) == learnsCasts)
    }
    // Six objects and twelve users, each freed once.
    #expect(ledger.made == 18 && ledger.freed == 18)
  }

  /// Thousands of requests through the learned path keep every count right: prototypes
  /// all freed, one cached object freed once, with its container.
  @Test func manyRequestsThroughALearnedCastCountReferencesRight() {
    let ledger = PRLedger()
    weak var cached: R26Beta?
    do {
      let container = DIContainer()
      container.register { R26Alpha(ledger) }.as(R26Named.self)
      container.register { R26Beta(ledger) }.as(R26Named.self, tag: R26TagA.self)
        .lifetime(.perContainer(.single))
      container.register { R26Pair(first: $0, second: by(tag: R26TagA.self, on: $1), ledger) }
      var kept: [any R26Named] = []
      for index in 0..<3000 {
        let pair: R26Pair = container.resolve()
        if index % 100 == 0 { kept.append(pair.first) }
        if index == 0 { cached = pair.second as? R26Beta }
        #expect(pair.second === cached)
      }
      #expect(kept.allSatisfy(r26Sound))
      #expect(ledger.alive == 1 + kept.count, "the cached object, the kept ones")
    }
    #expect(cached == nil, "the cached object outlived its container")
    #expect(ledger.made == ledger.freed)
  }

  // MARK: ServiceCast: delayed, many, tags, child containers, edits

  /// `many`, `Lazy`, `Provider`, `Optional`, `by(tag:)` and a `many` of `Lazy` of a
  /// protocol, over components of several classes.
  @Test func manyLazyProviderOptionalAndTagsOfAProtocol() {
    let ledger = PRLedger()
    do {
      let container = DIContainer()
      container.register { R26Alpha(ledger) }.as(R26Named.self).default()
      container.register { R26Beta(ledger) }.as(R26Named.self)
      container.register { R26Painted<R26Red>(ledger) }.as(R26Named.self)
        .as(R26Named.self, tag: R26TagA.self)
      container.register { () -> R26Root in R26Generic<String>(ledger) }
        .as(R26Named.self, tag: R26TagB.self)
      container.register {
        R26Consumer(
          all: many($0), lazy: $1, provider: $2, optional: $3,
          tagged: by(tag: R26TagA.self, on: $4),
          lazies: many($5), ledger)
      }
      for _ in 0..<4 {
        let consumer: R26Consumer = container.resolve()
        // The components in registration order (the tagged-only one included: `many`
        // collects the tagged registrations of a service too).
        #expect(
          consumer.all.prefix(3).map { String($0.name.prefix(5)) } == ["alpha", "beta ", "paint"])
        #expect(consumer.all.allSatisfy(r26Sound))
        #expect(consumer.lazy.value is R26Alpha && r26Sound(consumer.lazy.value))
        let provided = (consumer.provider.value, consumer.provider.value)
        #expect(provided.0 !== provided.1)
        #expect(r26Sound(provided.0) && r26Sound(provided.1) && provided.0 is R26Alpha)
        #expect(consumer.optional.map { r26Sound($0) && $0 is R26Alpha } == true)
        #expect(consumer.tagged is R26Painted<R26Red> && r26Sound(consumer.tagged))
        #expect(consumer.lazies.count == consumer.all.count)
        #expect(consumer.lazies.allSatisfy { r26Sound($0.value) })
        let tagged: [any R26Named] = many(by(tag: R26TagB.self, on: container.resolve()))
        #expect(tagged.count == 1 && tagged.allSatisfy(r26Sound))
      }
    }
    #expect(ledger.alive == 0)
  }

  /// An `.objectGraph` object reached through a `Provider` or `Lazy` of its protocol is
  /// the one of the graph that made it, written soundly.
  @Test func objectGraphThroughDelayedProtocolValues() {
    let ledger = PRLedger()
    do {
      let container = DIContainer()
      container.register { () -> R26Root in R26Generic<Int>(ledger) }.as(R26Named.self)
        .lifetime(.objectGraph)
      container.register { R26GraphUser(named: $0, provider: $1, lazy: $2, ledger) }
      var users: [R26GraphUser] = []
      for _ in 0..<5 {
        let user: R26GraphUser = container.resolve()
        #expect(user.provider.value === user.named)
        #expect(user.lazy.value === user.named)
        #expect(r26Sound(user.named) && r26Sound(user.provider.value))
        users.append(user)
      }
      #expect(Set(users.map { ObjectIdentifier($0.named) }).count == 5, "one per graph")
    }
    #expect(ledger.alive == 0)
  }

  /// A parent's component, its cast learned through the parent and through children, and
  /// a child's override of another class.
  @Test func childContainersUseTheChosenComponentsCast() {
    let ledger = PRLedger()
    do {
      let parent = DIContainer()
      parent.register { R26Alpha(ledger) }.as(R26Named.self)
      parent.register { R26User(named: $0, ledger) }
      let overriding = DIContainer(parent: parent)
      overriding.register { () -> R26Root in R26Painted<R26Blue>(ledger) }.as(R26Named.self)
      let plain = DIContainer(parent: parent)
      for _ in 0..<5 {
        let fromParent: R26User = parent.resolve()
        let fromOverriding: R26User = overriding.resolve()
        let fromPlain: R26User = plain.resolve()
        #expect(fromParent.named is R26Alpha && r26Sound(fromParent.named))
        #expect(fromOverriding.named is R26Painted<R26Blue> && r26Sound(fromOverriding.named))
        #expect(fromPlain.named is R26Alpha && r26Sound(fromPlain.named))
        let all: [any R26Named] = many(overriding.resolve())
        #expect(all.count == 2 && all.allSatisfy(r26Sound))
      }
    }
    #expect(ledger.alive == 0)
  }

  /// Edits and registrations after the first request make new snapshots: a lifetime
  /// changed, a `.test()` override of another class, and back.
  @Test func editsAfterTheFirstRequest() {
    let ledger = PRLedger()
    do {
      let container = DIContainer()
      let alpha = container.register { R26Alpha(ledger) }.as(R26Named.self)
      container.register { R26User(named: $0, ledger) }
      let first: R26User = container.resolve()
      #expect(r26Sound(first.named))
      alpha.lifetime(.perContainer(.single))
      let a: R26User = container.resolve()
      let b: R26User = container.resolve()
      #expect(a.named === b.named && r26Sound(a.named) && a.named !== first.named)
      let derived = container.register { () -> R26Root in R26Derived(ledger) }
        .as(R26Named.self).test()
      let c: R26User = container.resolve()
      #expect(c.named is R26Derived && r26Sound(c.named))
      derived.lifetime(.objectGraph)
      let d: R26User = container.resolve()
      #expect(d.named is R26Derived && r26Sound(d.named) && d.named !== c.named)
      let e: any R26Named = container.resolve()
      #expect(e is R26Derived && r26Sound(e))
    }
    #expect(ledger.alive == 0)
  }

  /// `resolveAsync`, async factories of objects of several classes, `AsyncLazy` and
  /// `AsyncProvider` of the protocol.
  @Test func asyncResolutionWritesSoundExistentials() async throws {
    let ledger = PRLedger()
    do {
      let container = DIContainer()
      let turn = Counter()
      container.register { () async -> R26Root in r26Make(turn.next() - 1, ledger) }
        .as(R26Named.self)
      container.register { (named: any R26Named) async -> R26User in R26User(named: named, ledger) }
      for _ in 0..<20 {
        let user: R26User = try await container.resolveAsync()
        #expect(r26Sound(user.named), "\(r26Describe(user.named))")
        let lazy: AsyncLazy<any R26Named> = try await container.resolveAsync()
        let lazyValue = try await lazy.value
        #expect(r26Sound(lazyValue))
        let provider: AsyncProvider<any R26Named> = try await container.resolveAsync()
        let provided = try await provider.value
        #expect(r26Sound(provided))
      }
      #expect(r26Learned(container, (any R26Named).self, for: R26Alpha.self) == learnsCasts)
    }
    #expect(ledger.alive == 0)
  }

  /// Many threads make the first requests of fresh containers at once (each learning,
  /// or not, its class first); every existential is sound, nothing hangs or leaks.
  @Test func concurrentFirstRequestsAgree() async {
    let ledger = PRLedger()
    let unsound = LockedValue<[String]>([])
    let rounds = TestEnvironment.rounds(40, minimum: 6)
    for round in 0..<rounds {
      let container = DIContainer()
      let turn = Counter()
      container.register { () -> R26Root in r26Make(round + turn.next() - 1, ledger) }
        .as(R26Named.self)
      container.register { R26User(named: $0, ledger) }
      container.register { R26Pair(first: $0, second: $1, ledger) }
      let finished = await runThreads(4, timeout: TestEnvironment.limit(30)) { index in
        for step in 0..<40 {
          let named: any R26Named
          if (index + step) % 2 == 0 {
            let user: R26User = container.resolve()
            named = user.named
          } else {
            let pair: R26Pair = container.resolve()
            named = pair.second
          }
          if !r26Sound(named) { unsound.withLock { $0.append(r26Describe(named)) } }
        }
      }
      #expect(finished, "round \(round): the threads did not finish")
      guard finished else { return }
    }
    #expect(unsound.current.count == 0, "first ones: \(unsound.current.prefix(5))")
    #expect(ledger.alive == 0)
  }

  /// After shutdown, a learned service is refused like every other.
  @Test func aLearnedServiceIsRefusedAfterShutdown() async throws {
    let ledger = PRLedger()
    let container = DIContainer()
    container.register { R26Alpha(ledger) }.as(R26Named.self).lifetime(.perContainer(.single))
    container.register { R26User(named: $0, ledger) }
    for _ in 0..<3 {
      let user: R26User = try container.tryResolve()
      #expect(r26Sound(user.named))
    }
    await container.shutdown()
    #expect(ledger.alive == 0, "shutdown dropped the cached object")
    #expect(throws: DIError.self) { _ = try container.tryResolve() as R26User }
    do {
      _ = try container.tryResolve() as R26User
    } catch {
      #expect(error.code == .containerShutDown)
    }
  }

  /// A conformance isolated to the main actor (SE-0470): off the main actor the
  /// runtime's cast of the object fails, and so does the request. After a request on the
  /// main actor found the conformance (and recorded its table), a request off the main
  /// actor must still fail: the learned table would hand a main-actor-isolated
  /// conformance to another thread (the reason the earlier cast-once cache was reverted).
  @MainActor @Test func anIsolatedConformanceLearnedOnTheMainActorIsNotServedOffIt()
    async throws
  {
    let container = DIContainer()
    container.register { R26MainOnly() }.as(R26Isolated.self)
    container.register { R26IsolatedUser(service: $0) }
    // The cast the container makes, of its object as `Any`, fails off the main actor.
    let plainOffMain = await resultOnThread { ((R26MainOnly() as Any) as? any R26Isolated) != nil }
    #expect(plainOffMain == false, "premise: the plain cast fails off the main actor")
    let before = await resultOnThread { r26IsolatedRequests(container) }
    #expect(before == "dependency fails, top level fails", "before a request on the main actor")
    let onMain: R26IsolatedUser = try container.tryResolve()
    #expect(onMain.service.ping() == 7)
    let direct: any R26Isolated = try container.tryResolve()
    #expect(direct.ping() == 7)
    let after = await resultOnThread { r26IsolatedRequests(container) }
    #expect(after == before, "off the main actor, after a request on it recorded the table")
  }

  // MARK: ParameterModifiers

  /// The table answers exactly what the runtime answers: the classification of a
  /// table's type, of a type the table may collide with, and of types of every shape.
  @Test func theTableAndTheRuntimeClassifyAlike() {
    let container = r26ModifierBase(PRLedger())
    container.register { (_: Lazy<R26Leaf>?, _: Lazy<R26Leaf?>, _: DIMany<any R26Named>) in
      R26Sink("")
    }
    container.register { (_: Provider<R26Missing>?, _: R26Leaf??, _: DIByTag<R26TagA, R26Leaf>) in
      R26Sink("")
    }
    let types: [Any.Type] = [
      Lazy<R26Leaf>?.self, Lazy<R26Leaf?>.self, DIMany<any R26Named>.self,
      Provider<R26Missing>?.self, R26Leaf??.self, DIByTag<R26TagA, R26Leaf>.self,
      Lazy<R26Leaf>.self, R26Leaf?.self, Provider<R26Missing>.self, DIMany<R26Leaf>.self,
      R26Leaf.self, (any R26Named).self, AnyObject.self, Any.self, Int.self, [Int].self,
      (Int, Lazy<R26Leaf>).self, ((Lazy<R26Leaf>) -> Void).self, Lazy<R26Leaf>.Type.self,
      LazyWithArguments<R26Leaf, Int>.self, AsyncLazy<R26Leaf>.self,
      AsyncLazyWithArguments<R26Leaf, Int, String>.self, ProviderWithArguments<R26Leaf, Int>.self,
      AsyncProvider<R26Leaf>.self, AsyncProviderWithArguments<R26Leaf, Int>.self,
      DIArg<Int>.self, DIByTags<R26Leaf, R26TagA, R26TagB>.self, R26Generic<Lazy<Int>>.self,
      R26Sink.self, Optional<Any>.self, Optional<AnyObject>.self, Optional<Any.Type>.self,
    ]
    for type in types {
      let runtime = (type as? any DIParameterModifier.Type).map { ObjectIdentifier($0) }
      let table = ModifierCache.modifier(of: type).map { ObjectIdentifier($0) }
      let classified = DIRequest.modifier(type).map { ObjectIdentifier($0) }
      #expect(classified == runtime, "\(type)")
      #expect(table == nil || table == ObjectIdentifier(type), "\(type)")
    }
    #expect(ModifierCache.modifier(of: Lazy<R26Leaf>?.self) != nil)
    #expect(
      ModifierCache.modifier(of: Lazy<R26Leaf>.self).map { ObjectIdentifier($0) }
        == ObjectIdentifier(Lazy<R26Leaf>.self), "not a parameter's own type, a modifier still")
  }

  /// Top-level requests and parameters of nested modifiers come out the same whether
  /// the snapshot's table or the runtime classifies them.
  @Test func nestedModifiersComeOutAlikeThroughTheTableAndTheRuntime() {
    var results: [(String, R26Classified)] = []
    func check<T>(_ type: T.Type, _ describe: @escaping @Sendable (T) -> String) {
      results.append(("\(T.self)", r26Classified(T.self, describe)))
    }
    check(Lazy<R26Leaf>.self) { r26Leafy(try? $0.tryValue()) }
    check(Lazy<R26Leaf>?.self) { $0.map { r26Leafy(try? $0.tryValue()) } ?? "none" }
    check(Lazy<R26Leaf?>.self) { r26Leafy(try? $0.tryValue()) }
    check(Lazy<R26Missing?>.self) { (try? $0.tryValue()) == nil ? "nil" : "some" }
    check(Lazy<R26Missing>?.self) { $0 == nil ? "none" : "some" }
    check(Provider<R26Leaf>.self) { r26Leafy(try? $0.tryValue()) }
    check(Provider<R26Leaf?>?.self) { $0.map { r26Leafy(try? $0.tryValue()) } ?? "none" }
    check(Provider<R26Missing?>.self) { (try? $0.tryValue()) == nil ? "nil" : "some" }
    check(R26Leaf?.self) { r26Leafy($0) }
    check(R26Leaf??.self) { $0.map(r26Leafy) ?? "none" }
    check(R26Missing?.self) { $0 == nil ? "nil" : "some" }
    check(R26Missing??.self) { $0.map { $0 == nil ? "nil" : "some" } ?? "none" }
    check((any R26Named)?.self) { $0.map { _ in "some" } ?? "nil" }
    check(DIMany<any R26Named>.self) { "\(many($0).count) \(many($0).allSatisfy(r26Sound))" }
    check(DIMany<R26Missing>.self) { "\(many($0).count)" }
    check(DIMany<R26Leaf>?.self) { $0.map { "\(many($0).count)" } ?? "none" }
    check(DIMany<Lazy<any R26Named>>.self) {
      "\(many($0).count) \(many($0).allSatisfy { r26Sound($0.value) })"
    }
    check(DIMany<(any R26Named)?>.self) { "\(many($0).count)" }
    check(DIByTag<R26TagA, R26Leaf>.self) { r26Leafy(by(tag: R26TagA.self, on: $0)) }
    check(DIByTag<R26TagB, R26Leaf>?.self) { $0 == nil ? "none" : "some" }
    check(DIByTag<R26TagA, R26Leaf?>.self) { r26Leafy(by(tag: R26TagA.self, on: $0)) }
    check(DIByTag<R26TagA, Lazy<R26Leaf>>.self) {
      r26Leafy(try? by(tag: R26TagA.self, on: $0).tryValue())
    }
    check(Lazy<DIMany<any R26Named>>.self) {
      "\((try? $0.tryValue()).map { many($0).count } ?? -1)"
    }
    check(AsyncLazy<R26Leaf>.self) { _ in "made" }
    check(AsyncProvider<R26Leaf?>.self) { _ in "made" }
    check(Provider1<R26Leaf, Int>.self) { _ in "made" }
    for (name, result) in results {
      #expect(
        result.table == result.runtime, "\(name): table \(result.table), runtime \(result.runtime)")
      if !result.runtime.hasPrefix("error") {
        #expect(result.parameter == result.runtime, "\(name) as a parameter: \(result.parameter)")
      }
      #expect(result.cacheAgrees, "\(name): the table answers otherwise than the runtime")
    }
  }

  /// Two hundred specializations of a generic type, three modifier parameters each (600
  /// modifier types): each request finds its own, whether its cell is registered or not.
  /// (A thousand, as first written, took 22 s under ThreadSanitizer, holding one of the
  /// test run's two threads while other suites' async tests waited with deadlines.)
  @Test func twoHundredGenericModifierParameterTypesEachFindTheirOwn() {
    let container = DIContainer()
    for number in 0..<200 {
      r26RegisterCell(number, withCell: number % 3 != 0, in: container)
    }
    var wrong: [String] = []
    for number in 0..<200 {
      let (held, notHeld) = r26CellTypes(number)
      for type in held + notHeld {
        let runtime = (type as? any DIParameterModifier.Type).map { ObjectIdentifier($0) }
        if ModifierCache.modifier(of: type).map({ ObjectIdentifier($0) }) != runtime {
          wrong.append("\(type)")
        }
      }
    }
    #expect(wrong.count == 0, "first ones: \(wrong.prefix(5))")
    var mismatches: [String] = []
    for number in stride(from: 0, to: 200, by: 7) {
      let present = number % 3 != 0
      let expected = R26CellReport(
        holderOptional: present ? number : nil, holderLazy: present ? number : nil,
        holderProvider: present ? number : nil, topOptional: present ? number : nil,
        topLazyOptional: present ? number : nil, topLazy: present ? number : nil)
      let report = r26CellReport(number, in: container)
      if report != expected { mismatches.append("\(number): \(String(describing: report))") }
    }
    #expect(mismatches.count == 0, "first ones: \(mismatches.prefix(5))")
  }

  /// A child container has a table of its own components; requests through it for types
  /// of its parent's parameters, of its own, and of neither resolve.
  @Test func childContainersAndTheirParentsTables() {
    let ledger = PRLedger()
    let parent = DIContainer()
    parent.register { R26Leaf(ledger) }
    parent.register { (lazy: Lazy<R26Leaf>) in R26Sink(r26Leafy(try? lazy.tryValue())) }
    let child = DIContainer(parent: parent)
    child.register { (leaf: R26Leaf?, leaves: DIMany<R26Leaf>) in
      R26Noted("\(r26Leafy(leaf)) \(leaves.values.count)")
    }
    for _ in 0..<3 {
      let sink: R26Sink = child.resolve()
      #expect(sink.text == "leaf")
      let lazy: Lazy<R26Leaf> = child.resolve()
      #expect(r26Leafy(try? lazy.tryValue()) == "leaf")
      let optional: R26Leaf? = parent.resolve()
      #expect(optional != nil)
      let noted: R26Noted = child.resolve()
      #expect(noted.note == "leaf 1")
      let missing: R26Missing? = child.resolve()
      #expect(missing == nil)
    }
  }

  /// A component added after requests, with modifier parameters no earlier component
  /// had: the new snapshot's table answers for them; a modifier type registered as a
  /// service is still the registered one.
  @Test func registrationsAfterRequestsAndRegisteredModifierTypes() {
    let ledger = PRLedger()
    let container = DIContainer()
    container.register { R26Leaf(ledger) }
    container.register { (leaf: Lazy<R26Leaf>) in R26Sink("first \(r26Leafy(try? leaf.tryValue()))")
    }
    let first: R26Sink = container.resolve()
    #expect(first.text == "first leaf")
    container.register { (provider: Provider<R26Leaf>?, lazy: Lazy<R26Leaf>) in
      let provided = provider.map { r26Leafy(try? $0.tryValue()) } ?? "none"
      return R26Noted("\(provided) \(r26Leafy(try? lazy.tryValue()))")
    }
    let noted: R26Noted = container.resolve()
    #expect(noted.note == "leaf leaf")
    #expect(ModifierCache.modifier(of: Provider<R26Leaf>?.self) != nil)
    // A `Lazy<R26Leaf>` registered as a service: the parameters and the top level get it.
    let registered = Counter()
    container.register { () -> Lazy<R26Leaf> in
      registered.next()
      return Lazy { R26Leaf(ledger) }
    }
    let again: R26Sink = container.resolve()
    #expect(again.text == "first leaf")
    let top: Lazy<R26Leaf> = container.resolve()
    #expect(r26Leafy(try? top.tryValue()) == "leaf")
    #expect(registered.value == 2, "the registered Lazy was made for both requests")
  }

  /// Async delayed parameters and runtime arguments beside modifier parameters.
  @Test func asyncDelayedParametersAndArguments() async throws {
    let ledger = PRLedger()
    let container = DIContainer()
    container.register { () async -> R26Leaf in R26Leaf(ledger) }
    container.register { R26Beta(ledger) }
    container.register { (lazy: AsyncLazy<R26Leaf>, provider: AsyncProvider<R26Leaf>?) in
      R26AsyncHolder(lazy: lazy, provider: provider)
    }
    container.register { (key: DIArg<Int>, leaf: Lazy<R26Missing>?, betas: DIMany<R26Beta>) in
      R26Sink("\(arg(key)) \(leaf == nil ? "none" : "some") \(betas.values.count)")
    }
    let holder: R26AsyncHolder = try container.tryResolve()
    let made = try await holder.lazy.value
    #expect(made.serial > 0)
    let provided = try await holder.provider?.value
    #expect(provided != nil && provided !== made)
    let top: AsyncLazy<R26Leaf> = try await container.resolveAsync()
    _ = try await top.value
    let sink: R26Sink = try container.tryResolve(arguments: [42])
    #expect(sink.text.hasPrefix("42 "))
    let asyncSink: R26Sink = try await container.resolveAsync(arg: 7)
    #expect(asyncSink.text == sink.text.replacingOccurrences(of: "42", with: "7"))
  }

  /// Threads resolve modifier parameters while another registers components with new
  /// modifier parameter types (new snapshots, new tables): every answer is right.
  @Test func modifierRequestsWhileRegistrationsChangeTheTable() async {
    let container = DIContainer()
    for number in 0..<40 { r26RegisterCell(number, withCell: number % 2 == 0, in: container) }
    let wrong = LockedValue<[String]>([])
    let registering = Flag()
    let finished = await runThreads(4, timeout: TestEnvironment.limit(60)) { index in
      if index == 0 {
        for number in 40..<400 { r26RegisterCell(number, withCell: number % 2 == 0, in: container) }
        registering.raise()
        return
      }
      var round = 0
      while !registering.isRaised || round < 20 {
        let number = (round * 7 + index * 13) % 40
        round += 1
        let report = r26CellReport(number, in: container)
        let present = number % 2 == 0
        if report?.holderOptional != (present ? number : nil)
          || report?.topLazy != (present ? number : nil)
          || report?.topLazyOptional != (present ? number : nil)
        {
          wrong.withLock { $0.append("\(number): \(String(describing: report))") }
        }
      }
    }
    #expect(finished)
    #expect(wrong.current.count == 0, "first ones: \(wrong.current.prefix(5))")
    let report = r26CellReport(399, in: container)
    #expect(report?.holderOptional == nil && report?.holderLazy == nil)
    #expect(r26CellReport(398, in: container)?.holderLazy == 398)
  }

  // MARK: lastLoadedModule

  /// A part and a framework of one type, and several modules in turn: each answers for
  /// itself, whichever was remembered last.
  @Test func theRememberedModuleAnswersOnlyForItself() {
    let container = DIContainer()
    let framework = DIModuleID(.framework, type: R26ModuleA.self)
    let part = DIModuleID(.part, type: R26ModuleA.self)
    let other = DIModuleID(.framework, type: R26ModuleB.self)
    let never = DIModuleID(.framework, type: R26ModuleC.self)
    #expect(container.load(framework) {})
    #expect(framework.bits != part.bits && framework.bits != 0 && part.bits != 0)
    for _ in 0..<3 {
      #expect(container.hasLoaded(framework))
      #expect(!container.hasLoaded(part))
      #expect(!container.hasLoaded(other))
      #expect(container.hasLoaded(framework))
      #expect(!container.hasLoaded(never))
    }
    #expect(container.load(part) {})
    #expect(!container.load(framework) {}, "a module loads once")
    #expect(container.hasLoaded(part) && container.hasLoaded(framework))
    #expect(!container.hasLoaded(DIModuleID(.part, type: R26ModuleB.self)))
    #expect(container.load(other) {})
    for _ in 0..<3 {
      #expect(container.hasLoaded(other) && container.hasLoaded(part))
      #expect(container.hasLoaded(framework) && !container.hasLoaded(never))
      #expect(!container.hasLoaded(DIModuleID(.part, type: R26ModuleB.self)))
    }
    // Specializations of a generic module type are modules of their own.
    #expect(container.load(r26Module(1)) {})
    #expect(container.hasLoaded(r26Module(1)))
    #expect(!container.hasLoaded(r26Module(2)))
    #expect(!container.hasLoaded(r26Module(1, .part)))
  }

  /// A parent, two children and a grandchild: a child's remembered module never answers
  /// for its parent or its sibling, and a child loads what its parent has not.
  @Test func parentsChildrenAndSiblingsRememberTheirOwn() {
    let parent = DIContainer()
    let a = DIModuleID(.framework, type: R26ModuleA.self)
    let b = DIModuleID(.framework, type: R26ModuleB.self)
    let c = DIModuleID(.part, type: R26ModuleC.self)
    #expect(parent.load(a) {})
    let first = DIContainer(parent: parent)
    let second = DIContainer(parent: parent)
    let grandchild = DIContainer(parent: first)
    var ran = 0
    #expect(!first.load(a) { ran += 1 }, "the parent has it")
    #expect(ran == 0)
    #expect(first.load(b) { ran += 1 })
    #expect(ran == 1)
    for _ in 0..<3 {
      #expect(first.hasLoaded(b))
      #expect(!parent.hasLoaded(b))
      #expect(!second.hasLoaded(b))
      #expect(grandchild.hasLoaded(b))
      #expect(first.hasLoaded(a) && second.hasLoaded(a) && grandchild.hasLoaded(a))
      #expect(!grandchild.hasLoaded(c) && !first.hasLoaded(c) && !parent.hasLoaded(c))
    }
    #expect(!grandchild.load(b) { ran += 1 })
    #expect(second.load(b) { ran += 1 })
    #expect(ran == 2)
    #expect(second.hasLoaded(b) && !parent.hasLoaded(b))
    #expect(grandchild.load(c) { ran += 1 })
    #expect(grandchild.hasLoaded(c) && !first.hasLoaded(c) && !second.hasLoaded(c))
    // While a module's load runs, it counts as loaded (it loads once).
    let d = r26Module(5)
    var inside: Bool?
    #expect(parent.load(d) { inside = parent.hasLoaded(d) && first.hasLoaded(d) })
    #expect(inside == true)
  }

  /// One thread loads modules while others ask about them: a module is reported loaded
  /// only once its load began, stays loaded, and a part of the same type never is.
  @Test func loadedModulesUnderConcurrentQuestions() async {
    let rounds = TestEnvironment.rounds(20, minimum: 4)
    let wrong = LockedValue<[String]>([])
    for round in 0..<rounds {
      let parent = DIContainer()
      let child = DIContainer(parent: parent)
      let started = (0..<10).map { _ in Flag() }
      let done = Flag()
      let finished = await runThreads(4, timeout: TestEnvironment.limit(30)) { index in
        if index == 0 {
          for digit in 0..<10 {
            started[digit].raise()
            let container = digit % 2 == 0 ? parent : child
            let ran = container.load(r26Module(digit), {})
            if !ran { wrong.withLock { $0.append("round \(round): \(digit) loaded twice") } }
          }
          done.raise()
          return
        }
        let asked = index == 1 ? parent : child
        var seen = [Bool](repeating: false, count: 10)
        var step = 0
        while !done.isRaised || step < 50 {
          let digit = (step * 3 + index) % 10
          step += 1
          let loaded = asked.hasLoaded(r26Module(digit))
          let visible = index != 1 || digit % 2 == 0
          if loaded && (!visible || !started[digit].isRaised) {
            wrong.withLock { $0.append("round \(round): \(digit) loaded before its load") }
          }
          if seen[digit] && !loaded {
            wrong.withLock { $0.append("round \(round): \(digit) unloaded") }
          }
          seen[digit] = seen[digit] || loaded
          if asked.hasLoaded(r26Module(digit, .part)) {
            wrong.withLock { $0.append("round \(round): part \(digit) loaded") }
          }
        }
        for digit in 0..<10
        where asked.hasLoaded(r26Module(digit)) != (index != 1 || digit % 2 == 0) {
          wrong.withLock { $0.append("round \(round): \(digit) wrong at the end") }
        }
      }
      #expect(finished, "round \(round) did not finish")
      guard finished else { return }
    }
    #expect(wrong.current.count == 0, "first ones: \(wrong.current.prefix(5))")
  }
}
