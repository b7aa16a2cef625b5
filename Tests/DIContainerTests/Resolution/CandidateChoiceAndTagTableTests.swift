// How a request chooses among candidates, how the service table keeps its slots, and how a
// snapshot files tag combinations:
// 1. `DIResolutionContext.value(_:tag:)`: a parameter whose key has several candidates is
//    chosen out of line (`chosenValue(_:tag:at:)`);
// 2. `ServiceTable.Slots` holds its three arrays by their first element, and the table's
//    `deinit` deinitializes `mask + 1` slots of each;
// 3. `Snapshot.init` reads each component's services once and asks `TagSet.intersections`
//    only for a component with two tagged services or more.
//
// What would break, and what these tests hold it to:
// - a dependency with several candidates chosen by the wrong rule (or not at all): its
//   modular choice (the requesting component's framework, then the ones it imports), its
//   `.default()` and `.test()` one, through a child container whose parent has the
//   candidates, in initializers, injections, delayed values, request scopes and async
//   resolution; the ambiguous error with its path and both registrations' `file:line`;
// - a tag combination no longer filed: every combination of 0, 1, 2 and 3 tags, a tagged
//   service beside tags of another type, duplicated tags, `many` of the plain type, of one
//   tag and of several;
// - a slot out of range, or one too few or too many deinitialized: tables of every size
//   from 1 to 1,000 keys, each key found in its slot, the last slot occupied at least once,
//   and every component released with its container (a slot left out leaks its
//   component; one too many reads past the buffer, which a sanitizer build reports).
//
// `DIContainerTests` depends on `DIContainer` alone (Package.swift), so `DIFrameworks`
// cannot be imported here: `RNFramework` and the `rn…` helpers below are its
// `append(framework:)`, `import(_:)` and `resolve(from:)`, line for line, on the core's
// `package` API, which is all that module adds.
//
// Workers never call `#expect` (see CoreTestSupport.swift): they record what they saw.

import DITestSupport
import Testing

@testable import DIContainer

// MARK: - Frameworks, as DIFrameworks makes them

/// `DIFramework`, whose module this target cannot import.
private protocol RNFramework {
  static func load(container: DIContainer)
}

extension DIContainer {
  /// `append(framework:)`.
  fileprivate func rnAppend(framework: any RNFramework.Type) {
    load(DIModuleID(.framework, type: framework)) { framework.load(container: self) }
  }

  /// `import(_:)` inside a framework's `load`.
  fileprivate func rnImport(_ framework: any RNFramework.Type) {
    let imported = DIModuleID(.framework, type: framework)
    if let importer = loadingFramework, importer != imported {
      addImport(imported, to: importer)
    }
    rnAppend(framework: framework)
  }

  /// `tryResolve(from:)`.
  fileprivate func rnTryResolve<T>(_ type: T.Type = T.self, from framework: any RNFramework.Type)
    throws(DIError) -> T
  {
    try resolve(T.self, from: DIModuleID(.framework, type: framework), arguments: nil)
  }
}

// MARK: - Fixtures

private protocol RNStore: AnyObject, Sendable {
  var name: String { get }
}

private final class RNNamedStore: RNStore {
  let name: String
  init(_ name: String) { self.name = name }
}

/// Needs a store: the dependency with several candidates.
private final class RNConsumer: Sendable {
  let store: any RNStore
  init(store: any RNStore) { self.store = store }
}

/// Needs a consumer: the store is two steps down its path.
private final class RNOuter: Sendable {
  let consumer: RNConsumer
  init(consumer: RNConsumer) { self.consumer = consumer }
}

/// Takes its store by property injection.
private final class RNInjected: @unchecked Sendable {
  var store: (any RNStore)?
}

/// Takes its store through a `Provider` and a `Lazy`.
private final class RNDelayed: Sendable {
  let provider: Provider<any RNStore>
  let lazy: Lazy<any RNStore>
  init(provider: Provider<any RNStore>, lazy: Lazy<any RNStore>) {
    self.provider = provider
    self.lazy = lazy
  }
}

/// The consumer a framework registers, by framework: one type per framework, so each is
/// asked for unambiguously.
private final class RNFrameworkConsumer<Framework>: Sendable {
  let store: any RNStore
  init(store: any RNStore) { self.store = store }
}

/// Registers a store named `name` in whatever framework is loading.
private func rnRegisterStore(_ name: String, in container: DIContainer) {
  container.register { RNNamedStore(name) }.as((any RNStore).self)
}

/// Core: a store of its own.
private enum RNCoreFramework: RNFramework {
  static func load(container: DIContainer) {
    rnRegisterStore("core", in: container)
  }
}

/// Other: a store of its own; nobody imports it.
private enum RNOtherFramework: RNFramework {
  static func load(container: DIContainer) {
    rnRegisterStore("other", in: container)
  }
}

/// Billing: its own store and consumer; imports Core, whose store it does not need.
private enum RNBillingFramework: RNFramework {
  static func load(container: DIContainer) {
    container.rnImport(RNCoreFramework.self)
    rnRegisterStore("billing", in: container)
    container.register { RNFrameworkConsumer<RNBillingFramework>(store: $0) }
    container.register { RNInjected() }.injection(\.store) { (store: any RNStore) in store }
    container.register(RNDelayed.init)
  }
}

/// Shipping: no store of its own; imports Core, so Core's serves it.
private enum RNShippingFramework: RNFramework {
  static func load(container: DIContainer) {
    container.rnImport(RNCoreFramework.self)
    container.register { RNFrameworkConsumer<RNShippingFramework>(store: $0) }
  }
}

