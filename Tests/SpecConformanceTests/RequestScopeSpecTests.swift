import DIContainer
import DIFrameworks
import DIParts
import Synchronization
import Testing

/// SPEC.md, "Request scopes and teardown": the snippet verbatim, `onClean`, `.scoped` outside
/// a scope, and captive dependencies.
@Suite struct RequestScopeSpecTests {
  /// What the hooks did, in order.
  final class Events: Sendable {
    private let state = Mutex<[String]>([])
    func append(_ event: String) { state.withLock { $0.append(event) } }
    var all: [String] { state.withLock { $0 } }
  }

  final class RequestLog {}
  final class DatabasePool {
    let closed = Atomic(0)
    func close() { closed.add(1, ordering: .relaxed) }
  }
  final class Handler {
    let log: RequestLog
    let pool: DatabasePool
    init(log: RequestLog, pool: DatabasePool) {
      self.log = log
      self.pool = pool
    }
  }
  final class Request {}

  @Test func theSnippetRunsAsWritten() {
    let container = DIContainer()
    container.register(Handler.init)
    let request = Request()
    weak var weakLog: RequestLog?
    weak var weakPool: DatabasePool?
    weak var weakPerRequest: DIRequestScope?

    container.register(RequestLog.init).lifetime(.scoped)  // one per scope
    container.register(DatabasePool.init)
      .lifetime(.perFramework(.single))
      .onClean { pool in pool.close() }  // run when the instance is dropped

    do {
      let scope = container.makeScope()  // cheap: shares the container's registrations
      let handler: Handler = scope.resolve()  // .scoped instances are cached in `scope`
      let again: Handler = scope.resolve()
      #expect(handler !== again)
      #expect(handler.log === again.log, ".scoped: one per scope")
      let otherScope = container.makeScope()
      let other: Handler = otherScope.resolve()
      #expect(other.log !== handler.log)
      otherScope.close()
      weakLog = handler.log
      weakPool = handler.pool
      _ = consume handler
      _ = consume again
      _ = consume other
      scope.close()  // drops them; runs their onClean hooks
      #expect(scope.isClosed)
    }
    #expect(weakLog == nil, "close() dropped the .scoped RequestLog")
    #expect(weakPool?.closed.load(ordering: .relaxed) == 0, "close() drops .scoped ones only")

    do {
      // one scope per owner object, via AssociatedStorage,
      // closed once the owner is gone
      let perRequest = container.scope(for: request)
      #expect(perRequest === container.scope(for: request))
      let handler: Handler = perRequest.resolve()
      weakLog = handler.log
      weakPerRequest = perRequest
    }
    #expect(weakLog != nil, "the scope of a live owner keeps its instances")
    _ = consume request
    _ = container.scope(for: Request())
    #expect(weakPerRequest == nil || weakPerRequest?.isClosed == true)
    #expect(weakLog == nil, "closed once the owner is gone")
  }

  final class LateHandler {
    let log: RequestLog
    let logs: Provider<RequestLog>
    init(log: RequestLog, logs: Provider<RequestLog>) {
      self.log = log
      self.logs = logs
    }
  }

  @Test func aProviderMadeInAScopeResolvesInIt() {
    let container = DIContainer()
    container.register(RequestLog.init).lifetime(.scoped)
    container.register(LateHandler.init)
    let scope = container.makeScope()
    let handler: LateHandler = scope.resolve()
    #expect(handler.logs.value === handler.log)
    scope.close()
  }

  // MARK: - onClean

  final class Leaf {}
  final class Middle {
    let leaf: Leaf
    init(leaf: Leaf) { self.leaf = leaf }
  }
  final class Top {
    let middle: Middle
    init(middle: Middle) { self.middle = middle }
  }

  /// Registers Leaf ← Middle ← Top with `lifetime`, each hook recording its name.
  static func registerChain(in container: DIContainer, _ lifetime: DILifetime, _ events: Events) {
    container.register(Leaf.init).lifetime(lifetime).onClean { _ in events.append("Leaf") }
    container.register(Middle.init).lifetime(lifetime).onClean { _ in events.append("Middle") }
    container.register(Top.init).lifetime(lifetime).onClean { _ in events.append("Top") }
  }

