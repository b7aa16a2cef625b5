import DIContainer
import DITestSupport
import Dispatch
import Testing

private struct ConfigMissing: Error, Equatable {
  let key: String
}

private final class Config {
  let url: String
  init(url: String) { self.url = url }
}

/// An initializer reference that throws.
private final class Secrets {
  init(config: Config) throws {
    guard !config.url.isEmpty else { throw ConfigMissing(key: "url") }
  }
}

private final class Pool {
  init(config: Config) {}
}

private final class Service {
  init(pool: Pool, secrets: Secrets) {}
}

@Suite struct ThrowingFactoryTests {
  @Test func aThrownErrorFailsTheRequestWithItAsTheUnderlyingError() {
    let container = DIContainer()
    container.register { () throws -> Config in throw ConfigMissing(key: "url") }
    let error = #expect(throws: DIError.self) { let _: Config = try container.tryResolve() }
    #expect(error?.code == .factoryFailed)
    #expect(error?.underlyingError as? ConfigMissing == ConfigMissing(key: "url"))
    let text = error?.description ?? ""
    #expect(text.hasPrefix("Cannot resolve Config: the factory of Config threw: ConfigMissing"))
    #expect(text.contains("Config: Config (DIContainerTests/ThrowingFactoryTests.swift:"))
  }

  @Test func anInitializerReferenceThatThrowsIsAFactory() {
    let container = DIContainer()
    container.register { Config(url: "") }
    container.register(Secrets.init)
    let error = #expect(throws: DIError.self) { let _: Secrets = try container.tryResolve() }
    #expect(error?.code == .factoryFailed)
    #expect(error?.path.map(\.requested) == ["Secrets"])
  }

  @Test func nothingIsCachedForAFactoryThatThrewSoTheNextRequestTriesAgain() throws {
    let container = DIContainer()
    let attempts = Counter()
    container.register { () throws -> Config in
      if attempts.next() == 1 { throw ConfigMissing(key: "url") }
      return Config(url: "postgres://db")
    }.lifetime(.perContainer(.single))
    #expect(throws: DIError.self) { let _: Config = try container.tryResolve() }
    let config: Config = try container.tryResolve()
    #expect(config.url == "postgres://db")
    #expect(config === container.resolve() as Config)
    #expect(attempts.value == 2)
  }

  @Test func instancesCachedEarlierInTheFailedRequestStay() throws {
    let container = DIContainer()
    let pools = Counter()
    container.register { Config(url: "") }
    container.register { (config: Config) -> Pool in
      pools.next()
      return Pool(config: config)
    }.lifetime(.perContainer(.single))
    container.register(Secrets.init)
    container.register(Service.init)
    #expect(throws: DIError.self) { let _: Service = try container.tryResolve() }
    let pool: Pool = try container.tryResolve()
    #expect(pools.value == 1, "the pool made by the failed request is kept and valid")
    #expect(pool === container.resolve() as Pool)
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func concurrentFirstRequestsOfAFailingSingletonEachFailOrShareOneInstance() async {
    let container = DIContainer()
    let attempts = Counter()
    container.register { () throws -> Config in
      if attempts.next() <= 3 { throw ConfigMissing(key: "url") }
      return Config(url: "ok")
    }.lifetime(.perContainer(.single))
    let results = await withTaskGroup(of: ObjectIdentifier?.self) { group in
      for _ in 0..<32 {
        group.addTask {
          (try? container.tryResolve() as Config).map(ObjectIdentifier.init)
        }
      }
      return await group.reduce(into: [ObjectIdentifier?]()) { $0.append($1) }
    }
    #expect(results.filter { $0 == nil }.count == 3, "one failure per attempt that threw")
    #expect(Set(results.compactMap { $0 }).count == 1, "one instance for every success")
  }
}
