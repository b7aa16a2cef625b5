public import DIContainer
public import DIFrameworks
public import DIParts
public import ModularFixtureShared

/// The profile feature: its own API client (kept per part) and service.
public final class ProfileFramework: DIFramework {
  public static func load(container: DIContainer) {
    container.import(CoreFramework.self)
    container.append(part: ProfileClientPart.self)
    container.register(ProfileService.init).lifetime(.perFramework(.single))
    container.register(AvatarRoute.init).as((any Route).self)
  }
}

/// Profile's API client, public so an application can clean its instance; the client
/// type itself stays internal.
public final class ProfileClientPart: DIPart {
  public static func load(container: DIContainer) {
    container.register(ProfileAPIClient.init).as((any APIClient).self).lifetime(.perPart(.single))
  }
}

final class ProfileAPIClient: APIClient {
  let host = "profile.example.com"
}

struct AvatarRoute: Route {
  let path = "/profile/avatar"
}

/// What the profile feature offers other modules.
public final class ProfileService: Sendable {
  /// The API client the container chose for Profile.
  public let client: any APIClient

  init(client: any APIClient) {
    self.client = client
  }
}
