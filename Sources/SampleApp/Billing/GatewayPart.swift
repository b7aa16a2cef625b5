internal import DIContainer
internal import DIParts
internal import OrderModel

/// The card gateway's client: one per part, so `clean(framework:)` keeps it and
/// `clean(part:)` would drop it.
final class GatewayPart: DIPart {
  static func load(container: DIContainer) {
    container.register(CardGateway.init)
      .as((any Resource).self)
      .lifetime(.perPart(.single))
      .onClean { $0.close() }
  }
}