  @Test func onCleanRunsOncePerInstanceInReverseOrderOfCreationOnClean() {
    let container = DIContainer()
    let events = Events()
    Self.registerChain(in: container, .perContainer(.single), events)
    let _: Top = container.resolve()
    container.clean()
    container.clean()
    #expect(events.all == ["Top", "Middle", "Leaf"])
  }

  enum ChainFramework: DIFramework {
    static let events = Events()
    static func load(container: DIContainer) {
      RequestScopeSpecTests.registerChain(in: container, .perFramework(.single), events)
    }
  }

  enum ChainPart: DIPart {
    static let events = Events()
    static func load(container: DIContainer) {
      RequestScopeSpecTests.registerChain(in: container, .perPart(.single), events)
    }
  }

  @Test func onCleanRunsOnCleanFramework() {
    let container = DIContainer()
    container.append(framework: ChainFramework.self)
    let _: Top = container.resolve()
    container.clean()
    #expect(ChainFramework.events.all.isEmpty)
    container.clean(framework: ChainFramework.self)
    container.clean(framework: ChainFramework.self)
    #expect(ChainFramework.events.all == ["Top", "Middle", "Leaf"])
  }

  @Test func onCleanRunsOnCleanPart() {
    let container = DIContainer()
    container.append(part: ChainPart.self)
    let _: Top = container.resolve()
    container.clean(part: ChainPart.self)
    container.clean(part: ChainPart.self)
    #expect(ChainPart.events.all == ["Top", "Middle", "Leaf"])
  }

  @Test func onCleanRunsOnScopeClean() {
    let container = DIContainer()
    let events = Events()
    let scope = DIScope(name: "TeardownScope")
    Self.registerChain(in: container, .custom(scope), events)
    let _: Top = container.resolve()
    scope.clean()
    scope.clean()
    #expect(events.all == ["Top", "Middle", "Leaf"])
  }

  @Test func onCleanRunsOnClose() {
    let container = DIContainer()
    let events = Events()
    Self.registerChain(in: container, .scoped, events)
    let scope = container.makeScope()
    let _: Top = scope.resolve()
    scope.close()
    scope.close()
    #expect(events.all == ["Top", "Middle", "Leaf"])
  }

  // MARK: - .scoped outside a scope

  @Test func resolvingAScopedComponentOutsideAScopeIsAnErrorWithAClearMessage() {
    let container = DIContainer()
    container.register(RequestLog.init).lifetime(.scoped)
    let error = #expect(throws: DIError.self) {
      let _: RequestLog = try container.tryResolve()
    }
    let text = error?.description ?? ""
    #expect(text.contains("RequestLog"))
    #expect(text.contains(".scoped"))
    #expect(text.contains("makeScope()"))
  }

  // MARK: - Captive dependencies

  enum CaptiveFramework: DIFramework {
    static func load(container: DIContainer) {}
  }

  final class Cache {
    init(log: RequestLog) {}
  }

  @Test(arguments: [
    DILifetime.single, .perApplication(.single), .perApplication(.weak), .perContainer(.single),
    .perContainer(.weak), .perFramework(.single), .perPart(.single),
  ])
  func validationReportsALongerLivedComponentHoldingAScopedOne(lifetime: DILifetime) throws {
    let container = DIContainer()
    container.register(RequestLog.init).lifetime(.scoped)
    container.register(Cache.init).lifetime(lifetime)
    let graph = container.makeGraph()
    let problems = graph.findProblems().filter { $0.kind == .captiveDependency }
    #expect(problems.count == 1, "\(lifetime)")
    let report = #expect(throws: DIGraphValidationError.self) { try graph.validate() }
    #expect(report?.errors.contains { $0.kind == .captiveDependency } == true)
  }

  @Test(arguments: [DILifetime.prototype, .objectGraph, .scoped])
  func validationDoesNotReportShorterOrEqualLivedHolders(lifetime: DILifetime) {
    let container = DIContainer()
    container.register(RequestLog.init).lifetime(.scoped)
    container.register(Cache.init).lifetime(lifetime)
    let problems = container.makeGraph().findProblems().filter { $0.kind == .captiveDependency }
    #expect(problems.isEmpty, "\(lifetime)")
  }
}
