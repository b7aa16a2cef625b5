// Frameworks, parts, modularity and imports in a child container, held to SPEC through the
// public API. Every top-level type is prefixed `CI`.

import DIContainer
import DIFrameworks
import DIParts
import Testing

protocol CIFTransport: AnyObject { var name: String { get } }
final class CIFSMTP: CIFTransport { let name = "smtp" }
final class CIFSocket: CIFTransport { let name = "socket" }
final class CIFFake: CIFTransport { let name = "fake" }

final class CIFMailService {
  let transport: any CIFTransport
  init(transport: any CIFTransport) { self.transport = transport }
}
final class CIFChatService {
  let transport: any CIFTransport
  init(transport: any CIFTransport) { self.transport = transport }
}
final class CIFInbox {
  let transport: any CIFTransport
  init(transport: any CIFTransport) { self.transport = transport }
}
final class CIFFrameworkCache { init() {} }
final class CIFPartThing { init() {} }
final class CIFTenantOnly { init() {} }

final class CIFMailFramework: DIFramework {
  static func load(container: DIContainer) {
    container.register(CIFSMTP.init).as((any CIFTransport).self)
    container.register { CIFMailService(transport: $0) }
    container.register(CIFFrameworkCache.init).lifetime(.perFramework(.single))
  }
}

final class CIFChatFramework: DIFramework {
  static func load(container: DIContainer) {
    container.register(CIFSocket.init).as((any CIFTransport).self)
    container.register { CIFChatService(transport: $0) }
  }
}

/// Registers no transport of its own: imports Mail's.
final class CIFInboxFramework: DIFramework {
  static func load(container: DIContainer) {
    container.import(CIFMailFramework.self)
    container.register { CIFInbox(transport: $0) }
  }
}

final class CIFTenantFramework: DIFramework {
  static func load(container: DIContainer) {
    container.register(CIFTenantOnly.init).lifetime(.perFramework(.single))
  }
}

final class CIFPart: DIPart {
  static func load(container: DIContainer) {
    container.register(CIFPartThing.init).lifetime(.perPart(.single))
  }
}

@Suite struct ChildFrameworkChoiceTests {
  private func production() -> DIContainer {
    DIContainer()
      .append(framework: CIFMailFramework.self)
      .append(framework: CIFChatFramework.self)
  }

  @Test func modularityOfParentFrameworksWorksThroughChild() throws {
    let parent = production()
    let child = DIContainer(parent: parent)
    let mail: CIFMailService = try child.tryResolve()
    let chat: CIFChatService = try child.tryResolve()
    #expect(mail.transport is CIFSMTP)
    #expect(chat.transport is CIFSocket)
    // Outside every framework the two transports are ambiguous, in the child too.
    let outside: (any CIFTransport)? = child.resolve()
    #expect(outside == nil)
  }

  @Test func childOverrideBeatsModularityOfParentLevel() throws {
    let parent = production()
    let child = DIContainer(parent: parent)
    child.register(CIFFake.init).as((any CIFTransport).self)
    let mail: CIFMailService = try child.tryResolve()
    let chat: CIFChatService = try child.tryResolve()
    #expect(mail.transport is CIFFake)
    #expect(chat.transport is CIFFake)
    let parentMail: CIFMailService = try parent.tryResolve()
    #expect(parentMail.transport is CIFSMTP)
  }

  @Test func frameworkAppendedToChildIsTheChildsOnly() throws {
    let parent = production()
    let child = DIContainer(parent: parent).append(framework: CIFTenantFramework.self)
    let tenant: CIFTenantOnly = try child.tryResolve()
    let again: CIFTenantOnly = try child.tryResolve()
    #expect(tenant === again)
    let none: CIFTenantOnly? = parent.resolve()
    #expect(none == nil)
    child.clean(framework: CIFTenantFramework.self)
    let after: CIFTenantOnly = try child.tryResolve()
    #expect(after !== tenant)
  }

  @Test func importsWorkInAChild() throws {
    let parent = production()
    let child = DIContainer(parent: parent).append(framework: CIFInboxFramework.self)
    let inbox: CIFInbox = try child.tryResolve()
    #expect(inbox.transport is CIFSMTP)
  }

  @Test func frameworkImportingAParentFrameworkFromAChildSharesTheParentsInstances() throws {
    // Mail is in the parent; Inbox, appended to the child, imports it.
    let parent = production()
    let parentCache: CIFFrameworkCache = try parent.tryResolve()
    let child = DIContainer(parent: parent)
    child.append(framework: CIFInboxFramework.self)
    let inbox: CIFInbox = try child.tryResolve()
    #expect(inbox.transport is CIFSMTP)
    let childCache: CIFFrameworkCache = try child.tryResolve()
    #expect(childCache === parentCache)
  }

  @Test func perFrameworkInstanceOfParentIsSharedAndChildCleanDoesNotDropIt() throws {
    let parent = production()
    let child = DIContainer(parent: parent)
    let viaChild: CIFFrameworkCache = try child.tryResolve()
    let viaParent: CIFFrameworkCache = try parent.tryResolve()
    #expect(viaChild === viaParent)
    let lines = DISetting.Log.capturing {
      child.clean(framework: CIFMailFramework.self)
    }
    let after: CIFFrameworkCache = try child.tryResolve()
    #expect(after === viaParent)
    #expect(!lines.isEmpty)  // a warning: the framework was not appended to the child
    parent.clean(framework: CIFMailFramework.self)
    let fresh: CIFFrameworkCache = try child.tryResolve()
    #expect(fresh !== viaParent)
  }

  @Test func partsInAChild() throws {
    let parent = production()
    let child = DIContainer(parent: parent).append(part: CIFPart.self)
    let thing: CIFPartThing = try child.tryResolve()
    #expect(try child.tryResolve() as CIFPartThing === thing)
    let none: CIFPartThing? = parent.resolve()
    #expect(none == nil)
    child.clean(part: CIFPart.self)
    #expect(try child.tryResolve() as CIFPartThing !== thing)
  }

  @Test func resolveFromAParentFrameworkThroughAChild() throws {
    let parent = production()
    let child = DIContainer(parent: parent)
    var transport: (any CIFTransport)?
    let lines = DISetting.Log.capturing {
      transport = try? child.tryResolve(from: CIFMailFramework.self)
    }
    #expect(transport is CIFSMTP)
    #expect(!lines.contains { $0.contains("was not appended") })
  }

  @Test func manyInFrameworkThroughAChild() throws {
    let parent = production()
    parent.register { (all: DIManyInFramework<any CIFTransport>) in
      CIFInbox(transport: manyInFramework(all).first ?? CIFFake())
    }
    let child = DIContainer(parent: parent)
    // Outside every framework, manyInFramework collects nothing.
    let inbox: CIFInbox = try child.tryResolve()
    #expect(inbox.transport is CIFFake)
  }

  @Test func graphValidationOfAChildWithFrameworks() throws {
    let parent = production()
    let child = DIContainer(parent: parent).append(framework: CIFInboxFramework.self)
    child.register(CIFFake.init).as((any CIFTransport).self).default()
    try child.makeGraph().validate()
    let inbox: CIFInbox = try child.tryResolve()
    // The child's level decides first (SPEC "Child containers"): its own candidate, the
    // `.default()` fake, hides the parent's imported SMTP.
    #expect(inbox.transport is CIFFake)
    let chat: CIFChatService = try child.tryResolve()
    #expect(chat.transport is CIFFake)
  }
}