/// Reports: no store of its own and no import: nothing decides for it.
private enum RNReportsFramework: RNFramework {
  static func load(container: DIContainer) {
    container.register { RNFrameworkConsumer<RNReportsFramework>(store: $0) }
  }
}

/// Audit: imports Shipping (which imports Core) and has no store: imports are one level
/// deep, so Core's store is not Audit's.
private enum RNAuditFramework: RNFramework {
  static func load(container: DIContainer) {
    container.rnImport(RNShippingFramework.self)
    container.register { RNFrameworkConsumer<RNAuditFramework>(store: $0) }
  }
}

/// Ledger: two stores of its own, one `.default()`; imports Core.
private enum RNLedgerFramework: RNFramework {
  static func load(container: DIContainer) {
    container.rnImport(RNCoreFramework.self)
    rnRegisterStore("ledger", in: container)
    container.register { RNNamedStore("ledger-default") }.as((any RNStore).self).default()
    container.register { RNFrameworkConsumer<RNLedgerFramework>(store: $0) }
  }
}

// Tags.
private protocol RNPet: AnyObject, Sendable {
  var name: String { get }
}
private protocol RNToy: AnyObject, Sendable {}

private final class RNAnimal: RNPet, RNToy {
  let name: String
  init(_ name: String) { self.name = name }
}

private enum RNTagA {}
private enum RNTagB {}
private enum RNTagC {}
private enum RNTagD {}

/// Takes its pet under several tags.
private final class RNHouse: Sendable {
  let pet: any RNPet
  init(pet: any RNPet) { self.pet = pet }
}

// Many keys: a thousand types from one generic class.
private final class RNKey<Hundreds: SCDigit, Tens: SCDigit, Ones: SCDigit>: Sendable {
  static var number: Int { Hundreds.value * 100 + Tens.value * 10 + Ones.value }
  let number = RNKey.number
}

/// Needs key 0 and the store: a dependency with several candidates in a large table.
private final class RNKeyUser: Sendable {
  let key: RNKey<SCDigit0, SCDigit0, SCDigit0>
  let store: any RNStore
  init(key: RNKey<SCDigit0, SCDigit0, SCDigit0>, store: any RNStore) {
    self.key = key
    self.store = store
  }
}

/// Does `body` with the key type of `number` (0..<1,000).
private func rnWithKey<Result>(
  _ number: Int, _ body: (any RNKeyOpener.Type) -> Result
) -> Result {
  func open<H: SCDigit, T: SCDigit, O: SCDigit>(_: H.Type, _: T.Type, _: O.Type)
    -> any RNKeyOpener.Type
  {
    RNKeyType<H, T, O>.self
  }
  return body(open(scDigit(number / 100), scDigit(number / 10 % 10), scDigit(number % 10)))
}

/// What a test does with one key type, whose digits are known only at run time.
private protocol RNKeyOpener {
  static var key: ServiceKey { get }
  static func register(in container: DIContainer)
  static func resolvedNumber(from container: DIContainer) -> Int?
}

private enum RNKeyType<H: SCDigit, T: SCDigit, O: SCDigit>: RNKeyOpener {
  static var key: ServiceKey { ServiceKey(RNKey<H, T, O>.self) }

  static func register(in container: DIContainer) {
    container.register { RNKey<H, T, O>() }
  }

  static func resolvedNumber(from container: DIContainer) -> Int? {
    let key: RNKey<H, T, O>? = try? container.tryResolve()
    return key?.number
  }
}

/// The number of slots of a table of `provisions` keys (`ServiceTable.init`'s rule).
private func rnCapacity(provisions: Int) -> Int {
  var capacity = 8
  while capacity < provisions * 2 { capacity *= 2 }
  return capacity
}

// MARK: - Tests

@Suite struct CandidateChoiceAndTagTableTests {
  // MARK: Several candidates for a dependency: modularity

  /// Billing (with Core), Shipping, Reports, Audit and Other appended, with a store and
  /// two consumers from outside every framework.
  private func frameworks() -> DIContainer {
    let container = DIContainer()
    rnRegisterStore("app", in: container)
    container.register(RNConsumer.init)
    container.register(RNOuter.init)
    container.rnAppend(framework: RNBillingFramework.self)
    container.rnAppend(framework: RNShippingFramework.self)
    container.rnAppend(framework: RNReportsFramework.self)
    container.rnAppend(framework: RNAuditFramework.self)
    container.rnAppend(framework: RNOtherFramework.self)
    return container
  }

