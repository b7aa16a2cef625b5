import DIContainer
import DITestSupport
import Dispatch
import Testing

// The three examples of seed 003, with `print` sent to a sink the test reads (through
// Swift's own `print`, which writes a `Lazy`'s or `Provider`'s value).

private final class DirectInjection {
  let value: Int
  let output: EventLog<String>
  init(value: Int, output: EventLog<String>) {
    self.value = value
    self.output = output
  }

  func test() {
    output.append("begin")
    output.print(value)
    output.print(value)
    output.print(value)
  }
}

private final class LazyInjection {
  let value: Lazy<Int>
  let output: EventLog<String>
  init(value: Lazy<Int>, output: EventLog<String>) {
    self.value = value
    self.output = output
  }

  func test() {
    output.append("begin")
    output.print(value)
    output.print(value)
    output.print(value)
  }
}

private final class ProviderInjection {
  let value: Provider<Int>
  let output: EventLog<String>
  init(value: Provider<Int>, output: EventLog<String>) {
    self.value = value
    self.output = output
  }

  func test() {
    output.append("begin")
    output.print(value)
    output.print(value)
    output.print(value)
  }
}

private final class Shared {}

private final class Leaf {
  let shared: Shared
  init(shared: Shared) { self.shared = shared }
}

private final class Root {
  let shared: Shared
  let leaves: Provider<Leaf>
  let lazyLeaf: Lazy<Leaf>
  init(shared: Shared, leaves: Provider<Leaf>, lazyLeaf: Lazy<Leaf>) {
    self.shared = shared
    self.leaves = leaves
    self.lazyLeaf = lazyLeaf
  }
}

private final class Named {
  let name: String
  let count: Int
  init(name: String, count: Int = 0) {
    self.name = name
    self.count = count
  }
}

private final class Holder {
  let pet: Lazy<Pet>
  init(pet: Lazy<Pet>) { self.pet = pet }
}

private final class Zoo {
  let animals: [Provider<Animal>]
  init(animals: [Provider<Animal>]) { self.animals = animals }
}

private final class Optionals {
  let missing: Lazy<Food?>
  let absent: Provider<Food>?
  init(missing: Lazy<Food?>, absent: Provider<Food>?) {
    self.missing = missing
    self.absent = absent
  }
}

@Suite struct DelayedInjectionTests {
  /// The seed's `Int` factory: counts and "prints" each creation.
  private func container(printingTo output: EventLog<String>) -> DIContainer {
    let container = DIContainer()
    let counter = Counter()
    container.register { () -> Int in
      let value = counter.next()
      output.append("creating int")
      return value
    }
    container.register { output }
    return container
  }

  @Test func directInjectionMakesTheValueBeforeUse() {
    let output = EventLog<String>()
    let container = container(printingTo: output)
    container.register(DirectInjection.init)
    let injection: DirectInjection = *container
    injection.test()
    #expect(output.all == ["creating int", "begin", "1", "1", "1"])
  }

  @Test func lazyMakesTheValueAtFirstUseAndKeepsIt() {
    let output = EventLog<String>()
    let container = container(printingTo: output)
    container.register(LazyInjection.init)
    let injection: LazyInjection = *container
    injection.test()
    #expect(output.all == ["begin", "creating int", "1", "1", "1"])
  }

