import DIContainer
import DITestSupport
import Testing

private final class RequestLog {}
private final class Session {}
private final class Handler {
  let log: RequestLog
  let session: Session
  init(log: RequestLog, session: Session) {
    self.log = log
    self.session = session
  }
}
private final class Audit {
  let log: RequestLog
  init(log: RequestLog) { self.log = log }
}
private final class LazyUser {
  let log: Lazy<RequestLog>
  let logs: Provider<RequestLog>
  init(log: Lazy<RequestLog>, logs: Provider<RequestLog>) {
    self.log = log
    self.logs = logs
  }
}
private final class Reply {
  let status: Int
  let log: RequestLog
  init(status: Int, log: RequestLog) {
    self.status = status
    self.log = log
  }
}

@Suite struct RequestScopeTests {
  private func makeContainer() -> DIContainer {
    let container = DIContainer()
    container.register(RequestLog.init).lifetime(.scoped)
    container.register(Session.init).lifetime(.perContainer(.single))
    container.register(Handler.init)
    container.register(Audit.init)
    return container
  }

  @Test func scopedInstanceIsSharedWithinOneScope() {
    let container = makeContainer()
    let scope = container.makeScope()
    let handler: Handler = scope.resolve()
    let audit: Audit = scope.resolve()
    let log: RequestLog = scope.resolve()
    #expect(handler.log === audit.log)
    #expect(handler.log === log)
  }

  @Test func scopesHaveTheirOwnScopedInstances() {
    let container = makeContainer()
    let first = container.makeScope()
    let second = container.makeScope()
    let one: RequestLog = first.resolve()
    let other: RequestLog = second.resolve()
    #expect(one !== other)
  }

  @Test func longerLivedInstancesAreTheContainers() {
    let container = makeContainer()
    let scope = container.makeScope()
    let handler: Handler = scope.resolve()
    scope.close()
    let session: Session = container.resolve()
    #expect(handler.session === session)
  }

  @Test func closeReleasesScopedInstances() {
    let container = makeContainer()
    let scope = container.makeScope()
    weak var weakLog: RequestLog?
    do {
      let log: RequestLog = scope.resolve()
      weakLog = log
    }
    #expect(weakLog != nil)
    scope.close()
    #expect(weakLog == nil)
  }

  @Test func closeIsIdempotentAndResolvingAfterItIsAnError() throws {
    let container = makeContainer()
    let scope = container.makeScope()
    #expect(!scope.isClosed)
    scope.close()
    scope.close()
    #expect(scope.isClosed)
    let error = #expect(throws: DIError.self) {
      let _: Session = try scope.tryResolve()
    }
    #expect(try #require(error).description.contains("the request scope was closed"))
  }

  @Test func scopedOutsideAnyScopeIsAnErrorThatSaysSo() throws {
    let container = makeContainer()
    let error = #expect(throws: DIError.self) {
      let _: Handler = try container.tryResolve()
    }
    let text = try #require(error).description
    #expect(text.contains("RequestLog (DIContainerTests/RequestScopeTests.swift:"))
    #expect(text.contains("is .scoped"))
    #expect(text.contains("resolve it from a scope: container.makeScope()"))
    #expect(text.contains("Handler → RequestLog"))
  }

  @Test func modifiersWorkInAScope() {
    let container = makeContainer()
    container.register { Reply(status: arg($0), log: $1) }
    let scope = container.makeScope()
    let optional: RequestLog? = scope.resolve()
    let all: [RequestLog] = many(scope.resolve())
    let reply: Reply = scope.resolve(arg: 200)
    let log: RequestLog = scope.resolve()
    #expect(optional === log)
    #expect(all.count == 1 && all[0] === log)
    #expect(reply.status == 200 && reply.log === log)
  }

  @Test func lazyAndProviderMadeInAScopeResolveInIt() throws {
    let container = makeContainer()
    container.register(LazyUser.init)
    let scope = container.makeScope()
    let user: LazyUser = scope.resolve()
    let log: RequestLog = scope.resolve()
    #expect(user.log.value === log)
    #expect(user.logs.value === log)
    scope.close()
    #expect(throws: DIError.self) { try user.logs.tryValue() }
  }

  @Test func providerMadeInAScopeThatIsGoneIsAnError() throws {
    let container = makeContainer()
    container.register(LazyUser.init)
    var scope: DIRequestScope? = container.makeScope()
    let user: LazyUser = scope!.resolve()
    scope = nil
    let error = #expect(throws: DIError.self) { try user.logs.tryValue() }
    #expect(try #require(error).description.contains("is closed"))
  }

  @Test func hooksOfAScopeReleasedWithoutCloseRun() {
    let counter = Counter()
    let container = DIContainer()
    container.register(RequestLog.init).lifetime(.scoped).onClean { _ in counter.next() }
    do {
      let scope = container.makeScope()
      let _: RequestLog = scope.resolve()
    }
    #expect(counter.value == 1)
  }

  @Test func scopeKeepsItsContainerAlive() {
    weak var weakContainer: DIContainer?
    let scope: DIRequestScope
    do {
      let container = makeContainer()
      weakContainer = container
      scope = container.makeScope()
    }
    #expect(weakContainer != nil)
    let _: RequestLog = scope.resolve()
    scope.close()
  }

  @Test func cycleThroughScopedInjectionsIsBuilt() {
    let container = DIContainer()
    container.register(ScopedParent.init).lifetime(.scoped).injection(\.child)
    container.register(ScopedChild.init).lifetime(.scoped).injection(\.parent)
    let scope = container.makeScope()
    let parent: ScopedParent = scope.resolve()
    #expect(parent.child?.parent === parent)
    scope.close()
  }

  @Test func scopedInitializerCycleIsAnErrorNotADeadlock() {
    let container = DIContainer()
    container.register { (_: ScopedChild) in ScopedParent() }.lifetime(.scoped)
    container.register { (_: ScopedParent) in ScopedChild() }.lifetime(.scoped)
    let scope = container.makeScope()
    #expect(throws: DIError.self) {
      let _: ScopedParent = try scope.tryResolve()
    }
  }

  @Test func failedCreationCanBeRetried() throws {
    let container = DIContainer()
    container.register(Audit.init).lifetime(.scoped)
    let scope = container.makeScope()
    #expect(throws: DIError.self) {
      let _: Audit = try scope.tryResolve()
    }
    container.register(RequestLog.init).lifetime(.scoped)
    let audit: Audit = try scope.tryResolve()
    let again: Audit = try scope.tryResolve()
    #expect(audit === again)
  }
}

private final class ScopedParent {
  var child: ScopedChild?
}
private final class ScopedChild {
  weak var parent: ScopedParent?
}
