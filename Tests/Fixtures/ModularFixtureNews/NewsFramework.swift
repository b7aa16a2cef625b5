public import DIContainer
public import DIFrameworks
internal import DIParts
public import ModularFixtureShared

/// The news feature: its own API client, routes and service.
public final class NewsFramework: DIFramework {
  public static func load(container: DIContainer) {
    container.import(CoreFramework.self)
    container.append(part: NewsPart.self)
    container.register { NewsService(client: $0, clock: $1, routes: manyInFramework($2)) }
      .lifetime(.perFramework(.single))
  }
}

/// News's registrations of implementations no other module can name.
final class NewsPart: DIPart {
  static func load(container: DIContainer) {
    container.register(NewsAPIClient.init).as((any APIClient).self)
    container.register(HeadlinesRoute.init).as((any Route).self)
    container.register(ArticleRoute.init).as((any Route).self)
  }
}

final class NewsAPIClient: APIClient {
  let host = "news.example.com"
}

struct HeadlinesRoute: Route {
  let path = "/news"
}

struct ArticleRoute: Route {
  let path = "/news/:id"
}

/// What the news feature offers other modules.
public final class NewsService: Sendable {
  /// The API client the container chose for News.
  public let client: any APIClient
  /// Core's clock, through News's import.
  public let clock: any Clock
  /// News's own routes only.
  public let routes: [any Route]

  init(client: any APIClient, clock: any Clock, routes: [any Route]) {
    self.client = client
    self.clock = clock
    self.routes = routes
  }
}
