import DIContainer
import Testing

@Suite struct CycleDetectionTests {
  @Test func objectGraphCycleThroughCycleBreakingInjectionIsBuilt() {
    let container = DIContainer()
    container.register(Parent.init).lifetime(.objectGraph).injection(cycle: true, \.child)
    container.register(Child.init).lifetime(.objectGraph)
    let parent: Parent = container.resolve()
    #expect(parent.child?.parent === parent)
  }

  @Test func singletonCycleThroughInjectionIsBuiltFromTheInjectedSide() {
    let container = DIContainer()
    container.register(Parent.init).lifetime(.perContainer(.single)).injection(\.child)
    container.register(Child.init).lifetime(.perContainer(.single))
    let parent: Parent = container.resolve()
    #expect(parent.child?.parent === parent)
  }

  @Test func singletonCycleEnteredFromTheOtherSideNeedsACycleBreak() {
    let plain = DIContainer()
    plain.register(Parent.init).lifetime(.perContainer(.single)).injection(\.child)
    plain.register(Child.init).lifetime(.perContainer(.single))
    let error = #expect(throws: DIError.self) { let _: Child = try plain.tryResolve() }
    #expect(error?.reason == .cycle)

    let breaking = DIContainer()
    breaking.register(Parent.init).lifetime(.perContainer(.single))
      .injection(cycle: true, \.child)
    breaking.register(Child.init).lifetime(.perContainer(.single))
    let child: Child = breaking.resolve()
    #expect(child.parent.child === child)
  }

  @Test func prototypeCycleIsAnErrorNamingTheCycle() throws {
    let container = DIContainer()
    container.register(Chicken.init)
    container.register(Egg.init)
    let error = try #require(throws: DIError.self) { let _: Chicken = try container.tryResolve() }
    #expect(error.reason == .cycle)
    #expect(error.description.contains("the cycle Chicken → Egg → Chicken"))
    #expect(error.description.contains("path: Chicken → Egg → Chicken\n"))
  }

  @Test func constructorCycleOfSingletonsIsAnError() throws {
    let container = DIContainer()
    container.register(Chicken.init).lifetime(.perContainer(.single))
    container.register(Egg.init).lifetime(.perContainer(.single))
    let error = try #require(throws: DIError.self) { let _: Egg = try container.tryResolve() }
    #expect(error.reason == .cycle)
    #expect(error.description.contains("Egg → Chicken → Egg"))
  }

  @Test func prototypeCycleThroughCycleBreakingInjectionsIsAnError() throws {
    let container = DIContainer()
    container.register(Parent.init).injection(cycle: true, \.child)
    container.register(Child.init)
    let error = try #require(throws: DIError.self) { let _: Parent = try container.tryResolve() }
    #expect(error.reason == .cycle)
  }

  @Test func aLongAcyclicChainIsNotACycle() {
    let container = DIContainer()
    container.register(Link0.init)
    container.register(Link1.init)
    container.register(Link2.init)
    // A chain that only looks like a loop (three types, each needing the one before) is
    // made whole: no cycle error, and each request makes its own chain.
    #expect(throws: Never.self) {
      let first: Link2 = try container.tryResolve()
      let second: Link2 = try container.tryResolve()
      #expect(first.previous !== second.previous)
      #expect(first.previous.previous !== second.previous.previous)
    }
  }
}

final class Parent {
  var child: Child?
  init() {}
}

final class Child {
  let parent: Parent
  init(parent: Parent) { self.parent = parent }
}

final class Chicken {
  init(egg: Egg) {}
}

final class Egg {
  init(chicken: Chicken) {}
}

final class Link0 {}
final class Link1 {
  let previous: Link0
  init(previous: Link0) { self.previous = previous }
}
final class Link2 {
  let previous: Link1
  init(previous: Link1) { self.previous = previous }
}
