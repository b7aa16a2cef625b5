import DIContainer
import DIFrameworks
import DIParts
import ModularFixtureNews
import ModularFixtureProfile
import ModularFixtureShared
import Testing

/// Frameworks that live in separate modules (`ModularFixtureNews`, `ModularFixtureProfile`,
/// `ModularFixtureShared`) and register `internal` implementations of shared protocols.
@Suite struct CrossModuleModularityTests {
  private func makeContainer() -> DIContainer {
    DIContainer()
      .append(framework: NewsFramework.self)
      .append(framework: ProfileFramework.self)
  }

  @Test func eachFrameworkGetsItsOwnInternalImplementation() {
    let container = makeContainer()
    let news: NewsService = container.resolve()
    let profile: ProfileService = container.resolve()
    #expect(news.client.host == "news.example.com")
    #expect(profile.client.host == "profile.example.com")
    #expect(String(describing: type(of: news.client)) == "NewsAPIClient")
  }

  @Test func importedFrameworkFromAnotherModuleIsTheFallback() {
    let container = makeContainer()
    container.register(SystemClockDouble.init).as((any Clock).self)
    let news: NewsService = container.resolve()
    #expect(news.clock.now == 42)  // Core's clock, not the unowned double
    let reader: ReaderService = container.append(framework: ReaderFramework.self).resolve()
    #expect(reader.client.host == "news.example.com")
  }

  @Test func topLevelOptionalResolveOfAmbiguousServiceIsNil() {
    let container = makeContainer()
    let client: (any APIClient)? = container.resolve()
    #expect(client == nil)
    let fromNews: (any APIClient)? = container.resolve(from: NewsFramework.self)
    #expect(fromNews?.host == "news.example.com")
  }

  @Test func manyCrossesModulesAndManyInFrameworkDoesNot() {
    let container = makeContainer()
    let all: [any Route] = many(container.resolve())
    let news: [any Route] = manyInFramework(container.resolve(from: NewsFramework.self))
    #expect(all.map(\.path).sorted() == ["/news", "/news/:id", "/profile/avatar"])
    #expect(news.map(\.path) == ["/news", "/news/:id"])
    let service: NewsService = container.resolve()
    #expect(service.routes.map(\.path) == ["/news", "/news/:id"])
  }

  @Test func ambiguityBetweenModulesNamesEachCandidatesFrameworkAndPart() throws {
    let container = makeContainer().append(framework: CheckoutFramework.self)
    let error = try #require(throws: DIError.self) {
      let _: CheckoutService = try container.tryResolve()
    }
    let text = error.description
    #expect(text.contains("APIClient is ambiguous for CheckoutService (CheckoutFramework): "))
    #expect(text.contains("NewsAPIClient (NewsFramework, NewsPart, ModularFixtureNews/"))
    #expect(
      text.contains(
        "ProfileAPIClient (ProfileFramework, ProfileClientPart, ModularFixtureProfile/"))
  }

  @Test func cleanFrameworkAcrossModulesDropsOnlyThatFrameworksInstances() {
    let container = makeContainer()
    let news1: NewsService = container.resolve()
    let profile1: ProfileService = container.resolve()
    container.clean(framework: NewsFramework.self)
    let news2: NewsService = container.resolve()
    let profile2: ProfileService = container.resolve()
    #expect(news1 !== news2)
    #expect(profile1 === profile2)
  }

  @Test func cleanPartAcrossModulesDropsOnlyThatPartsInstances() {
    let container = makeContainer()
    let client1: any APIClient = container.resolve(from: ProfileFramework.self)
    let news1: NewsService = container.resolve()
    container.clean(part: ProfileClientPart.self)
    let client2: any APIClient = container.resolve(from: ProfileFramework.self)
    let news2: NewsService = container.resolve()
    #expect(client1 !== client2)
    #expect(news1 === news2)
  }
}

/// A clock registered outside every framework: not News's, not one it imports.
private final class SystemClockDouble: Clock {
  let now = 0
}

/// A feature in the test module that imports News only.
private final class ReaderFramework: DIFramework {
  static func load(container: DIContainer) {
    container.import(NewsFramework.self)
    container.register(ReaderService.init)
  }
}

private final class ReaderService: Sendable {
  let client: any APIClient
  init(client: any APIClient) { self.client = client }
}

/// A feature that imports both News and Profile, so its API client is ambiguous.
private final class CheckoutFramework: DIFramework {
  static func load(container: DIContainer) {
    container.import(NewsFramework.self)
    container.import(ProfileFramework.self)
    container.register(CheckoutService.init)
  }
}

private final class CheckoutService: Sendable {
  let client: any APIClient
  init(client: any APIClient) { self.client = client }
}
