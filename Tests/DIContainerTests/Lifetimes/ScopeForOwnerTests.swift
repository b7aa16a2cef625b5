import DIContainer
import DITestSupport
import Testing

private final class Request {}
private final class RequestLog {}

@Suite struct ScopeForOwnerTests {
  @Test func oneScopePerOwner() {
    let container = DIContainer()
    container.register(RequestLog.init).lifetime(.scoped)
    let request = Request()
    let other = Request()
    let first: RequestLog = container.scope(for: request).resolve()
    let again: RequestLog = container.scope(for: request).resolve()
    let another: RequestLog = container.scope(for: other).resolve()
    #expect(first === again)
    #expect(first !== another)
    #expect(container.scope(for: request) === container.scope(for: request))
  }

  @Test func scopeIsClosedAtTheNextScopeForCallAfterTheOwnerIsGone() {
    let counter = Counter()
    let container = DIContainer()
    container.register(RequestLog.init).lifetime(.scoped).onClean { _ in counter.next() }
    weak var weakLog: RequestLog?
    let scope: DIRequestScope
    do {
      let request = Request()
      scope = container.scope(for: request)
      let log: RequestLog = scope.resolve()
      weakLog = log
    }
    // The owner is gone, but nothing told the container yet.
    #expect(!scope.isClosed)
    #expect(counter.value == 0)
    _ = container.scope(for: Request())
    #expect(scope.isClosed)
    #expect(counter.value == 1)
    #expect(weakLog == nil)
  }

  @Test func scopesOfLiveOwnersStayOpen() {
    let container = DIContainer()
    container.register(RequestLog.init).lifetime(.scoped)
    let request = Request()
    let scope = container.scope(for: request)
    let log: RequestLog = scope.resolve()
    _ = container.scope(for: Request())
    #expect(!scope.isClosed)
    let same: RequestLog = container.scope(for: request).resolve()
    #expect(log === same)
  }

  @Test func scopesCloseWhenTheContainerIsReleased() {
    let counter = Counter()
    let request = Request()
    weak var weakContainer: DIContainer?
    let scope: DIRequestScope
    do {
      let container = DIContainer()
      weakContainer = container
      container.register(RequestLog.init).lifetime(.scoped).onClean { _ in counter.next() }
      scope = container.scope(for: request)
      let _: RequestLog = scope.resolve()
    }
    #expect(weakContainer == nil)
    #expect(scope.isClosed)
    #expect(counter.value == 1)
  }

  @Test func closingAnOwnersScopeEarlyKeepsItClosed() {
    let container = DIContainer()
    container.register(RequestLog.init).lifetime(.scoped)
    let request = Request()
    container.scope(for: request).close()
    #expect(container.scope(for: request).isClosed)
  }
}