  @Test func aFrameworksComponentGetsItsOwnFrameworksCandidateForADependency() throws {
    let container = frameworks()
    // Asked from outside every framework: the component's framework decides.
    let billing: RNFrameworkConsumer<RNBillingFramework> = try container.tryResolve()
    #expect(billing.store.name == "billing")
    // Asked as Billing: the same.
    let asBilling = try container.rnTryResolve(
      RNFrameworkConsumer<RNBillingFramework>.self, from: RNBillingFramework.self)
    #expect(asBilling.store.name == "billing")
    // Billing's own store, asked as Billing at the top.
    #expect(
      try container.rnTryResolve((any RNStore).self, from: RNBillingFramework.self).name
        == "billing")
    // Property injection of a Billing component.
    let injected: RNInjected = try container.tryResolve()
    #expect(injected.store?.name == "billing")
    // Delayed values made by a Billing component keep Billing as the requester.
    let delayed: RNDelayed = try container.tryResolve()
    #expect(delayed.provider.value.name == "billing")
    #expect(delayed.lazy.value.name == "billing")
  }

  @Test func aFrameworksOwnDefaultDecidesAmongItsCandidatesAndServesOthersLast() throws {
    let container = frameworks()
    container.rnAppend(framework: RNLedgerFramework.self)
    // Two own candidates: the `.default()` one among them, before the imported one.
    let ledger: RNFrameworkConsumer<RNLedgerFramework> = try container.tryResolve()
    #expect(ledger.store.name == "ledger-default")
    // Modularity first: Billing's own and Shipping's import are unchanged by it.
    let billing: RNFrameworkConsumer<RNBillingFramework> = try container.tryResolve()
    #expect(billing.store.name == "billing")
    let shipping: RNFrameworkConsumer<RNShippingFramework> = try container.tryResolve()
    #expect(shipping.store.name == "core")
    // Where modularity leaves them all, it is the only `.default()` of all of them.
    let reports: RNFrameworkConsumer<RNReportsFramework> = try container.tryResolve()
    #expect(reports.store.name == "ledger-default")
    let outer: RNOuter = try container.tryResolve()
    #expect(outer.consumer.store.name == "ledger-default")
  }

  @Test func aFrameworkWithoutACandidateGetsTheOneOfTheFrameworkItImports() throws {
    let container = frameworks()
    let shipping: RNFrameworkConsumer<RNShippingFramework> = try container.tryResolve()
    #expect(shipping.store.name == "core")
    let asShipping = try container.rnTryResolve((any RNStore).self, from: RNShippingFramework.self)
    #expect(asShipping.name == "core")
  }

  @Test func nothingDecidesForAFrameworkWithoutCandidatesOrADirectImport() throws {
    let container = frameworks()
    // Outside every framework: app, core, billing and other, and no default.
    let outside: RNConsumer? = try? container.tryResolve()
    #expect(outside == nil)
    let reports = try #require(throws: DIError.self) {
      let _: RNFrameworkConsumer<RNReportsFramework> = try container.tryResolve()
    }
    #expect(reports.code == .ambiguous)
    #expect(reports.path.count == 2)
    // Audit imports Shipping, which imports Core: one level deep, Core's is not Audit's.
    let audit = try #require(throws: DIError.self) {
      let _: RNFrameworkConsumer<RNAuditFramework> = try container.tryResolve()
    }
    #expect(audit.code == .ambiguous)
  }

  @Test func aFrameworksChoiceHoldsDeepInAGraphAskedFromOutside() throws {
    let container = DIContainer()
    rnRegisterStore("app", in: container)
    container.rnAppend(framework: RNBillingFramework.self)
    // Outside: a component needing Billing's consumer, which needs a store.
    container.register { (consumer: RNFrameworkConsumer<RNBillingFramework>) in
      RNOuter(consumer: RNConsumer(store: consumer.store))
    }
    let outer: RNOuter = try container.tryResolve()
    #expect(outer.consumer.store.name == "billing")
    // And the outside component's own request of a store is still ambiguous (app, core,
    // billing).
    container.register { (store: any RNStore) in RNConsumer(store: store) }
    let error = try #require(throws: DIError.self) {
      let _: RNConsumer = try container.tryResolve()
    }
    #expect(error.code == .ambiguous)
  }

  // MARK: Several candidates: .default() and .test()

  @Test func aDependencysDefaultCandidateIsChosenOnEveryPath() async throws {
    let container = DIContainer()
    rnRegisterStore("first", in: container)
    container.register { RNNamedStore("default") }.as((any RNStore).self).default()
    rnRegisterStore("last", in: container)
    container.register(RNConsumer.init)
    container.register(RNOuter.init)
    container.register { RNInjected() }.injection(\.store) { (store: any RNStore) in store }
    container.register(RNDelayed.init)

    let outer: RNOuter = try container.tryResolve()
    #expect(outer.consumer.store.name == "default")
    let consumer: RNConsumer = try container.tryResolve()
    #expect(consumer.store.name == "default")
    let store: any RNStore = try container.tryResolve()
    #expect(store.name == "default")
    let injected: RNInjected = try container.tryResolve()
    #expect(injected.store?.name == "default")
    let delayed: RNDelayed = try container.tryResolve()
    #expect(try delayed.provider.tryValue().name == "default")
    #expect(try delayed.lazy.tryValue().name == "default")
    let scope = container.makeScope()
    let scoped: RNOuter = try scope.tryResolve()
    #expect(scoped.consumer.store.name == "default")
    scope.close()
    let viaAsync: RNOuter = try await container.resolveAsync()
    #expect(viaAsync.consumer.store.name == "default")
    // `many` still gets all three, in registration order.
    let all: [any RNStore] = try many(container.tryResolve())
    #expect(all.map(\.name) == ["first", "default", "last"])

    // A second `.default()`: ambiguous again, for the dependency too.
    container.register { RNNamedStore("another default") }.as((any RNStore).self).default()
    let error = try #require(throws: DIError.self) {
      let _: RNOuter = try container.tryResolve()
    }
    #expect(error.code == .ambiguous)
  }

  @Test func aDependencysTestCandidateBeatsTheDefaultAndTheFrameworksOwn() throws {
    let container = DIContainer()
    container.register { RNNamedStore("default") }.as((any RNStore).self).default()
    container.register(RNOuter.init)
    container.register(RNConsumer.init)
    container.rnAppend(framework: RNBillingFramework.self)
    // Before the test double: Billing's own, and the default outside.
    let before: RNFrameworkConsumer<RNBillingFramework> = try container.tryResolve()
    #expect(before.store.name == "billing")
    let outerBefore: RNOuter = try container.tryResolve()
    #expect(outerBefore.consumer.store.name == "default")

    container.register { RNNamedStore("test") }.as((any RNStore).self).test()
    let outer: RNOuter = try container.tryResolve()
    #expect(outer.consumer.store.name == "test")
    let billing: RNFrameworkConsumer<RNBillingFramework> = try container.tryResolve()
    #expect(billing.store.name == "test")
    let injected: RNInjected = try container.tryResolve()
    #expect(injected.store?.name == "test")
    let asBilling = try container.rnTryResolve((any RNStore).self, from: RNBillingFramework.self)
    #expect(asBilling.name == "test")
  }

  // MARK: Several candidates: the ambiguous error

  @Test func anAmbiguousDependencyNamesThePathAndEveryCandidatesLocation() throws {
    let container = DIContainer()
    let outerLine = #line + 1
    container.register(RNOuter.init)
    let consumerLine = #line + 1
    container.register(RNConsumer.init)
    let firstLine = #line + 1
    container.register { RNNamedStore("first") }.as((any RNStore).self)
    let secondLine = #line + 1
    container.register { RNNamedStore("second") }.as((any RNStore).self)

    let error = try #require(throws: DIError.self) {
      let _: RNOuter = try container.tryResolve()
    }
    #expect(error.code == .ambiguous)
    #expect(error.requested == "RNOuter")
    #expect(error.path.map(\.requested) == ["RNOuter", "RNConsumer", "RNStore"])
    #expect(error.candidates.count == 2)
    let file = "DIContainerTests/CandidateChoiceAndTagTableTests.swift"
    let text = scUnqualified(error.description)
    #expect(text.contains("Cannot resolve RNOuter: RNStore is ambiguous for RNConsumer"))
    #expect(text.contains("path: RNOuter → RNConsumer → RNStore"))
    #expect(text.contains("\(file):\(outerLine)"))
    #expect(text.contains("\(file):\(consumerLine)"))
    #expect(text.contains("RNNamedStore (\(file):\(firstLine))"))
    #expect(text.contains("RNNamedStore (\(file):\(secondLine))"))
    #expect(text.contains("mark one .default()"))
    // An optional request of the store itself is nil, and so is an optional parameter;
    // an optional request of RNOuter is not (the failure is deeper in its graph).
    let optional: (any RNStore)? = container.resolve()
    #expect(optional == nil)
    let deeper = try #require(throws: DIError.self) {
      let _: RNOuter? = try container.tryResolve()
    }
    #expect(deeper.code == .ambiguous)
    container.register { (store: (any RNStore)?) in
      let injected = RNInjected()
      injected.store = store
      return injected
    }
    let withOptional: RNInjected = try container.tryResolve()
    #expect(withOptional.store == nil)
  }

  @Test func anAmbiguousDependencyInAFrameworkNamesTheFramework() throws {
    let container = DIContainer()
    rnRegisterStore("app", in: container)
    rnRegisterStore("app 2", in: container)
    container.rnAppend(framework: RNReportsFramework.self)
    let error = try #require(throws: DIError.self) {
      let _: RNFrameworkConsumer<RNReportsFramework> = try container.tryResolve()
    }
    #expect(error.code == .ambiguous)
    #expect(error.path.count == 2)
    #expect(error.path.last?.requested == "RNStore")
    #expect(error.candidates.count == 2)
    let text = scUnqualified(error.description)
    #expect(text.contains("RNReportsFramework"))
    #expect(
      scOccurrences(of: "DIContainerTests/CandidateChoiceAndTagTableTests.swift:", in: text) >= 3)
  }

  // MARK: Tags

  /// Registers `RNAnimal(name)` as `RNPet` under each of `tags` (none: untagged), with one
  /// instance across its services.
  private static func registerPet(
    _ name: String, tags: [any RNTagType.Type], in container: DIContainer
  ) {
    let builder = container.register { RNAnimal(name) }.lifetime(.perContainer(.single))
    if tags.isEmpty { builder.as((any RNPet).self) }
    for tag in tags { tag.tag(builder) }
  }

  /// zero (no tag), one (A), two (A, B), three (A, B, C), split (D on RNPet, A on RNToy).
  private func tagged() -> DIContainer {
    let container = DIContainer()
    Self.registerPet("zero", tags: [], in: container)
    Self.registerPet("one", tags: [RNTagA.self], in: container)
    Self.registerPet("two", tags: [RNTagA.self, RNTagB.self], in: container)
    Self.registerPet("three", tags: [RNTagA.self, RNTagB.self, RNTagC.self], in: container)
    container.register { RNAnimal("split") }.as((any RNPet).self, tag: RNTagD.self)
      .as((any RNToy).self, tag: RNTagA.self)
    return container
  }

  @Test func manyFindsEveryComponentUnderEachTagAndEachCombination() {
    let container = tagged()
    func names(_ pets: [any RNPet]) -> [String] { pets.map(\.name) }
    #expect(names(many(container.resolve())) == ["zero", "one", "two", "three", "split"])
    #expect(names(many(by(tag: RNTagA.self, on: container.resolve()))) == ["one", "two", "three"])
    #expect(names(many(by(tag: RNTagB.self, on: container.resolve()))) == ["two", "three"])
    #expect(names(many(by(tag: RNTagC.self, on: container.resolve()))) == ["three"])
    #expect(names(many(by(tag: RNTagD.self, on: container.resolve()))) == ["split"])
    #expect(
      names(many(by(tags: RNTagA.self, RNTagB.self, on: container.resolve()))) == ["two", "three"])
    #expect(
      names(many(by(tags: RNTagB.self, RNTagA.self, on: container.resolve()))) == ["two", "three"])
    #expect(names(many(by(tags: RNTagA.self, RNTagC.self, on: container.resolve()))) == ["three"])
    #expect(names(many(by(tags: RNTagC.self, RNTagB.self, on: container.resolve()))) == ["three"])
    #expect(
      names(many(by(tags: RNTagA.self, RNTagB.self, RNTagC.self, on: container.resolve())))
        == ["three"])
    #expect(
      names(
        many(
          by(
            tag: RNTagC.self,
            on: by(tag: RNTagA.self, on: by(tag: RNTagB.self, on: container.resolve()))))
      ) == ["three"])
    // D is split's on RNPet, A only on RNToy: no component has both on RNPet.
    #expect(names(many(by(tags: RNTagA.self, RNTagD.self, on: container.resolve()))) == [])
    #expect(names(many(by(tags: RNTagC.self, RNTagD.self, on: container.resolve()))) == [])
    let toys: [any RNToy] = many(by(tag: RNTagA.self, on: container.resolve()))
    #expect(toys.map { ($0 as? RNAnimal)?.name } == ["split"])
  }

  @Test func aSingleRequestFindsTheOnlyComponentUnderItsTags() throws {
    let container = tagged()
    let c: any RNPet = by(tag: RNTagC.self, on: try container.tryResolve())
    #expect(c.name == "three")
    let ac: any RNPet = by(tags: RNTagA.self, RNTagC.self, on: try container.tryResolve())
    #expect(ac.name == "three")
    let bc: any RNPet = by(tags: RNTagB.self, RNTagC.self, on: try container.tryResolve())
    #expect(bc.name == "three")
    let abc: any RNPet = by(
      tags: RNTagC.self, RNTagA.self, RNTagB.self, on: try container.tryResolve())
    #expect(abc.name == "three")
    #expect(abc === c, "one instance across its services")
    let d: any RNPet = by(tag: RNTagD.self, on: try container.tryResolve())
    #expect(d.name == "split")
    // Two candidates under A and B (two, three) and none preferred.
    let ab: (any RNPet)? = by(tags: RNTagA.self, RNTagB.self, on: container.resolve())
    #expect(ab == nil)
    let error = try #require(throws: DIError.self) {
      let _: any RNPet = by(tags: RNTagA.self, RNTagB.self, on: try container.tryResolve())
    }
    #expect(error.code == .ambiguous)
    // No component under A and D as RNPet.
    let ad: (any RNPet)? = by(tags: RNTagA.self, RNTagD.self, on: container.resolve())
    #expect(ad == nil)
  }

  @Test func aDependencyUnderSeveralTagsIsTheComponentWithAllOfThem() throws {
    let container = tagged()
    container.register { RNHouse(pet: by(tags: RNTagB.self, RNTagC.self, on: $0)) }
    let house: RNHouse = try container.tryResolve()
    #expect(house.pet.name == "three")
    let single: any RNPet = by(tag: RNTagC.self, on: try container.tryResolve())
    #expect(house.pet === single)

    // A default among the two under A and B decides for the dependency.
    let other = DIContainer()
    Self.registerPet("two", tags: [RNTagA.self, RNTagB.self], in: other)
    other.register { RNAnimal("preferred") }.as((any RNPet).self, tag: RNTagA.self)
      .as((any RNPet).self, tag: RNTagB.self).default()
    other.register { RNHouse(pet: by(tags: RNTagA.self, RNTagB.self, on: $0)) }
    let preferred: RNHouse = try other.tryResolve()
    #expect(preferred.pet.name == "preferred")
  }

  @Test(arguments: 0...3)
  func everyCombinationOfAComponentsTagsFindsIt(tagCount: Int) throws {
    let all: [any RNTagType.Type] = [RNTagA.self, RNTagB.self, RNTagC.self]
    let tags = Array(all.prefix(tagCount))
    let container = DIContainer()
    Self.registerPet("pet", tags: tags, in: container)
    // Every non-empty subset of its tags, as `many` and as a single request.
    for mask in 1..<(1 << tags.count) {
      let subset = tags.indices.filter { mask & (1 << $0) != 0 }.map { tags[$0] }
      let found = try RNTagRequest.pets(under: subset, in: container)
      #expect(found.map(\.name) == ["pet"], "under \(subset)")
      let single = try RNTagRequest.pet(under: subset, in: container)
      #expect(single?.name == "pet", "under \(subset)")
    }
    // A tag it does not have, alone or with its own: nothing.
    let missing = try RNTagRequest.pets(under: tags + [RNTagD.self], in: container)
    #expect(missing.isEmpty)
    // The plain type finds it too (through its tags when it has any).
    let plain: [any RNPet] = many(container.resolve())
    #expect(plain.map(\.name) == ["pet"])
  }

  @Test func tagsOnOtherTypesAndRepeatedTagsMakeNoFalseCombination() throws {
    let container = DIContainer()
    // A on RNPet, B on RNToy: two tagged services, no combination on either type.
    container.register { RNAnimal("mixed") }.as((any RNPet).self, tag: RNTagA.self)
      .as((any RNToy).self, tag: RNTagB.self)
    // A twice on RNPet: one tagged service.
    container.register { RNAnimal("twice") }.as((any RNPet).self, tag: RNTagC.self)
      .as((any RNPet).self, tag: RNTagC.self)
    // Its own type under two tags, which takes the plain key away.
    container.register { RNAnimal("own") }.as(RNAnimal.self, tag: RNTagA.self)
      .as(RNAnimal.self, tag: RNTagD.self)

    let petAB: [any RNPet] = many(by(tags: RNTagA.self, RNTagB.self, on: container.resolve()))
    #expect(petAB.isEmpty)
    let toyAB: [any RNToy] = many(by(tags: RNTagA.self, RNTagB.self, on: container.resolve()))
    #expect(toyAB.isEmpty)
    let petA: any RNPet = by(tag: RNTagA.self, on: try container.tryResolve())
    #expect(petA.name == "mixed")
    let toyB: any RNToy = by(tag: RNTagB.self, on: try container.tryResolve())
    #expect((toyB as? RNAnimal)?.name == "mixed")
    let twice: any RNPet = by(tags: RNTagC.self, RNTagC.self, on: try container.tryResolve())
    #expect(twice.name == "twice")
    let own: RNAnimal = by(tags: RNTagD.self, RNTagA.self, on: try container.tryResolve())
    #expect(own.name == "own")
    let ownPlain: RNAnimal? = container.resolve()
    #expect(ownPlain == nil, "a type registered under its own tags has no plain key")
  }

  // MARK: Many registrations

  @Test func aThousandKeysAreAllFoundAndReleasedWithTheirContainer() throws {
    for _ in 0..<TestEnvironment.rounds(4, minimum: 2) {
      var weakComponents: [WeakBox<AnyObject>] = []
      do {
        let container = DIContainer()
        for number in 0..<1_000 {
          rnWithKey(number) { $0.register(in: container) }
        }
        rnRegisterStore("first", in: container)
        container.register { RNNamedStore("default") }.as((any RNStore).self).default()
        container.register(RNKeyUser.init)
        for number in 0..<1_000 {
          let resolved = rnWithKey(number) { $0.resolvedNumber(from: container) }
          #expect(resolved == number)
        }
        let user: RNKeyUser = try container.tryResolve()
        #expect(user.key.number == 0)
        #expect(user.store.name == "default")
        weakComponents = container.snapshot.components.map { WeakBox<AnyObject>($0) }
        #expect(weakComponents.count == 1_003)
      }
      let kept = weakComponents.filter { $0.object != nil }.count
      #expect(kept == 0, "\(kept) components outlived their container")
    }
  }

  @Test func tablesOfEverySizeFindEveryKeyAndFreeEverySlot() {
    // Around every power of two the table's capacity changes at (4 to 1,024 keys), and
    // others between.
    var sizes: Set<Int> = [1, 2, 3, 999, 1_000]
    for bits in 2...10 {
      let power = 1 << bits
      sizes.formUnion([power - 1, power, power + 1, power + power / 2])
    }
    var lastSlotUsed = 0
    for size in sizes.sorted() where size <= 1_000 {
      if Self.checkTable(keys: 0..<size) { lastSlotUsed += 1 }
    }
    // The last slot, which a deinit of `mask` slots would leave, must have been occupied
    // somewhere: where metadata addresses made it free in every table above (it was taken
    // in 3 to 31 of them in 15 runs), tables of other keys until it is.
    var start = 0
    while lastSlotUsed == 0, start < 900 {
      start += 7
      if Self.checkTable(keys: start..<(start + 60)) { lastSlotUsed += 1 }
    }
    #expect(lastSlotUsed > 0)
  }

  /// Checks a container of the keys `numbers` (0..<1,000): each key in a slot of its own
  /// within the table, with its only candidate; no slot for another key; the first and last
  /// resolve; every component released with the container. Returns whether the table's
  /// last slot was occupied.
  private static func checkTable(
    keys numbers: Range<Int>, sourceLocation: SourceLocation = #_sourceLocation
  ) -> Bool {
    var lastSlotUsed = false
    var weakComponents: [WeakBox<AnyObject>] = []
    do {
      let container = DIContainer()
      for number in numbers {
        rnWithKey(number) { $0.register(in: container) }
      }
      let table = container.snapshot.table
      let capacity = rnCapacity(provisions: numbers.count)
      var slots: Set<Int> = []
      for number in numbers {
        let index = rnWithKey(number) { table.slots.index(of: $0.key) }
        guard let index else {
          Issue.record("key \(number) of \(numbers) not found", sourceLocation: sourceLocation)
          continue
        }
        #expect((0..<capacity).contains(index), sourceLocation: sourceLocation)
        slots.insert(index)
        guard case .single = table.slots.entry(at: index), table.slots.single(at: index) != nil
        else {
          Issue.record(
            "key \(number) of \(numbers) has several candidates", sourceLocation: sourceLocation)
          continue
        }
      }
      #expect(slots.count == numbers.count, sourceLocation: sourceLocation)
      lastSlotUsed = slots.contains(capacity - 1)
      #expect(table.slots.index(of: ServiceKey(RNConsumer.self)) == nil)
      let first = numbers.lowerBound
      let last = numbers.upperBound - 1
      #expect(
        rnWithKey(first) { $0.resolvedNumber(from: container) } == first,
        sourceLocation: sourceLocation)
      #expect(
        rnWithKey(last) { $0.resolvedNumber(from: container) } == last,
        sourceLocation: sourceLocation)
      weakComponents = container.snapshot.components.map { WeakBox<AnyObject>($0) }
      #expect(weakComponents.count == numbers.count, sourceLocation: sourceLocation)
    }
    let kept = weakComponents.filter { $0.object != nil }.count
    #expect(
      kept == 0, "\(kept) of \(numbers.count) components outlived their container",
      sourceLocation: sourceLocation)
    return lastSlotUsed
  }

  // MARK: Child containers

  @Test func aChildUsesItsParentsChoiceAmongSeveralCandidates() throws {
    let parent = DIContainer()
    rnRegisterStore("parent", in: parent)
    parent.register { RNNamedStore("parent default") }.as((any RNStore).self).default()
    parent.register(RNConsumer.init)
    let child = DIContainer(parent: parent)
    child.register(RNOuter.init)

    // The child has no store: the parent's candidates, and their default.
    let outer: RNOuter = try child.tryResolve()
    #expect(outer.consumer.store.name == "parent default")
    let fromChild: RNConsumer = try child.tryResolve()
    #expect(fromChild.store.name == "parent default")
    let all: [any RNStore] = many(child.resolve())
    #expect(all.map(\.name) == ["parent", "parent default"])

    // A child's plain candidate beats them all, the parent's `.test()` one too, for the
    // parent's prototype consumer resolved through the child.
    parent.register { RNNamedStore("parent test") }.as((any RNStore).self).test()
    let tested: RNOuter = try child.tryResolve()
    #expect(tested.consumer.store.name == "parent test")
    rnRegisterStore("child", in: child)
    let overridden: RNOuter = try child.tryResolve()
    #expect(overridden.consumer.store.name == "child")
    let fromParent: RNConsumer = try parent.tryResolve()
    #expect(fromParent.store.name == "parent test", "a parent never sees its child's")
    let collected: [any RNStore] = many(child.resolve())
    #expect(collected.map(\.name) == ["child", "parent", "parent default", "parent test"])

    // Two child candidates and no default: ambiguous, whatever the parent prefers.
    rnRegisterStore("child 2", in: child)
    let error = try #require(throws: DIError.self) {
      let _: RNOuter = try child.tryResolve()
    }
    #expect(error.code == .ambiguous)
    #expect(error.path.map(\.requested) == ["RNOuter", "RNConsumer", "RNStore"])
  }

  @Test func aChildOfAParentWithAmbiguousCandidatesFailsWithThePath() throws {
    let parent = DIContainer()
    rnRegisterStore("a", in: parent)
    rnRegisterStore("b", in: parent)
    let child = DIContainer(parent: parent)
    child.register(RNConsumer.init)
    child.register(RNOuter.init)
    let error = try #require(throws: DIError.self) {
      let _: RNOuter = try child.tryResolve()
    }
    #expect(error.code == .ambiguous)
    #expect(error.path.map(\.requested) == ["RNOuter", "RNConsumer", "RNStore"])
    #expect(error.candidates.count == 2)
    let optional: (any RNStore)? = child.resolve()
    #expect(optional == nil)
  }

  @Test func aChildResolvesAParentFrameworksComponentByThatFrameworksChoice() throws {
    let parent = DIContainer()
    rnRegisterStore("app", in: parent)
    parent.rnAppend(framework: RNBillingFramework.self)
    parent.rnAppend(framework: RNShippingFramework.self)
    parent.register { RNNamedStore("cached") }.as((any RNStore).self).default()
    parent.register(RNConsumer.init).lifetime(.perContainer(.single))
    let child = DIContainer(parent: parent)
    let billing: RNFrameworkConsumer<RNBillingFramework> = try child.tryResolve()
    #expect(billing.store.name == "billing")
    let shipping: RNFrameworkConsumer<RNShippingFramework> = try child.tryResolve()
    #expect(shipping.store.name == "core")
    let fromParent: RNFrameworkConsumer<RNShippingFramework> = try parent.tryResolve()
    #expect(fromParent.store.name == "core")
    let asShipping = try child.rnTryResolve((any RNStore).self, from: RNShippingFramework.self)
    #expect(asShipping.name == "core")
    // A cached consumer is the parent's, made from the parent's candidates.
    rnRegisterStore("child", in: child)
    let cached: RNConsumer = try child.tryResolve()
    #expect(cached.store.name == "cached")
    let same: RNConsumer = try parent.tryResolve()
    #expect(same === cached)
    // A prototype of the parent's frameworks resolved through the child sees the child's
    // store: the child's level decides first.
    let overridden: RNFrameworkConsumer<RNBillingFramework> = try child.tryResolve()
    #expect(overridden.store.name == "child")
    let parentsOwn: RNFrameworkConsumer<RNBillingFramework> = try parent.tryResolve()
    #expect(parentsOwn.store.name == "billing")
  }

  // MARK: Threads

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func threadsResolveAChoiceWhileAnotherThreadRegisters() async throws {
    let container = DIContainer()
    rnRegisterStore("first", in: container)
    container.register { RNNamedStore("default") }.as((any RNStore).self).default()
    container.register(RNConsumer.init)
    container.register(RNOuter.init)
    container.rnAppend(framework: RNBillingFramework.self)
    Self.registerPet("two", tags: [RNTagA.self, RNTagB.self], in: container)
    Self.registerPet("three", tags: [RNTagA.self, RNTagB.self, RNTagC.self], in: container)
    let rounds = TestEnvironment.rounds(300, minimum: 30)
    let keys = min(rounds, 1_000)
    let wrong = Counter()
    let done = Flag()
    let failures = LockedValue<[String]>([])
    let finished = await runThreads(4, timeout: TestEnvironment.limit(120)) { index in
      if index == 0 {
        // Registers new keys, more stores (none preferred) and more tagged pets.
        for number in 0..<keys {
          rnWithKey(number) { $0.register(in: container) }
          if number.isMultiple(of: 10) {
            rnRegisterStore("extra \(number)", in: container)
            Self.registerPet(
              "extra \(number)", tags: [RNTagA.self, RNTagB.self, RNTagC.self], in: container)
          }
        }
        done.raise()
        return
      }
      var round = 0
      while round < rounds || !done.isRaised {
        round += 1
        do throws(DIError) {
          let outer: RNOuter = try container.tryResolve()
          let billing: RNFrameworkConsumer<RNBillingFramework> = try container.tryResolve()
          let pets: [any RNPet] = many(by(tags: RNTagB.self, RNTagA.self, on: container.resolve()))
          let three: [any RNPet] = many(by(tags: RNTagC.self, RNTagA.self, on: container.resolve()))
          if outer.consumer.store.name != "default" || billing.store.name != "billing"
            || pets.count < 2 || pets.first?.name != "two" || three.first?.name != "three"
          {
            wrong.next()
          }
        } catch {
          failures.withLock { $0.append(scBrief(error)) }
        }
        if round > 100 * rounds { break }  // a registrar that never ends
      }
    }
    #expect(finished, "the threads did not finish")
    #expect(wrong.value == 0, "\(wrong.value) resolutions chose wrong")
    #expect(failures.current.isEmpty, "\(failures.current.first ?? "")")
    // Afterwards every key registered resolves, and the choices still hold.
    for number in 0..<keys {
      #expect(rnWithKey(number) { $0.resolvedNumber(from: container) } == number)
    }
    let outer: RNOuter = try container.tryResolve()
    #expect(outer.consumer.store.name == "default")
    let extra = (keys + 9) / 10
    let three: [any RNPet] = try many(
      by(tags: RNTagA.self, RNTagC.self, on: container.tryResolve()))
    #expect(three.count == 1 + extra)
    let ab: [any RNPet] = try many(by(tags: RNTagA.self, RNTagB.self, on: container.tryResolve()))
    #expect(ab.count == 2 + extra)
  }
}

