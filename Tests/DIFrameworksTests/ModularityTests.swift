import DIContainer
import DIFrameworks
import DIParts
import Testing

@Suite struct ModularityTests {
  @Test func twoFrameworksRegisteringOneProtocolEachGetTheirOwn() {
    let container = DIContainer()
      .append(framework: MailFramework.self)
      .append(framework: ChatFramework.self)
    let mail: MailService = container.resolve()
    let chat: ChatService = container.resolve()
    #expect(mail.transport is SMTPTransport)
    #expect(chat.transport is WebSocketTransport)
  }

  @Test func importedFrameworkIsTheFallback() {
    let container = DIContainer()
      .append(framework: MailFramework.self)
      .append(framework: ChatFramework.self)
      .append(framework: InboxFramework.self)
    let inbox: InboxService = container.resolve()
    #expect(inbox.transport is SMTPTransport)
  }

  @Test func ownDefaultCandidateComesFirstWithinTheFramework() {
    let container = DIContainer().append(framework: AuditFramework.self)
      .append(framework: ChatFramework.self)
    container.register(FakeTransport.init).as((any Transport).self).default()
    let audit: AuditService = container.resolve()
    let outside: (any Transport)? = container.resolve()
    #expect(audit.transport is QueueTransport)
    #expect(outside == nil)  // two .default() candidates outside every framework
  }

  @Test func defaultOverAllDecidesWhenModularityDoesNot() {
    let container = DIContainer()
      .append(framework: MailFramework.self)
      .append(framework: ChatFramework.self)
      .append(framework: NoTransportFramework.self)
    container.register(LogTransport.init).as((any Transport).self).default()
    let transport: any Transport = container.resolve(from: NoTransportFramework.self)
    #expect(transport is LogTransport)
    let outside: any Transport = container.resolve()
    #expect(outside is LogTransport)
    let mail: MailService = container.resolve()
    #expect(mail.transport is SMTPTransport)  // modularity before the global default
  }

  @Test func topLevelOptionalResolveOfAnAmbiguousServiceIsNil() {
    let container = DIContainer()
      .append(framework: MailFramework.self)
      .append(framework: ChatFramework.self)
    let transport: (any Transport)? = container.resolve()
    #expect(transport == nil)
    #expect(throws: DIError.self) {
      let _: any Transport = try container.tryResolve()
    }
  }

  @Test func testCandidateBeatsModularity() {
    let container = DIContainer()
      .append(framework: MailFramework.self)
      .append(framework: ChatFramework.self)
    container.register(FakeTransport.init).as((any Transport).self).test()
    let mail: MailService = container.resolve()
    let fromChat: any Transport = container.resolve(from: ChatFramework.self)
    #expect(mail.transport is FakeTransport)
    #expect(fromChat is FakeTransport)
  }

  @Test func resolveFromResolvesAsThatFrameworkAsks() throws {
    let container = DIContainer()
      .append(framework: MailFramework.self)
      .append(framework: ChatFramework.self)
      .append(framework: InboxFramework.self)
    let fromMail: any Transport = container.resolve(from: MailFramework.self)
    let fromChat: any Transport = try container.tryResolve(from: ChatFramework.self)
    let fromInbox: (any Transport)? = container.resolve(from: InboxFramework.self)
    #expect(fromMail is SMTPTransport)
    #expect(fromChat is WebSocketTransport)
    #expect(fromInbox is SMTPTransport)
  }

  @Test func tryResolveFromThrowsWhenTheFrameworkCannotDecide() throws {
    let container = DIContainer()
      .append(framework: MailFramework.self)
      .append(framework: ChatFramework.self)
      .append(framework: NoTransportFramework.self)
    let error = try #require(throws: DIError.self) {
      let _: any Transport = try container.tryResolve(from: NoTransportFramework.self)
    }
    #expect(error.description.contains("Transport is ambiguous for NoTransportFramework: "))
  }

  @Test func importsAreOneLevelDeep() {
    let container = DIContainer()
      .append(framework: TopFramework.self)
      .append(framework: SideFramework.self)
    // Top imports Middle, Middle imports Bottom: Top does not fall back on Bottom.
    let fromTop: (any Transport)? = container.resolve(from: TopFramework.self)
    let fromMiddle: (any Transport)? = container.resolve(from: MiddleFramework.self)
    #expect(fromTop == nil)
    #expect(fromMiddle is QueueTransport)
  }

  @Test func manyCrossesFrameworksAndManyInFrameworkDoesNot() {
    let container = DIContainer()
      .append(framework: MailFramework.self)
      .append(framework: ChatFramework.self)
      .append(framework: AuditFramework.self)
    let all: [any Transport] = many(container.resolve())
    let audit: [any Transport] = manyInFramework(container.resolve(from: AuditFramework.self))
    let service: AuditService = container.resolve()
    #expect(all.count == 4)
    #expect(audit.count == 2)
    #expect(service.all.count == 2)
    #expect(audit.contains { $0 is QueueTransport } && audit.contains { $0 is LogTransport })
  }

  @Test func ambiguityReadsAsOneBetweenModules() throws {
    let container = DIContainer()
      .append(framework: MailFramework.self)
      .append(framework: ChatFramework.self)
      .append(framework: BroadcastFramework.self)
    let error = try #require(throws: DIError.self) {
      let _: BroadcastService = try container.tryResolve()
    }
    let text = error.description
    #expect(
      text.hasPrefix(
        "Cannot resolve BroadcastService: Transport is ambiguous for BroadcastService"
          + " (BroadcastFramework): SMTPTransport (MailFramework, MailPart, DIFrameworksTests/"))
    #expect(text.contains("WebSocketTransport (ChatFramework, DIFrameworksTests/"))
    #expect(text.contains("path: BroadcastService → Transport"))
  }
}

