import DIContainer
import DITestSupport
import Dispatch
import Testing

/// `Lazy { … }` and `Provider { … }` made from a closure, `clear()`, and the runtime
/// arguments of a `resolve(arg:)` that asks for a delayed value.
@Suite struct DelayedClosureTests {
  // MARK: - Made from a closure

  @Test func lazyFromAClosureMakesItsValueOnceOnFirstRead() {
    let counter = Counter()
    let lazy = Lazy { () -> Cat in
      counter.next()
      return Cat()
    }
    #expect(!lazy.wasMade)
    #expect(counter.value == 0, "nothing is made before the first read")
    let first = lazy.value
    #expect(lazy.value === first)
    #expect(counter.value == 1)
    #expect(lazy.wasMade)
  }

  @Test func providerFromAClosureCallsItAtEveryRead() throws {
    let counter = Counter()
    let provider = Provider { counter.next() }
    #expect(counter.value == 0)
    #expect(provider.value == 1)
    #expect(provider.value == 2)
    #expect(try provider.tryValue() == 3)
  }

  @Test func closureMadeValuesDescribeAndPrintLikeResolvedOnes() {
    let lazy = Lazy { 7 }
    #expect(lazy.description == "Lazy<Int> (not made yet)")
    let lines = EventLog<String>()
    lines.print(lazy)
    #expect(lazy.description == "Lazy<Int>: 7")

    let counter = Counter()
    let provider = Provider { counter.next() }
    #expect(provider.description == "Provider<Int>")
    #expect(counter.value == 0, "describing never makes a value")
    lines.print(provider)
    lines.print(provider)
    #expect(lines.all == ["7", "1", "2"])
  }

  @Test func closureMadeValuesStandInForInjectedOnes() {
    // Wiring by hand what the container would inject.
    final class Report {
      let cat: Lazy<Cat>
      let kittens: Provider<Kitten>
      init(cat: Lazy<Cat>, kittens: Provider<Kitten>) {
        self.cat = cat
        self.kittens = kittens
      }
    }
    let report = Report(cat: Lazy { Cat() }, kittens: Provider { Kitten(name: "Mimi") })
    #expect(report.cat.value === report.cat.value)
    #expect(report.kittens.value !== report.kittens.value)
    #expect(report.kittens.value.name == "Mimi")
  }

  @Test func concurrentFirstReadsOfAClosureLazyMakeOneValue() {
    let counter = Counter()
    let lazy = Lazy { () -> Cat in
      counter.next()
      return Cat()
    }
    let seen = EventLog<String>()
    DispatchQueue.concurrentPerform(iterations: 16) { _ in
      seen.append("\(ObjectIdentifier(lazy.value))")
    }
    #expect(counter.value == 1)
    #expect(Set(seen.all).count == 1)
  }

  // MARK: - clear()

  @Test func clearMakesTheNextValueNew() {
    let counter = Counter()
    let lazy = Lazy { () -> Cat in
      counter.next()
      return Cat()
    }
    let first = lazy.value
    lazy.clear()
    #expect(!lazy.wasMade)
    #expect(lazy.description == "Lazy<Cat> (not made yet)")
    let second = lazy.value
    #expect(second !== first)
    #expect(counter.value == 2)
  }

  @Test func clearOfAResolvedLazyAsksTheContainerAgain() {
    let container = DIContainer()
    container.register(Cat.init)
    container.register(Dog.init).lifetime(.perContainer(.single))
    let cat: Lazy<Cat> = container.resolve()
    let dog: Lazy<Dog> = container.resolve()
    let (firstCat, firstDog) = (cat.value, dog.value)
    cat.clear()
    dog.clear()
    #expect(cat.value !== firstCat, "a .prototype component makes a new one")
    #expect(dog.value === firstDog, "a cached lifetime answers with its cached instance")
  }

  @Test func clearOfALazyWithArgumentsTakesTheNextArguments() {
    let container = DIContainer()
    container.register { Kitten(name: arg($0)) }
    let kitten: Lazy1<Kitten, String> = container.resolve()
    #expect(kitten.value("Mimi").name == "Mimi")
    #expect(kitten.value("Tom").name == "Mimi", "kept, whatever the arguments")
    kitten.clear()
    #expect(kitten.value("Tom").name == "Tom")
  }

  // MARK: - Runtime arguments of the request

  @Test func resolveWithArgumentsForwardsThemToALazy() {
    let container = DIContainer()
    let counter = Counter()
    container.register { (name: DIArg<String>) -> Kitten in
      counter.next()
      return Kitten(name: name.value)
    }
    let lazy: Lazy<Kitten> = container.resolve(arg: "Mimi")
    #expect(counter.value == 0, "made at the first read")
    #expect(lazy.value.name == "Mimi")
    lazy.clear()
    #expect(lazy.value.name == "Mimi", "every value it makes gets them")
  }

  @Test func resolveWithArgumentsForwardsThemToAProviderAtEveryRead() {
    let container = DIContainer()
    container.register { Kitten(name: arg($0)) }
    let provider: Provider<Kitten> = container.resolve(args: "Tom")
    let (first, second) = (provider.value, provider.value)
    #expect(first.name == "Tom")
    #expect(second.name == "Tom")
    #expect(first !== second)
    let optional: Provider<Kitten>? = container.resolve(arg: "Felix")
    #expect(optional?.value.name == "Felix")
  }

  @Test func argumentsAreNotForwardedToADelayedDependency() throws {
    // Runtime arguments go to the component asked for, not to a Lazy it is injected.
    final class Owner {
      let kitten: Lazy<Kitten>
      init(name: String, kitten: Lazy<Kitten>) { self.kitten = kitten }
    }
    let container = DIContainer()
    container.register { Kitten(name: arg($0)) }
    container.register { Owner(name: arg($0), kitten: $1) }
    let owner: Owner = container.resolve(arg: "Ann")
    let error = #expect(throws: DIError.self) { _ = try owner.kitten.tryValue() }
    #expect(error?.code == .missingArgument)
  }

  @Test func delayedValuesTakingArgumentsAtValueRejectResolveArguments() {
    let container = DIContainer()
    container.register { Kitten(name: arg($0)) }
    let provider = #expect(throws: DIError.self) {
      let _: Provider1<Kitten, String> = try container.tryResolve(arguments: ["Mimi"])
    }
    let lazy = #expect(throws: DIError.self) {
      let _: Lazy1<Kitten, String> = try container.tryResolve(arguments: ["Mimi"])
    }
    let many = #expect(throws: DIError.self) {
      let _: DIMany<Provider1<Kitten, String>> = try container.tryResolve(arguments: ["Mimi"])
    }
    #expect(provider?.code == .extraArguments)
    #expect(lazy?.code == .extraArguments)
    #expect(many?.code == .extraArguments)
    #expect(provider?.description.contains("takes its runtime arguments at value(…)") == true)
    // Without arguments, it works as before.
    let kittens: Provider1<Kitten, String> = container.resolve()
    #expect(kittens.value("Tom").name == "Tom")
  }
}
