// Whether a type is a parameter modifier is asked of the runtime once per type, then read
// from a process-wide table (ModifierCache). These tests hold that the table answers every
// type with its own modifier or none, first and later, through collisions, concurrent first
// askers and a full table, and that what it answers for resolves as before.

import DITestSupport
import Foundation
import Testing

@testable import DIContainer

private final class MCLeaf {}
private final class MCAbsent {}
private final class MCInjected { var leaf: Lazy<MCLeaf>? }
private final class MCUser {
  let lazy: Lazy<MCLeaf>
  let optional: MCLeaf?
  let absent: MCAbsent?
  let provider: Provider<MCLeaf>
  let many: [MCLeaf]
  init(
    lazy: Lazy<MCLeaf>, optional: MCLeaf?, absent: MCAbsent?, provider: Provider<MCLeaf>,
    many: [MCLeaf]
  ) {
    (self.lazy, self.optional, self.absent, self.provider, self.many) =
      (lazy, optional, absent, provider, many)
  }
}
private struct MCValue {}
private enum MCTag {}

/// A generic struct whose nestings are as many distinct types as needed.
private struct MCNest<Inner> {}

/// `count` distinct struct types: `MCNest<Leaf>`, `MCNest<MCNest<Leaf>>`, …
private func nestedTypes<Leaf>(_ count: Int, around leaf: Leaf.Type) -> [Any.Type] {
  guard count > 0 else { return [] }
  return [MCNest<Leaf>.self] + nestedTypes(count - 1, around: MCNest<Leaf>.self)
}

/// `Optional` of each nesting of `leaf`, `count` deep.
private func optionalTypes<Leaf>(_ count: Int, around leaf: Leaf.Type) -> [Any.Type] {
  guard count > 0 else { return [] }
  return [Optional<MCNest<Leaf>>.self] + optionalTypes(count - 1, around: MCNest<Leaf>.self)
}

@Suite struct ModifierCacheTests {
  private func answer(_ type: Any.Type) -> ObjectIdentifier? {
    ModifierCache.modifier(of: type).map { ObjectIdentifier($0) }
  }

  @Test func eachModifierIsAnsweredWithItselfFirstAndLater() {
    let modifiers: [Any.Type] = [
      Optional<MCValue>.self, Lazy<MCValue>.self, Provider<MCValue>.self,
      DIMany<MCValue>.self, DIByTag<MCTag, MCValue>.self, DIArg<MCValue>.self,
      Optional<Lazy<MCValue>>.self, LazyWithArguments<MCValue, Int>.self,
    ]
    for _ in 0..<3 {
      for type in modifiers {
        #expect(answer(type) == ObjectIdentifier(type), "\(type)")
        #expect(DIRequest.modifier(type).map { ObjectIdentifier($0) } == ObjectIdentifier(type))
      }
    }
    let services: [Any.Type] = [MCValue.self, MCTag.self, [MCValue].self, Int.self, String.self]
    for _ in 0..<3 {
      for type in services { #expect(answer(type) == nil, "\(type)") }
    }
  }

  @Test func whatTheCacheAnswersForResolvesAsBefore() {
    let container = DIContainer()
    container.register(MCLeaf.init)
    container.register { MCUser(lazy: $0, optional: $1, absent: $2, provider: $3, many: many($4)) }
    container.register(MCInjected.init).injection(\.leaf)
    for _ in 0..<3 {
      let user: MCUser = container.resolve()
      #expect(user.optional != nil)
      #expect(user.absent == nil)
      #expect(user.lazy.value !== user.provider.value)
      #expect(user.many.count == 1)
      let injected: MCInjected = container.resolve()
      #expect(injected.leaf?.value != nil)
      let topLevel: Lazy<MCLeaf> = container.resolve()
      #expect(topLevel.value !== container.resolve() as MCLeaf)
      let absent: MCAbsent? = container.resolve()
      #expect(absent == nil)
    }
  }

  @Test func concurrentFirstAskersAllGetTheRightAnswer() async {
    let modifiers = optionalTypes(60, around: Int8.self)
    let services = nestedTypes(60, around: Int8.self)
    let wrong = Counter()
    let finished = await runThreads(4, timeout: TestEnvironment.limit(30)) { thread in
      for round in 0..<3 {
        for index in modifiers.indices {
          // Each thread starts at another place, so first askers race on every type.
          let at = (index + thread * 15 + round) % modifiers.count
          if ModifierCache.modifier(of: modifiers[at]).map({ ObjectIdentifier($0) })
            != ObjectIdentifier(modifiers[at])
          {
            wrong.next()
          }
          if ModifierCache.modifier(of: services[at]) != nil { wrong.next() }
        }
      }
    }
    #expect(finished)
    #expect(wrong.value == 0)
  }

  @Test func typesBeyondAFullTableAreStillAnswered() {
    // A table of 8 slots holds 6 types; the others are asked of the runtime each time.
    let table = ModifierCache.Table(bits: 3)
    #expect(table.limit == 6)
    let modifiers = optionalTypes(12, around: UInt16.self)
    let services = nestedTypes(12, around: UInt32.self)
    for _ in 0..<3 {
      for (modifier, service) in zip(modifiers, services) {
        let answer = table.modifier(of: modifier).map { ObjectIdentifier($0) }
        #expect(answer == ObjectIdentifier(modifier))
        #expect(table.modifier(of: service) == nil)
      }
    }
  }

  @Test func concurrentFirstAskersOfASmallTableFillItSoundly() async {
    let table = ModifierCache.Table(bits: 4)
    let modifiers = optionalTypes(20, around: UInt64.self)
    let wrong = Counter()
    let finished = await runThreads(4, timeout: TestEnvironment.limit(30)) { thread in
      for round in 0..<20 {
        for index in modifiers.indices {
          let at = (index + thread * 5 + round) % modifiers.count
          if table.modifier(of: modifiers[at]).map({ ObjectIdentifier($0) })
            != ObjectIdentifier(modifiers[at])
          {
            wrong.next()
          }
        }
      }
    }
    #expect(finished)
    #expect(wrong.value == 0)
  }
}