  @Test func providerMakesAValueAtEveryUse() {
    let output = EventLog<String>()
    let container = container(printingTo: output)
    container.register(ProviderInjection.init)
    let injection: ProviderInjection = *container
    injection.test()
    #expect(
      output.all == ["begin", "creating int", "1", "creating int", "2", "creating int", "3"])
  }

  @Test func lazyAndProviderResolveDirectlyWithoutRegistration() {
    let container = DIContainer()
    container.register(Cat.init)
    let lazy: Lazy<Cat> = container.resolve()
    #expect(!lazy.wasMade)
    #expect(lazy.value === lazy.value)
    #expect(lazy.wasMade)
    let provider: Provider<Cat> = container.resolve()
    #expect(provider.value !== provider.value)
  }

  @Test func providerKeepsTheObjectGraphItWasMadeIn() {
    let container = DIContainer()
    container.register(Shared.init).lifetime(.objectGraph)
    container.register(Leaf.init)
    container.register(Root.init)
    let root: Root = container.resolve()
    #expect(root.leaves.value.shared === root.shared)
    #expect(root.lazyLeaf.value.shared === root.shared)
    let other: Root = container.resolve()
    #expect(other.leaves.value.shared !== root.shared)
  }

  @Test func providerWithArgumentsPassesThemToTheComponent() {
    let container = DIContainer()
    container.register { Named(name: arg($0)) }.default()
    container.register { Named(name: arg($0), count: arg($1)) }.as(Named.self, tag: Indoor.self)
    let one: Provider1<Named, String> = container.resolve()
    #expect(one.value("Mimi").name == "Mimi")
    #expect(one.value("Mew").name == "Mew")
    let two: Provider2<Named, String, Int> = by(tag: Indoor.self, on: container.resolve())
    let named = two.value("Tom", 3)
    #expect(named.name == "Tom" && named.count == 3)
  }

  @Test func providerValueWithALiteralArgument() {
    let container = DIContainer()
    container.register { Named(name: "n\(arg($0) as Int)") }.default()
    let provider: Provider1<Named, Int> = container.resolve()
    #expect(provider.value(42).name == "n42")
    container.register {
      (a: DIArg<Int>, b: DIArg<Int>, c: DIArg<Int>, d: DIArg<Int>, e: DIArg<Int>) in
      Named(name: "sum", count: a.value + b.value + c.value + d.value + e.value)
    }
    .as(Named.self, tag: Outdoor.self)
    let five: Provider5<Named, Int, Int, Int, Int, Int> = by(
      tag: Outdoor.self, on: container.resolve())
    #expect(five.value(1, 2, 3, 4, 5).count == 15)
    let wrong: Provider1<Named, String> = container.resolve()
    #expect(throws: DIError.self) { try wrong.tryValue("42") }
  }

  @Test func lazyWithArgumentsKeepsTheFirstValue() {
    let container = DIContainer()
    container.register { Named(name: arg($0)) }
    let lazy: Lazy1<Named, String> = container.resolve()
    #expect(!lazy.wasMade)
    let first = lazy.value("Mimi")
    #expect(lazy.value("Mew") === first)
    #expect(first.name == "Mimi")
  }

  @Test func delayedValuesComposeWithTagsManyAndOptionals() {
    let container = DIContainer()
    container.register(Cat.init).as(Pet.self, tag: Indoor.self).as(Animal.self)
    container.register(Dog.init).as(Pet.self, tag: Outdoor.self).as(Animal.self)
    container.register { Holder(pet: by(tag: Indoor.self, on: $0)) }
    container.register { Zoo(animals: many($0)) }
    container.register(Optionals.init)

    let holder: Holder = container.resolve()
    #expect(holder.pet.value is Cat)
    let zoo: Zoo = container.resolve()
    #expect(zoo.animals.count == 2)
    #expect(zoo.animals[0].value is Cat)
    #expect(zoo.animals[1].value is Dog)
    let optionals: Optionals = container.resolve()
    #expect(optionals.missing.value == nil)
    #expect(optionals.absent == nil)
    let animals: Lazy<DIMany<Animal>> = container.resolve()
    #expect(many(animals.value).count == 2)
  }

  @Test func unresolvableDelayedServiceFailsWhereItIsInjected() {
    let container = DIContainer()
    container.register(LazyInjection.init)
    container.register { EventLog<String>() }
    #expect(throws: DIError.self) {
      let _: LazyInjection = try container.tryResolve()
    }
  }

  @Test func lazyFailureIsAThrownErrorWithTheDelayedPath() throws {
    let container = DIContainer()
    container.register { Named(name: arg($0)) }
    let lazy: Lazy<Named> = container.resolve()
    let error = try #require(throws: DIError.self) { try lazy.tryValue() }
    #expect(error.description.contains("Lazy<Named>"))
    #expect(error.description.contains("was not passed"))
  }

  @Test func lazyIsReleasedWithItsOwnerAndSoIsItsValue() {
    let container = DIContainer()
    container.register(Shared.init)
    container.register(Leaf.init)
    container.register(Root.init)
    weak var weakRoot: Root?
    weak var weakLeaf: Leaf?
    do {
      let root: Root = container.resolve()
      weakRoot = root
      weakLeaf = root.lazyLeaf.value
      #expect(weakLeaf != nil)
    }
    #expect(weakRoot == nil)
    #expect(weakLeaf == nil)
  }

  @Test func objectGraphOwnerOfAProviderIsReleased() {
    // The provider keeps the graph, which knows the owner: it must not keep it alive.
    let container = DIContainer()
    container.register(Shared.init).lifetime(.objectGraph)
    container.register(Leaf.init).lifetime(.objectGraph)
    container.register(Root.init).lifetime(.objectGraph)
    weak var weakRoot: Root?
    weak var weakShared: Shared?
    do {
      let root: Root = container.resolve()
      weakRoot = root
      weakShared = root.shared
      #expect(root.leaves.value.shared === root.shared)
    }
    #expect(weakRoot == nil)
    #expect(weakShared == nil)
  }

  @Test func delayedValuesDoNotKeepTheirContainerAlive() {
    weak var weakContainer: DIContainer?
    do {
      let container = DIContainer()
      weakContainer = container
      container.register(Shared.init)
      container.register(Leaf.init)
      container.register(Root.init).lifetime(.perContainer(.single))
      let root: Root = container.resolve()
      _ = root.lazyLeaf.value
    }
    #expect(weakContainer == nil)
  }

  @Test func aReadInsideAnotherReadOfTheSameGraphSharesItsObjectGraphInstances() {
    // Reading the provider makes a `GraphUser`, whose initializer reads a `Lazy` of the
    // same graph: the `Shared` the outer read made is the one the inner read finds.
    final class GraphUser {
      let shared: Shared
      let sharedOfLeaf: Shared
      init(shared: Shared, leaf: Lazy<Leaf>) {
        self.shared = shared
        sharedOfLeaf = leaf.value.shared
      }
    }
    final class UserHolder {
      let users: Provider<GraphUser>
      init(users: Provider<GraphUser>) { self.users = users }
    }
    let container = DIContainer()
    container.register(Shared.init).lifetime(.objectGraph)
    container.register(Leaf.init)
    container.register(GraphUser.init)
    container.register(UserHolder.init)
    let holder: UserHolder = container.resolve()
    let user = holder.users.value
    #expect(user.sharedOfLeaf === user.shared)
  }

  @Test func concurrentFirstReadsOfALazyMakeOneValue() {
    for _ in 0..<20 {
      let container = DIContainer()
      let made = Counter()
      container.register { () -> Cat in
        made.next()
        return Cat()
      }
      let lazy: Lazy<Cat> = container.resolve()
      let seen = EventLog<String>()
      DispatchQueue.concurrentPerform(iterations: 16) { _ in
        seen.append("\(ObjectIdentifier(lazy.value).hashValue)")
      }
      #expect(made.value == 1)
      #expect(Set(seen.all).count == 1)
    }
  }

  @Test func aLazyKeptByACachedInstanceDoesNotKeepItAlive() {
    weak var weakHolder: LazyHolder?
    do {
      let container = DIContainer()
      container.register(Cat.init)
      container.register(LazyHolder.init).lifetime(.perContainer(.single))
      weakHolder = container.resolve() as LazyHolder
    }
    #expect(weakHolder == nil, "the Lazy names its component without holding it")
  }
}

private final class LazyHolder {
  let cat: Lazy<Cat>
  init(cat: Lazy<Cat>) { self.cat = cat }
}