// MARK: - Tag requests known at run time

/// A tag type, which can tag a builder and make requests under itself.
private protocol RNTagType {
  static func tag<Impl>(_ builder: DIComponentBuilder<Impl>)
}

extension RNTagA: RNTagType {}
extension RNTagB: RNTagType {}
extension RNTagC: RNTagType {}
extension RNTagD: RNTagType {}

extension RNTagType {
  static func tag<Impl>(_ builder: DIComponentBuilder<Impl>) {
    builder.as((any RNPet).self, tag: Self.self)
  }
}

/// `many(by(tags: …))` and `by(tags: …)` of `RNPet` for tags known at run time (up to
/// four), spelled as users spell them.
private enum RNTagRequest {
  static func pets(under tags: [any RNTagType.Type], in container: DIContainer) throws
    -> [any RNPet]
  {
    func one<A: RNTagType>(_ a: A.Type) -> [any RNPet] {
      many(by(tag: A.self, on: container.resolve()))
    }
    func two<A: RNTagType, B: RNTagType>(_ a: A.Type, _ b: B.Type) -> [any RNPet] {
      many(by(tags: A.self, B.self, on: container.resolve()))
    }
    func three<A: RNTagType, B: RNTagType, C: RNTagType>(_ a: A.Type, _ b: B.Type, _ c: C.Type)
      -> [any RNPet]
    {
      many(by(tags: A.self, B.self, C.self, on: container.resolve()))
    }
    func four<A: RNTagType, B: RNTagType, C: RNTagType, D: RNTagType>(
      _ a: A.Type, _ b: B.Type, _ c: C.Type, _ d: D.Type
    ) -> [any RNPet] {
      many(by(tags: A.self, B.self, C.self, D.self, on: container.resolve()))
    }
    switch tags.count {
    case 1: return one(tags[0])
    case 2: return two(tags[0], tags[1])
    case 3: return three(tags[0], tags[1], tags[2])
    case 4: return four(tags[0], tags[1], tags[2], tags[3])
    default:
      Issue.record("\(tags.count) tags")
      return []
    }
  }

  static func pet(under tags: [any RNTagType.Type], in container: DIContainer) throws
    -> (any RNPet)?
  {
    func one<A: RNTagType>(_ a: A.Type) -> (any RNPet)? {
      by(tag: A.self, on: container.resolve())
    }
    func two<A: RNTagType, B: RNTagType>(_ a: A.Type, _ b: B.Type) -> (any RNPet)? {
      by(tags: A.self, B.self, on: container.resolve())
    }
    func three<A: RNTagType, B: RNTagType, C: RNTagType>(_ a: A.Type, _ b: B.Type, _ c: C.Type)
      -> (any RNPet)?
    {
      by(tags: A.self, B.self, C.self, on: container.resolve())
    }
    switch tags.count {
    case 1: return one(tags[0])
    case 2: return two(tags[0], tags[1])
    case 3: return three(tags[0], tags[1], tags[2])
    default:
      Issue.record("\(tags.count) tags")
      return nil
    }
  }
}