protocol Transport: AnyObject, Sendable {}
private final class SMTPTransport: Transport {}
private final class WebSocketTransport: Transport {}
private final class QueueTransport: Transport {}
private final class LogTransport: Transport {}
private final class FakeTransport: Transport {}

private final class MailService: Sendable {
  let transport: any Transport
  init(transport: any Transport) { self.transport = transport }
}
private final class ChatService: Sendable {
  let transport: any Transport
  init(transport: any Transport) { self.transport = transport }
}
private final class InboxService: Sendable {
  let transport: any Transport
  init(transport: any Transport) { self.transport = transport }
}
private final class BroadcastService: Sendable {
  let transport: any Transport
  init(transport: any Transport) { self.transport = transport }
}
private final class AuditService: Sendable {
  let transport: any Transport
  let all: [any Transport]
  init(transport: any Transport, all: [any Transport]) {
    self.transport = transport
    self.all = all
  }
}

private final class MailPart: DIPart {
  static func load(container: DIContainer) {
    container.register(SMTPTransport.init).as((any Transport).self)
  }
}

private final class MailFramework: DIFramework {
  static func load(container: DIContainer) {
    container.append(part: MailPart.self)
    container.register(MailService.init)
  }
}

private final class ChatFramework: DIFramework {
  static func load(container: DIContainer) {
    container.register(WebSocketTransport.init).as((any Transport).self)
    container.register(ChatService.init)
  }
}

private final class InboxFramework: DIFramework {
  static func load(container: DIContainer) {
    container.import(MailFramework.self)
    container.register(InboxService.init)
  }
}

private final class BroadcastFramework: DIFramework {
  static func load(container: DIContainer) {
    container.import(MailFramework.self)
    container.import(ChatFramework.self)
    container.register(BroadcastService.init)
  }
}

private final class AuditFramework: DIFramework {
  static func load(container: DIContainer) {
    container.register(QueueTransport.init).as((any Transport).self).default()
    container.register(LogTransport.init).as((any Transport).self)
    container.register { AuditService(transport: $0, all: manyInFramework($1)) }
  }
}

private final class NoTransportFramework: DIFramework {
  static func load(container: DIContainer) {}
}

private final class TopFramework: DIFramework {
  static func load(container: DIContainer) {
    container.import(MiddleFramework.self)
  }
}

private final class MiddleFramework: DIFramework {
  static func load(container: DIContainer) {
    container.import(BottomFramework.self)
  }
}

private final class BottomFramework: DIFramework {
  static func load(container: DIContainer) {
    container.register(QueueTransport.init).as((any Transport).self)
  }
}

private final class SideFramework: DIFramework {
  static func load(container: DIContainer) {
    container.register(LogTransport.init).as((any Transport).self)
  }
}
