import DIContainer
import DITestSupport
import Synchronization
import Testing

// An async factory returning `T?` registers `T`; its nil is `.factoryReturnedNil`.

private struct FetchFailed: Error, Equatable {}

private final class Woof: Sendable {
  let name: String
  init(name: String = "Rex") { self.name = name }
}

private final class Leash: Sendable {}

private final class Kennel: Sendable {
  let woof: Woof
  init(woof: Woof) { self.woof = woof }
}

/// An async factory `async -> T?` or `async throws -> T?`, with or without parameters,
/// provides `T`; a nil from it fails the request with `.factoryReturnedNil` naming the
/// registration, through `resolveAsync` and `AsyncLazy` alike, and keeps nothing.
@Suite(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
struct AsyncOptionalFactoryTests {
  // MARK: - The registered service

  @Test func anAsyncFactoryReturningAnOptionalRegistersTheWrappedType() async throws {
    let container = DIContainer()
    container.register { () async -> Woof? in Woof() }
      .lifetime(.perContainer(.single))
    let graph = container.makeGraph()
    #expect(graph.components.map { "\($0.type)" } == ["Woof"])
    #expect(graph.components.filter(\.isAsync).map(\.name) == ["Woof"])
    let woof: Woof = try await container.resolveAsync()
    let optional: Woof? = try await container.resolveAsync()
    #expect(optional === woof)
  }

  @Test func anAsyncThrowingFactoryWithParametersReturningAnOptionalRegistersTheWrappedType()
    async throws
  {
    let container = DIContainer()
    container.register(Leash.init)
    container.register { (leash: Leash, name: DIArg<String>) async throws -> Woof? in
      Woof(name: name.value)
    }
    #expect(container.makeGraph().components.map { "\($0.type)" }.sorted() == ["Leash", "Woof"])
    let woof: Woof = try await container.resolveAsync(arg: "Bella")
    #expect(woof.name == "Bella")
  }

  @Test func aNonOptionalAsyncFactoryStillRegistersItsType() async throws {
    let container = DIContainer()
    container.register { () async -> Woof in Woof() }
    container.register { (leash: Leash) async throws -> Kennel in Kennel(woof: Woof()) }
    container.register(Leash.init)
    let types = container.makeGraph().components.map { "\($0.type)" }
    #expect(types == ["Woof", "Kennel", "Leash"])
    let kennel: Kennel = try await container.resolveAsync()
    #expect(kennel.woof.name == "Rex")
  }

  @Test func aSynchronousOptionalClosureStillPicksTheSynchronousRegister() async throws {
    let container = DIContainer()
    container.register { () -> Woof? in Woof() }
    #expect(container.makeGraph().components.filter(\.isAsync).isEmpty)
    let woof: Woof = try container.tryResolve()
    #expect(woof.name == "Rex", "resolved synchronously: not an async component")
  }

  // MARK: - nil is .factoryReturnedNil

  @Test func nilFromAnAsyncFactoryIsAnErrorNamingTheRegistration() async {
    let container = DIContainer()
    container.register { () async -> Woof? in nil }
    let error = await #expect(throws: DIError.self) {
      let _: Woof = try await container.resolveAsync()
    }
    #expect(error?.code == .factoryReturnedNil)
    let text = error?.description ?? ""
    #expect(text.hasPrefix("Cannot resolve Woof: the factory of Woof returned nil"))
    #expect(text.contains("Woof: Woof (DIContainerTests/AsyncOptionalFactoryTests.swift:"))
    #expect(!text.contains("is not registered"))
  }

  @Test func nilFromAnAsyncThrowingFactoryWithParametersIsFactoryReturnedNil() async {
    let container = DIContainer()
    container.register(Leash.init)
    container.register { (leash: Leash) async throws -> Woof? in nil }
    let error = await #expect(throws: DIError.self) {
      let _: Woof = try await container.resolveAsync()
    }
    #expect(error?.code == .factoryReturnedNil)
    #expect(
      error?.description.contains("Woof: Woof (DIContainerTests/AsyncOptionalFactoryTests.swift:")
        == true)
  }

  @Test func nilFromAnAsyncFactoryWithAnArgIsFactoryReturnedNil() async throws {
    let container = DIContainer()
    container.register { (name: DIArg<String>) async -> Woof? in
      name.value.isEmpty ? nil : Woof(name: name.value)
    }
    let error = await #expect(throws: DIError.self) {
      let _: Woof = try await container.resolveAsync(arg: "")
    }
    #expect(error?.code == .factoryReturnedNil)
    let woof: Woof = try await container.resolveAsync(arg: "Max")
    #expect(woof.name == "Max")
  }

  @Test func aThrowFromAnAsyncOptionalFactoryIsStillFactoryFailed() async {
    let container = DIContainer()
    container.register { () async throws -> Woof? in throw FetchFailed() }
    let error = await #expect(throws: DIError.self) {
      let _: Woof = try await container.resolveAsync()
    }
    #expect(error?.code == .factoryFailed)
    #expect(error?.underlyingError as? FetchFailed == FetchFailed())
  }

  @Test func nilFailsAnOptionalRequestAndADependentToo() async {
    let container = DIContainer()
    container.register { () async -> Woof? in nil }
    container.register(Kennel.init)
    let optional = await #expect(throws: DIError.self) {
      let _: Woof? = try await container.resolveAsync()
    }
    let dependent = await #expect(throws: DIError.self) {
      let _: Kennel = try await container.resolveAsync()
    }
    #expect(optional?.code == .factoryReturnedNil, "the component was chosen, and it failed")
    #expect(dependent?.code == .factoryReturnedNil)
    #expect(dependent?.path.map(\.requested) == ["Kennel", "Woof"])
  }

  @Test func nilThroughAnAsyncLazyIsFactoryReturnedNil() async throws {
    let container = DIContainer()
    container.register { (leash: Leash) async throws -> Woof? in nil }
    container.register(Leash.init)
    let lazy: AsyncLazy<Woof> = try await container.resolveAsync()
    let error = await #expect(throws: DIError.self) { _ = try await lazy.value }
    #expect(error?.code == .factoryReturnedNil)
    #expect(error?.path.map(\.requested) == ["AsyncLazy<Woof>", "Woof"])
    #expect(!lazy.wasMade)
  }

  @Test func nilKeepsNothingSoTheNextRequestRunsTheFactoryAgain() async throws {
    let container = DIContainer()
    let runs = Atomic(0)
    container.register { () async -> Woof? in
      runs.add(1, ordering: .relaxed).newValue == 1 ? nil : Woof()
    }
    .lifetime(.perContainer(.single))
    let error = await #expect(throws: DIError.self) {
      let _: Woof = try await container.resolveAsync()
    }
    #expect(error?.code == .factoryReturnedNil)
    let first: Woof = try await container.resolveAsync()
    let second: Woof = try await container.resolveAsync()
    #expect(first === second)
    #expect(runs.load(ordering: .relaxed) == 2)
  }
}
