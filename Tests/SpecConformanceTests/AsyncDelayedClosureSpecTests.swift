import DIContainer
import DITestSupport
import Testing

// SPEC.md, "Async and throwing factories": `AsyncLazy { … }` / `AsyncProvider { … }` from a
// closure; a factory `async -> T?` registers `T` and nil is `.factoryReturnedNil`.

final class SOConnection: Sendable {
  let id: Int
  init(id: Int) { self.id = id }
}
final class SOConnectionUser: Sendable {
  let connection: SOConnection
  init(connection: SOConnection) { self.connection = connection }
}
final class SOMaybe: Sendable {}
struct SOConnectFailure: Error, Equatable {}
protocol SOConnecting: Sendable {}
final class SOOptionalConnection: SOConnecting, Sendable {
  let id: Int
  init(id: Int) { self.id = id }
}

@Suite struct SOAsyncDelayedClosureSpecTests {
  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func anAsyncLazyFromAClosureMakesOnceUnderConcurrentFirstReads() async throws {
    let made = Counter()
    let gate = Gate()
    let lazy = AsyncLazy { () async -> SOConnection in
      await gate.pass()
      return SOConnection(id: made.next())
    }
    let ids = try await withThrowingTaskGroup(of: Int.self) { group in
      for _ in 0..<16 { group.addTask { try await lazy.value.id } }
      try await gate.awaitArrivals(1)
      gate.open()
      return try await group.reduce(into: Set<Int>()) { $0.insert($1) }
    }
    #expect(ids == [1])
    #expect(made.value == 1)
    #expect(lazy.wasMade)
    lazy.clear()
    #expect(try await lazy.value.id == 2, "clear() makes the next read run the closure again")
  }

  @Test func anAsyncLazyWhoseClosureThrowsKeepsNothingAndReportsFactoryFailed() async throws {
    let attempts = Counter()
    let lazy = AsyncLazy { () async throws -> SOConnection in
      if attempts.next() == 1 { throw SOConnectFailure() }
      return SOConnection(id: attempts.value)
    }
    let error = await #expect(throws: DIError.self) { _ = try await lazy.value }
    #expect(error?.code == .factoryFailed)
    #expect(error?.underlyingError as? SOConnectFailure == SOConnectFailure())
    #expect(!lazy.wasMade)
    let connection = try await lazy.value
    #expect(connection.id == 2, "the next read tries again")
    #expect(try await lazy.value === connection)
  }

  @Test func anAsyncProviderFromAClosureRunsItAtEveryRead() async throws {
    let made = Counter()
    let provider = AsyncProvider { () async -> SOConnection in SOConnection(id: made.next()) }
    #expect(made.value == 0, "nothing made before the first read")
    #expect(try await provider.value.id == 1)
    #expect(try await provider.value.id == 2)
    let failing = AsyncProvider { () async throws -> SOConnection in throw SOConnectFailure() }
    let error = await #expect(throws: DIError.self) { _ = try await failing.value }
    #expect(error?.code == .factoryFailed)
    #expect(error?.underlyingError as? SOConnectFailure == SOConnectFailure())
  }

  @Test func anAsyncFactoryReturningAnOptionalRegistersTheWrappedType() async throws {
    let container = DIContainer()
    let calls = Counter()
    container.register { () async -> SOConnection? in
      calls.next() == 1 ? nil : SOConnection(id: calls.value)
    }
    container.register(SOConnectionUser.init)
    let error = await #expect(throws: DIError.self) {
      let _: SOConnection = try await container.resolveAsync()
    }
    #expect(error?.code == .factoryReturnedNil)
    let user: SOConnectionUser = try await container.resolveAsync()
    #expect(user.connection.id == 2, "a dependency of type SOConnection is served by it")
  }

  @Test func aNilFromAnAsyncFactoryDeepInTheGraphFailsTheRequest() async {
    let container = DIContainer()
    container.register { () async -> SOMaybe? in nil }
    container.register { (_: SOMaybe) in SOConnection(id: 1) }
    let error = await #expect(throws: DIError.self) {
      let _: SOConnection = try await container.resolveAsync()
    }
    #expect(error?.code == .factoryReturnedNil)
  }

  @Test func theErrorOfAnAsyncLazyClosureSaysWhereItWasMade() async {
    let line = #line + 1
    let lazy = AsyncLazy { () async throws -> SOConnection in throw SOConnectFailure() }
    let error = await #expect(throws: DIError.self) { _ = try await lazy.value }
    #expect(
      error?.description.contains("AsyncDelayedClosureSpecTests.swift:\(line)") == true,
      "\(String(describing: error))")
  }

  @Test func anOptionalAsyncFactoryServesItsServicesAndANilCachesNothing() async throws {
    let container = DIContainer()
    let calls = Counter()
    container.register { () async -> SOOptionalConnection? in
      calls.next() == 1 ? nil : SOOptionalConnection(id: calls.value)
    }
    .as(SOConnecting.self)
    .lifetime(.perContainer(.single))
    let error = await #expect(throws: DIError.self) {
      let _: SOConnecting = try await container.resolveAsync()
    }
    #expect(error?.code == .factoryReturnedNil)
    let first: SOConnecting = try await container.resolveAsync()
    let second: SOOptionalConnection = try await container.resolveAsync()
    #expect(first as? SOOptionalConnection === second, "cached once made")
    #expect(second.id == 2)
    #expect(calls.value == 2)
  }
}
