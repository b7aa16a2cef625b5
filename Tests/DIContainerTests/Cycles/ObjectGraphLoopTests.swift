import DIContainer
import Testing

final class SCGraphA {
  var b: SCGraphB?
}

final class SCGraphB {
  var c: SCGraphC?
}

final class SCGraphC {
  var a: SCGraphA?
}

/// A → B → C → A, all `.objectGraph`, by plain property injections (no `cycle: true`).
@Suite struct ObjectGraphLoopTests {
  static func makeContainer() -> DIContainer {
    let container = DIContainer()
    container.register(SCGraphA.init).lifetime(.objectGraph).injection(\.b)
    container.register(SCGraphB.init).lifetime(.objectGraph).injection(\.c)
    container.register(SCGraphC.init).lifetime(.objectGraph).injection(\.a)
    return container
  }

  @Test func loopResolvedFromItsFirstMemberClosesOnThatMember() async throws {
    let container = Self.makeContainer()
    let a = try #require(await scInstance(SCGraphA.self, from: container))
    let b = try #require(a.b)
    let c = try #require(b.c)
    #expect(c.a === a)
  }

  @Test func loopEnteredFromAnotherMemberClosesOnThatMember() async throws {
    let container = Self.makeContainer()
    let b = try #require(await scInstance(SCGraphB.self, from: container))
    let c = try #require(b.c)
    let a = try #require(c.a)
    #expect(a.b === b)
  }

  @Test func loopEnteredFromTheLastMemberClosesOnThatMember() async throws {
    let container = Self.makeContainer()
    let c = try #require(await scInstance(SCGraphC.self, from: container))
    let a = try #require(c.a)
    let b = try #require(a.b)
    #expect(b.c === c)
  }

  @Test func eachResolveBuildsItsOwnLoop() async throws {
    let container = Self.makeContainer()
    let first = try #require(await scInstance(SCGraphB.self, from: container))
    let second = try #require(await scInstance(SCGraphB.self, from: container))
    #expect(first !== second)
    #expect(first.c !== second.c)
    #expect(first.c?.a !== second.c?.a)
  }

  @Test func validationAcceptsTheLoopResolutionBuilds() async {
    let container = Self.makeContainer()
    #expect(throws: Never.self) {
      try container.makeGraph().validate()
    }
  }
}
