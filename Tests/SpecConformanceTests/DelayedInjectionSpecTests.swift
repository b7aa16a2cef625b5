import DIContainer
import Synchronization
import Testing

// Seed 003 prints; in this file `print` records its lines so the tests can compare them with
// the seed's exact output. (`print` evaluates its item before writing it, as Swift's does.)
private let printed = Mutex<[String]>([])

private func print(_ item: Any) {
  var line = ""
  Swift.print(item, terminator: "", to: &line)
  printed.withLock { $0.append(line) }
}

private func takePrinted() -> [String] {
  printed.withLock { lines in
    defer { lines = [] }
    return lines
  }
}

// The seed's `var counter: Int = 0` is captured by a `@Sendable` factory, which Swift 6
// accepts only for a global marked `nonisolated(unsafe)`; the suite is serialized.
nonisolated(unsafe) private var counter: Int = 0

/// SPEC.md, "Delayed injection", and the three examples of seed 003 with their exact output.
@Suite(.serialized) struct DelayedInjectionSpecTests {
  // The seed's classes, with the initializer the seed leaves out.
  class DirectInjection {
    let value: Int
    init(value: Int) { self.value = value }

    func test() {
      print("begin")
      print(value)
      print(value)
      print(value)
    }
  }

  class LazyInjection {
    let value: Lazy<Int>
    init(value: Lazy<Int>) { self.value = value }

    func test() {
      print("begin")
      print(value)
      print(value)
      print(value)
    }
  }

  class ProviderInjection {
    let value: Provider<Int>
    init(value: Provider<Int>) { self.value = value }

    func test() {
      print("begin")
      print(value)
      print(value)
      print(value)
    }
  }

  @Test func seed003DirectInjectionOutput() {
    counter = 0
    _ = takePrinted()

    let container = DIContainer()
    container.register { () -> Int in
      counter += 1
      print("creating int")
      return counter
    }

    container.register(DirectInjection.init)

    let injection: DirectInjection = *container
    injection.test()

    #expect(takePrinted() == ["creating int", "begin", "1", "1", "1"])
  }

  @Test func seed003LazyOutput() {
    counter = 0
    _ = takePrinted()

    let container = DIContainer()
    container.register { () -> Int in
      counter += 1
      print("creating int")
      return counter
    }

    container.register(LazyInjection.init)

    let injection: LazyInjection = *container
    injection.test()

    #expect(takePrinted() == ["begin", "creating int", "1", "1", "1"])
  }

  @Test func seed003ProviderOutput() {
    counter = 0
    _ = takePrinted()

    let container = DIContainer()
    container.register { () -> Int in
      counter += 1
      print("creating int")
      return counter
    }

    container.register(ProviderInjection.init)

    let injection: ProviderInjection = *container
    injection.test()

    #expect(
      takePrinted() == ["begin", "creating int", "1", "creating int", "2", "creating int", "3"])
  }

  // MARK: - The SPEC's prose

  final class Engine {}

  final class Garage {
    let lazyEngine: Lazy<Engine>
    let engines: Provider<Engine>
    init(lazyEngine: Lazy<Engine>, engines: Provider<Engine>) {
      self.lazyEngine = lazyEngine
      self.engines = engines
    }
  }

  @Test func lazyKeepsItsValueProviderMakesOneAtEveryValueNeitherNeedsARegistration() {
    let container = DIContainer()
    container.register(Engine.init)
    container.register(Garage.init)
    let garage: Garage = container.resolve()
    #expect(!garage.lazyEngine.wasMade)
    #expect(garage.lazyEngine.value === garage.lazyEngine.value)
    #expect(garage.lazyEngine.wasMade)
    #expect(garage.engines.value !== garage.engines.value)
  }

  final class Numbered {
    let number: Int
    init(number: Int) { self.number = number }
  }

  final class NumberedUser {
    let provider: Provider1<Numbered, Int>
    let lazy: Lazy1<Numbered, Int>
    init(provider: Provider1<Numbered, Int>, lazy: Lazy1<Numbered, Int>) {
      self.provider = provider
      self.lazy = lazy
    }
  }

  final class Pair {
    let number: Int
    let name: String
    init(number: Int, name: String) {
      self.number = number
      self.name = name
    }
  }

  @Test func providersAndLaziesWithArgumentsTakeThemAtValue() {
    let container = DIContainer()
    container.register { Numbered(number: arg($0)) }
    container.register { Pair(number: arg($0), name: arg($1)) }
    container.register(NumberedUser.init)
    let user: NumberedUser = container.resolve()
    let provider = user.provider
    #expect(provider.value(42).number == 42)
    #expect(provider.value(42) !== provider.value(42))
    #expect(user.lazy.value(7).number == 7)
    #expect(user.lazy.value(7) === user.lazy.value(7))
    let pairs: Provider2<Pair, Int, String> = container.resolve()
    #expect(pairs.value(5, "Mimi").name == "Mimi")
  }

  final class Shared {}
  final class Holder {
    let shared: Shared
    let provider: Provider<Shared>
    let lazy: Lazy<Shared>
    init(shared: Shared, provider: Provider<Shared>, lazy: Lazy<Shared>) {
      self.shared = shared
      self.provider = provider
      self.lazy = lazy
    }
  }

  @Test func delayedValuesKeepTheObjectGraphTheyWereMadeIn() {
    let container = DIContainer()
    container.register(Shared.init).lifetime(.objectGraph)
    container.register(Holder.init)
    let holder: Holder = container.resolve()
    #expect(holder.provider.value === holder.shared)
    #expect(holder.lazy.value === holder.shared)
    let other: Holder = container.resolve()
    #expect(other.provider.value !== holder.shared)
  }

  @Test func lazyAndProviderCanBeMadeFromAClosure() {
    // "`Lazy { Cat() }` / `Provider { Cat() }` … can be made from a closure"
    let lazy = Lazy { Engine() }
    let provider = Provider { Engine() }
    #expect(!lazy.wasMade)
    #expect(lazy.value === lazy.value)
    #expect(provider.value !== provider.value)
  }

  @Test func theAsyncOnesCanBeMadeFromAClosureToo() async throws {
    // "`Lazy { Cat() }` / `Provider { Cat() }` (and the async ones) can be made from a
    // closure"
    let lazy = AsyncLazy { Engine() }
    let provider = AsyncProvider { Engine() }
    #expect(!lazy.wasMade)
    #expect(try await lazy.value === (try await lazy.value))
    #expect(try await provider.value !== (try await provider.value))
  }

  @Test func clearMakesTheNextValueAskAgainACachedLifetimeStillAnswersWithItsInstance() {
    // "`lazy.clear()` makes the next `.value` ask again (a cached lifetime still answers
    // with its cached instance)"
    let container = DIContainer()
    container.register(Engine.init)
    container.register(Shared.init).lifetime(.perContainer(.single))
    let engine: Lazy<Engine> = container.resolve()
    let shared: Lazy<Shared> = container.resolve()
    let (firstEngine, firstShared) = (engine.value, shared.value)
    engine.clear()
    shared.clear()
    #expect(engine.value !== firstEngine)
    #expect(shared.value === firstShared)
  }
}
