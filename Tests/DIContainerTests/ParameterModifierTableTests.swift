// A snapshot keeps the modifier of every parameter type of its components that is one
// (ParameterModifiers), so a request for `Lazy<X>`, `X?`, `Provider<X>` or `DIMany<X>` asks
// the runtime nothing. These tests hold that the table answers for exactly those types,
// each with its own modifier, through collisions and growth, and that what it answers for
// resolves as before.

import Foundation
import Testing

@testable import DIContainer

private final class PMLeaf {}
private final class PMAbsent {}
private final class PMInjected { var leaf: Lazy<PMLeaf>? }
private final class PMUser {
  let lazy: Lazy<PMLeaf>
  let optional: PMLeaf?
  let absent: PMAbsent?
  let provider: Provider<PMLeaf>
  let many: [PMLeaf]
  init(
    lazy: Lazy<PMLeaf>, optional: PMLeaf?, absent: PMAbsent?, provider: Provider<PMLeaf>,
    many: [PMLeaf]
  ) {
    (self.lazy, self.optional, self.absent, self.provider, self.many) =
      (lazy, optional, absent, provider, many)
  }
}

/// A generic type of many distinct instantiations, for many modifier parameter types.
private final class PMBox<Tag> {}

@Suite struct ParameterModifierTableTests {
  private func container() -> DIContainer {
    let container = DIContainer()
    container.register(PMLeaf.init)
    container.register { PMUser(lazy: $0, optional: $1, absent: $2, provider: $3, many: many($4)) }
    container.register(PMInjected.init).injection(\.leaf)
    return container
  }

  @Test func theTableAnswersForEachModifierParameterWithItsOwnModifier() {
    let modifiers = container().snapshot.parameterModifiers
    let expected: [Any.Type] = [
      Lazy<PMLeaf>.self, Optional<PMLeaf>.self, Optional<PMAbsent>.self, Provider<PMLeaf>.self,
      DIMany<PMLeaf>.self, Optional<Lazy<PMLeaf>>.self,
    ]
    for type in expected {
      let modifier = modifiers.modifier(of: type)
      #expect(modifier.map { ObjectIdentifier($0) } == ObjectIdentifier(type), "\(type)")
    }
    let others: [Any.Type] = [PMLeaf.self, PMUser.self, Lazy<PMAbsent>.self, Int.self]
    for type in others {
      #expect(modifiers.modifier(of: type) == nil, "\(type)")
    }
  }

  @Test func whatTheTableAnswersForResolvesAsBefore() {
    let container = container()
    for _ in 0..<3 {
      let user: PMUser = container.resolve()
      #expect(user.optional != nil)
      #expect(user.absent == nil)
      #expect(ObjectIdentifier(user.lazy.value) != ObjectIdentifier(user.provider.value))
      #expect(user.many.count == 1)
      let injected: PMInjected = container.resolve()
      #expect(injected.leaf?.value != nil)
    }
    // Not a parameter of any component: asked of the runtime, as before.
    let topLevel: Lazy<PMLeaf> = container.resolve()
    #expect(topLevel.value !== container.resolve() as PMLeaf)
  }

  @Test func manyModifierTypesEachFindTheirOwn() {
    let container = DIContainer()
    var types: [Any.Type] = []
    func register<Tag>(_: Tag.Type) {
      container.register { (_: PMBox<Tag>?, _: Lazy<PMBox<Tag>>) in PMBox<(Tag, Tag)>() }
      types += [Optional<PMBox<Tag>>.self, Lazy<PMBox<Tag>>.self]
    }
    register(Int.self)
    register(String.self)
    register(Double.self)
    register(Bool.self)
    register(UInt8.self)
    register(Int8.self)
    register((Int, Int).self)
    register([Int].self)
    register([String: Int].self)
    register(Set<Int>.self)
    register(PMLeaf.self)
    register(PMUser.self)
    let modifiers = container.snapshot.parameterModifiers
    for type in types {
      #expect(
        modifiers.modifier(of: type).map { ObjectIdentifier($0) } == ObjectIdentifier(type),
        "\(type)")
    }
    #expect(modifiers.modifier(of: Optional<PMBox<Float>>.self) == nil)
  }

  @Test func aContainerWithNoModifierParameterHasAnEmptyTable() {
    let container = DIContainer()
    container.register(PMLeaf.init)
    #expect(container.snapshot.parameterModifiers.modifier(of: Optional<PMLeaf>.self) == nil)
    let optional: PMLeaf? = container.resolve()
    #expect(optional != nil)
  }
}
