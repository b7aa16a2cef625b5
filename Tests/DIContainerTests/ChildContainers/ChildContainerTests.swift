import DIContainer
import DITestSupport
import Dispatch
import Foundation
import Testing

private protocol TnDatabase: AnyObject, Sendable {
  var name: String { get }
}
private final class TnProductionDatabase: TnDatabase {
  let name = "production"
}
private final class TnTestDatabase: TnDatabase {
  let name = "test"
}
private final class TnMailer: Sendable {}
/// A `.prototype` service whose dependency a child overrides.
private final class TnOrderService: Sendable {
  let database: TnDatabase
  init(database: TnDatabase) { self.database = database }
}
/// A parent's shared instance whose dependency a child overrides.
private final class TnRepository {
  let database: TnDatabase
  init(database: TnDatabase) { self.database = database }
}
private protocol TnPlugin {}
private struct TnParentPlugin: TnPlugin {}
private struct TnChildPlugin: TnPlugin {}
private final class TnCache {}
private final class TnSession {}
private final class TnRequest {}
private final class TnDependent {
  init(missing: TnMailer) {}
}

@Suite struct ChildContainerTests {
  private func production() -> DIContainer {
    let container = DIContainer()
    container.register(TnProductionDatabase.init).as(TnDatabase.self)
    container.register(TnOrderService.init)
    container.register(TnRepository.init).lifetime(.perContainer(.single))
    return container
  }

  @Test func aChildOverridesADependencyDeepInTheGraph() {
    let parent = production()
    let child = DIContainer(parent: parent)
    child.register(TnTestDatabase.init).as(TnDatabase.self)
    let service: TnOrderService = child.resolve()
    #expect(service.database.name == "test")
    let parentService: TnOrderService = parent.resolve()
    #expect(parentService.database.name == "production", "a parent never sees the child's")
  }

  @Test func aParentsCachedInstanceIsSharedAndMadeFromTheParentsRegistrations() {
    let parent = production()
    let child = DIContainer(parent: parent)
    child.register(TnTestDatabase.init).as(TnDatabase.self)
    let throughChild: TnRepository = child.resolve()
    #expect(throughChild.database.name == "production", "the override does not leak")
    let fromParent: TnRepository = parent.resolve()
    #expect(fromParent === throughChild)
  }

  @Test func aChildsPerContainerInstanceBelongsToTheChild() throws {
    let parent = DIContainer()
    let first = DIContainer(parent: parent)
    let second = DIContainer(parent: parent)
    for child in [first, second] { child.register(TnCache.init).lifetime(.perContainer(.single)) }
    let a: TnCache = first.resolve()
    let b: TnCache = second.resolve()
    #expect(a !== b)
    #expect(a === first.resolve() as TnCache)
    let error = #expect(throws: DIError.self) { let _: TnCache = try parent.tryResolve() }
    #expect(error?.code == .notRegistered)
  }

  @Test func manyCollectsTheChildsThenTheParents() {
    let parent = DIContainer()
    parent.register { TnParentPlugin() }.as(TnPlugin.self)
    let child = DIContainer(parent: parent)
    child.register { TnChildPlugin() }.as(TnPlugin.self)
    let plugins: [TnPlugin] = many(child.resolve())
    #expect(plugins.count == 2)
    #expect(plugins.first is TnChildPlugin)
    #expect(plugins.last is TnParentPlugin)
    let parents: [TnPlugin] = many(parent.resolve())
    #expect(parents.count == 1)
  }

  @Test func theChildsLevelDecidesFirst() {
    let parent = DIContainer()
    parent.register(TnProductionDatabase.init).as(TnDatabase.self).test()
    let child = DIContainer(parent: parent)
    child.register(TnTestDatabase.init).as(TnDatabase.self)
    let database: TnDatabase = child.resolve()
    #expect(database.name == "test", "a child's plain candidate beats a parent's .test()")
    child.register(TnTestDatabase.init).as(TnDatabase.self)
    let error = #expect(throws: DIError.self) { let _: TnDatabase = try child.tryResolve() }
    #expect(error?.code == .ambiguous, "two child candidates, no .default()")
    #expect(error?.candidates.count == 2)
  }

  @Test func aChildSeesItsParentsLaterRegistrations() {
    let parent = DIContainer()
    let child = DIContainer(parent: parent)
    let before: TnMailer? = child.resolve()
    #expect(before == nil)
    parent.register(TnMailer.init)
    let after: TnMailer? = child.resolve()
    #expect(after != nil)
  }

  @Test func cleaningAChildLeavesTheParentsInstances() {
    let parent = production()
    let child = DIContainer(parent: parent)
    child.register(TnCache.init).lifetime(.perContainer(.single))
    let repository: TnRepository = child.resolve()
    let cache: TnCache = child.resolve()
    child.clean()
    #expect(repository === child.resolve() as TnRepository)
    #expect(cache !== child.resolve() as TnCache)
  }

