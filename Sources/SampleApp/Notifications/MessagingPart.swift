internal import DIContainer
internal import DIParts
internal import OrderModel

/// The SMTP connection (one per part) and the channels that use it.
final class MessagingPart: DIPart {
  static func load(container: DIContainer) {
    container.register(SMTPConnection.init)
      .as((any Resource).self)
      .lifetime(.perPart(.single))
      .onClean { $0.close() }
    container.register(EmailChannel.init).as((any Channel).self)
    container.register(TextMessageChannel.init).as((any Channel).self)
  }
}
