import DIContainer
import DITestSupport
import Testing

// SPEC.md, "Overrides, defaults and inspection": `clean(_:)` of a type drops every cached
// instance (any caching lifetime of this container, its custom scopes) of the components that
// answer that service, with hooks, newest first.

protocol SOSessionService: AnyObject, Sendable {}
final class SOSession: SOSessionService, Sendable {
  let id: Int
  init(id: Int) { self.id = id }
}
final class SOOtherSession: SOSessionService, Sendable {}
final class SOKeep: Sendable {}
enum SOCleanTag {}
final class SOSessionHolder: Sendable {
  let session: SOSession
  init(session: SOSession) { self.session = session }
}

@Suite struct SOCleanServiceSpecTests {
  @Test func cleaningATypeDropsItsPerContainerInstanceAndRunsItsHook() throws {
    let container = DIContainer()
    let made = Counter()
    let cleaned = EventLog<Int>()
    container.register { SOSession(id: made.next()) }.lifetime(.perContainer(.single))
      .onClean { session in cleaned.append(session.id) }
    container.register(SOKeep.init).lifetime(.perContainer(.single))
      .onClean { _ in cleaned.append(-1) }
    let first: SOSession = try container.tryResolve()
    let keep: SOKeep = try container.tryResolve()
    container.clean(SOSession.self)
    #expect(cleaned.all == [1], "only the Session is dropped, its hook run before clean returns")
    let second: SOSession = try container.tryResolve()
    #expect(second !== first)
    #expect(second.id == 2)
    #expect(try container.tryResolve() as SOKeep === keep, "other services stay")
  }

  @Test func cleaningAServiceDropsEveryComponentAnsweringItNewestFirst() throws {
    let container = DIContainer()
    let cleaned = EventLog<String>()
    container.register { SOSession(id: 1) }.as(SOSessionService.self)
      .lifetime(.perContainer(.single))
      .onClean { _ in cleaned.append("session") }
    container.register(SOOtherSession.init).as(SOSessionService.self)
      .lifetime(.perContainer(.weak))
      .onClean { _ in cleaned.append("other") }
    let other: SOOtherSession = try container.tryResolve()  // made first
    let session: SOSession = try container.tryResolve()  // made second
    container.clean(SOSessionService.self)
    #expect(cleaned.all == ["session", "other"], "newest first")
    #expect(try container.tryResolve() as SOSession !== session)
    withExtendedLifetime(other) {}
  }

  @Test func cleaningATypeDropsEveryMultitonKeyAndItsCustomScopeInstanceOnly() throws {
    let container = DIContainer()
    let cleaned = EventLog<String>()
    let scope = DIScope(name: "SOCleanServiceScope", storage: DICacheStorage())
    container.register { SOSession(id: arg($0)) }.lifetime(.multiton)
      .onClean { session in cleaned.append("multiton \(session.id)") }
    container.register(SOOtherSession.init).lifetime(.custom(scope))
      .onClean { _ in cleaned.append("custom other") }
    container.register(SOKeep.init).lifetime(.custom(scope))
      .onClean { _ in cleaned.append("custom keep") }
    let one: SOSession = try container.tryResolve(arguments: [1])
    let two: SOSession = try container.tryResolve(arguments: [2])
    let other: SOOtherSession = try container.tryResolve()
    let keep: SOKeep = try container.tryResolve()
    container.clean(SOSession.self)
    #expect(cleaned.all == ["multiton 2", "multiton 1"])
    #expect(try container.tryResolve(arguments: [1]) as SOSession !== one)
    container.clean(SOOtherSession.self)
    #expect(cleaned.all.suffix(1) == ["custom other"])
    #expect(try container.tryResolve() as SOOtherSession !== other)
    #expect(try container.tryResolve() as SOKeep === keep, "the scope's other instance stays")
    withExtendedLifetime(two) {}
  }

  @Test func cleaningATypeLeavesDependentsAndAParentsInstancesAlone() throws {
    let parent = DIContainer()
    let cleaned = Counter()
    parent.register { SOSession(id: 1) }.lifetime(.perContainer(.single))
      .onClean { _ in cleaned.next() }
    parent.register(SOSessionHolder.init).lifetime(.perContainer(.single))
    let child = DIContainer(parent: parent)
    let holder: SOSessionHolder = try parent.tryResolve()
    child.clean(SOSession.self)
    #expect(cleaned.value == 0, "a child never drops its parent's instances")
    #expect(try parent.tryResolve() as SOSession === holder.session)
    parent.clean(SOSession.self)
    #expect(cleaned.value == 1)
    #expect(try parent.tryResolve() as SOSessionHolder === holder, "the dependent stays")
    #expect(try parent.tryResolve() as SOSession !== holder.session)
  }

  @Test func cleaningAServiceDropsInstancesRegisteredUnderATag() throws {
    let container = DIContainer()
    let cleaned = Counter()
    container.register { SOSession(id: 1) }.as(SOSessionService.self, tag: SOCleanTag.self)
      .lifetime(.perContainer(.single))
      .onClean { _ in cleaned.next() }
    let session: SOSession = try container.tryResolve()
    container.clean(SOSessionService.self)
    #expect(cleaned.value == 1, "a component answers its service under any tag")
    #expect(try container.tryResolve() as SOSession !== session)
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func anAsyncHookOfAnInstanceDroppedByCleaningATypeRunsAndShutdownAwaitsIt() async throws {
    let container = DIContainer()
    let cleaned = Counter()
    container.register { SOSession(id: 1) }.lifetime(.perContainer(.single))
      .onClean { _ in
        await Task.yield()
        cleaned.next()
      }
    let _: SOSession = try await container.resolveAsync()
    container.clean(SOSession.self)
    await container.shutdown()
    #expect(cleaned.value == 1, "run once, awaited by shutdown()")
  }

  @Test func cleaningATypeNothingAnswersDropsNothing() throws {
    let container = DIContainer()
    let cleaned = Counter()
    container.register(SOKeep.init).lifetime(.perContainer(.single)).onClean { _ in cleaned.next() }
    let keep: SOKeep = try container.tryResolve()
    container.clean(SOSession.self)
    #expect(cleaned.value == 0)
    #expect(try container.tryResolve() as SOKeep === keep)
  }

  @Test func cleaningATypeTwiceRunsItsHookOnce() throws {
    let container = DIContainer()
    let cleaned = Counter()
    container.register { SOSession(id: 1) }.lifetime(.perContainer(.single))
      .onClean { _ in cleaned.next() }
    let _: SOSession = try container.tryResolve()
    container.clean(SOSession.self)
    container.clean(SOSession.self)
    container.clean()
    #expect(cleaned.value == 1)
  }
}