  @Test func shuttingDownAChildLeavesTheParentsInstances() async throws {
    let parent = production()
    let child = DIContainer(parent: parent)
    child.register(TnCache.init).lifetime(.perContainer(.single))
    let repository: TnRepository = try child.tryResolve()
    let _: TnCache = try child.tryResolve()
    await child.shutdown()
    #expect(try repository === parent.tryResolve() as TnRepository)
    let error = #expect(throws: DIError.self) { let _: TnCache = try child.tryResolve() }
    #expect(error?.code == .containerShutDown)
  }

  @Test func aChildKeepsItsParentAlive() {
    weak var weakParent: DIContainer?
    var child: DIContainer?
    do {
      let parent = DIContainer()
      parent.register(TnMailer.init)
      weakParent = parent
      child = DIContainer(parent: parent)
    }
    #expect(weakParent != nil)
    let mailer: TnMailer? = child?.resolve()
    #expect(mailer != nil)
    child = nil
    #expect(weakParent == nil, "the parent holds its children weakly")
  }

  @Test func validatingAChildIncludesWhatItResolvesFromItsParent() throws {
    let parent = production()
    let child = DIContainer(parent: parent)
    child.register(TnTestDatabase.init).as(TnDatabase.self)
    child.register(TnCache.init).root()
    try child.makeGraph().validate()
    let broken = DIContainer(parent: parent)
    broken.register(TnDependent.init).root()
    let error = #expect(throws: DIGraphValidationError.self) {
      try broken.makeGraph().validate()
    }
    #expect(error?.description.contains("Dependent") == true)
    #expect(error?.description.contains("Mailer") == true)
  }

  @Test func requestScopesWorkInAChild() {
    let parent = DIContainer()
    parent.register(TnSession.init).lifetime(.scoped)
    let child = DIContainer(parent: parent)
    child.register(TnRequest.init).lifetime(.scoped)
    let scope = child.makeScope()
    let session: TnSession = scope.resolve()
    #expect(session === scope.resolve() as TnSession)
    let request: TnRequest = scope.resolve()
    #expect(request === scope.resolve() as TnRequest)
    scope.close()
    let other = child.makeScope()
    #expect(session !== other.resolve() as TnSession)
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func threadsResolveThroughAChildWhileTheParentRegisters() async throws {
    let parent = production()
    parent.register(TnMailer.init).lifetime(.perContainer(.single))
    let child = DIContainer(parent: parent)
    child.register(TnTestDatabase.init).as(TnDatabase.self)
    let mailer: TnMailer = try parent.tryResolve()
    let wrong = Counter()
    try await withThrowingTaskGroup(of: Void.self) { group in
      group.addTask {
        for _ in 0..<200 { parent.register(TnCache.init) }
      }
      for _ in 0..<64 {
        group.addTask {
          for _ in 0..<50 {
            let service: TnOrderService = try child.tryResolve()
            let shared: TnMailer = try child.tryResolve()
            if service.database.name != "test" || shared !== mailer { wrong.next() }
          }
        }
      }
      try await group.waitForAll()
    }
    #expect(wrong.value == 0)
    let caches: [TnCache] = try many(child.tryResolve())
    #expect(caches.count == 200, "the child sees every registration of its parent")
  }
}

@Suite struct ArgumentChoiceTests {
  private final class Greeting {
    let text: String
    init(text: String) { self.text = text }
  }

  @Test func theCandidateTakingTheArgumentsIsChosen() {
    let container = DIContainer()
    container.register { Greeting(text: "hello \(arg($0) as String)") }
    container.register { Greeting(text: "number \(arg($0) as Int)") }
    let byName: Greeting = container.resolve(arg: "Ann")
    let byNumber: Greeting = container.resolve(arg: 7)
    #expect(byName.text == "hello Ann")
    #expect(byNumber.text == "number 7")
    let provider: Provider1<Greeting, Int> = container.resolve()
    #expect(provider.value(3).text == "number 3")
  }

  @Test func extraArgumentsAreAnError() {
    let container = DIContainer()
    container.register { Greeting(text: arg($0)) }
    let error = #expect(throws: DIError.self) {
      let _: Greeting = try container.tryResolve(arguments: ["Ann", 3])
    }
    #expect(error?.code == .extraArguments)
    #expect(error?.argumentPosition == 2)
    #expect(
      error?.description.contains("2 runtime arguments were passed, and Greeting takes 1") == true)
    let optional = #expect(throws: DIError.self) {
      let _: Greeting? = try container.tryResolve(arguments: ["Ann", 3])
    }
    #expect(optional?.code == .extraArguments, "an optional request too")
  }

  @Test func argumentsToAComponentWithoutArgParametersAreAnError() {
    let container = DIContainer()
    container.register { Greeting(text: "plain") }
    let error = #expect(throws: DIError.self) {
      let _: Greeting = try container.tryResolve(arguments: [1])
    }
    #expect(error?.code == .extraArguments)
  }
}
