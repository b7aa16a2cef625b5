import DIContainer
import DITestSupport
import Foundation
import Testing

/// A compiled registration keeps its draft in its component only: builder
/// edits after a resolve (after a snapshot compiled the registration) start from the
/// component's draft, so they must keep its cells (cached instances), hooks, services and
/// flags, on any thread, in child containers and in modules.
@Suite struct RegistrationDraftTests {
  // MARK: - Cells survive edits

  @Test func aWeakInstanceStillHeldIsKeptAcrossAnEditAfterAResolve() {
    let container = DIContainer()
    let builder = container.register { RDRWidget() }.lifetime(.perContainer(.weak))
    let held: RDRWidget = container.resolve()
    builder.as(RDRGadget.self)
    let gadget: RDRGadget = container.resolve()
    let again: RDRWidget = container.resolve()
    #expect(gadget === held)
    #expect(again === held)
  }

  @Test func lifetimesChangedBackAndForthFindTheirInstancesAgain() {
    let container = DIContainer()
    let made = Counter()
    let scope = DIScope(name: "RDRSession")
    let builder = container.register { RDRWidget(made.next()) }
      .lifetime(.perContainer(.single))
    let single: RDRWidget = container.resolve()
    builder.lifetime(.prototype)
    let prototype: RDRWidget = container.resolve()
    #expect(prototype !== single)
    builder.lifetime(.objectGraph)
    let graph: RDRWidget = container.resolve()
    #expect(graph !== single)
    builder.lifetime(.custom(scope))
    let custom: RDRWidget = container.resolve()
    let customAgain: RDRWidget = container.resolve()
    #expect(customAgain === custom)
    builder.lifetime(.perContainer(.single))
    let singleAgain: RDRWidget = container.resolve()
    #expect(singleAgain === single)
    builder.lifetime(.custom(scope))
    let customBack: RDRWidget = container.resolve()
    #expect(customBack === custom)
    #expect(made.value == 4)
  }

  @Test func aMultitonsInstancesSurviveALifetimeRoundTrip() {
    let container = DIContainer()
    let builder = container.register { RDRKeyed(key: arg($0)) }.lifetime(.multiton)
    let one: RDRKeyed = container.resolve(arg: 1)
    let two: RDRKeyed = container.resolve(arg: 2)
    builder.lifetime(.prototype)
    let fresh: RDRKeyed = container.resolve(arg: 1)
    #expect(fresh !== one)
    builder.lifetime(.multiton).as(RDRKeyedService.self)
    let oneAgain: RDRKeyed = container.resolve(arg: 1)
    let twoAgain: RDRKeyedService = container.resolve(arg: 2)
    #expect(oneAgain === one)
    #expect(twoAgain === two)
  }

  @Test func aScopedInstanceSurvivesEditsWhileItsScopeIsOpen() throws {
    let container = DIContainer()
    let cleaned = Counter()
    let builder = container.register { RDRWidget() }.lifetime(.scoped)
      .onClean { _ in cleaned.next() }
    let scope = container.makeScope()
    let first: RDRWidget = scope.resolve()
    builder.as(RDRGadget.self)
    builder.lifetime(.prototype)
    let other: RDRWidget = scope.resolve()
    #expect(other !== first)
    builder.lifetime(.scoped)
    let again: RDRGadget = scope.resolve()
    #expect(again === first)
    scope.close()
    #expect(cleaned.value == 1)
  }

  // MARK: - Hooks, injections, flags

  @Test func everyHookRunsOnceAfterManyEditsThenCleanAndShutdown() async throws {
    let container = DIContainer()
    let cleaned = Counter()
    let builder = container.register { RDRWidget() }.lifetime(.perContainer(.single))
      .onClean { _ in cleaned.next() }
    let first: RDRWidget = try container.tryResolve()
    builder.as(RDRGadget.self).default().test().root()
    builder.postInit { $0.touched += 1 }
    let again: RDRGadget = try container.tryResolve()
    #expect(again === first)
    #expect(first.touched == 0, "postInit added later does not run on a kept instance")
    container.clean()
    #expect(cleaned.value == 1)
    let second: RDRWidget = try container.tryResolve()
    #expect(second !== first)
    #expect(second.touched == 1)
    builder.as(RDRGadget.self, tag: RDRWidget.self)
    await container.shutdown()
    #expect(cleaned.value == 2)
  }

  @Test func anOnCleanAddedAfterAResolveRunsForTheKeptInstance() {
    let container = DIContainer()
    let cleaned = LockedValue<[Int]>([])
    let builder = container.register { RDRWidget(7) }.lifetime(.perContainer(.single))
    let _: RDRWidget = container.resolve()
    builder.onClean { widget in cleaned.withLock { $0.append(widget.number) } }
    container.clean()
    #expect(cleaned.current == [7])
  }

  @Test func injectionsAddedAfterAResolveApplyToNewInstances() {
    let container = DIContainer()
    container.register { RDRPart(name: "wheel") }
    let builder = container.register { RDRWidget() }
    let before: RDRWidget = container.resolve()
    #expect(before.part == nil)
    builder.injection(\.part)
    let after: RDRWidget = container.resolve()
    #expect(after.part?.name == "wheel")
    builder.injection { (widget: RDRWidget, part: RDRPart) in widget.touched += part.name.count }
    let twice: RDRWidget = container.resolve()
    #expect(twice.touched == 5)
    #expect(twice.part?.name == "wheel")
  }

  @Test func defaultAndTestAddedAfterAResolveDecideTheCandidate() {
    let container = DIContainer()
    let first = container.register { RDRWidget(1) }.as(RDRGadget.self)
      .lifetime(.perContainer(.single))
    let second = container.register { RDRWidget(2) }.as(RDRGadget.self)
      .lifetime(.perContainer(.single))
    let none: RDRGadget? = container.resolve()
    #expect(none == nil)
    second.default()
    let chosen: RDRGadget? = container.resolve()
    #expect(chosen?.number == 2)
    first.test()
    let tested: RDRGadget? = container.resolve()
    #expect(tested?.number == 1)
    let all: [RDRGadget] = many(container.resolve())
    #expect(all.map(\.number) == [1, 2], "edits keep the registration order")
  }

  @Test func manyEditsBetweenResolvesLoseNothing() {
    let container = DIContainer()
    let made = Counter()
    let cats = container.register { RDRWidget(made.next()) }.lifetime(.perContainer(.single))
    let parts = container.register { RDRPart(name: "p") }.lifetime(.perContainer(.single))
    let widget: RDRWidget = container.resolve()
    let part: RDRPart = container.resolve()
    for round in 0..<200 {
      if round.isMultiple(of: 2) {
        cats.as(RDRGadget.self)
      } else {
        parts.as(RDRPartService.self)
      }
      if round.isMultiple(of: 7) {
        let gadget: RDRGadget = container.resolve()
        #expect(gadget === widget)
      }
      if round.isMultiple(of: 11) {
        let again: RDRPart = container.resolve()
        #expect(again === part)
      }
    }
    let service: RDRPartService = container.resolve()
    #expect(service === part)
    #expect(made.value == 1)
  }

  @Test func theGraphValidatesAfterEditsAfterAResolve() throws {
    let container = DIContainer()
    container.register { RDRPart(name: "p") }.lifetime(.perContainer(.single))
    let builder = container.register { RDRWidget() }.root()
    let _: RDRWidget = container.resolve()
    builder.injection(\.part).as(RDRGadget.self)
    try container.makeGraph().validate()
    let widget: RDRGadget = container.resolve()
    #expect((widget as? RDRWidget)?.part != nil)
    builder.injection { (_: RDRWidget, _: RDRMissing) in }
    #expect(throws: DIGraphValidationError.self) { try container.makeGraph().validate() }
  }

  // MARK: - Child containers and modules

  @Test func aChildSeesItsParentsEditsAndSharesTheParentsInstance() {
    let parent = DIContainer()
    let builder = parent.register { RDRWidget() }.lifetime(.perContainer(.single))
    let child = DIContainer(parent: parent)
    let fromChild: RDRWidget = child.resolve()
    let fromParent: RDRWidget = parent.resolve()
    #expect(fromChild === fromParent)
    builder.as(RDRGadget.self)
    let gadget: RDRGadget = child.resolve()
    #expect(gadget === fromParent)
    builder.lifetime(.prototype)
    let made: RDRWidget = child.resolve()
    #expect(made !== fromParent)
    builder.lifetime(.perContainer(.single))
    let back: RDRWidget = child.resolve()
    #expect(back === fromParent)
  }

  @Test func aModuleThatResolvesMidwayStillRecordsAndAttributesItsRegistrations() throws {
    let container = DIContainer()
    let shop = DIModuleID(.framework, type: RDRShopFramework.self)
    let storage = DIModuleID(.part, type: RDRStoragePart.self)
    container.register { RDRPart(name: "outside") }.as(RDRPartService.self)
      .lifetime(.perContainer(.single))
    container.load(shop) {
      let early = container.register { RDRWidget(1) }.lifetime(.perFramework(.single))
      let first: RDRWidget = container.resolve()
      early.as(RDRGadget.self)
      container.load(storage) {
        container.register { RDRPart(name: "stored") }.as(RDRPartService.self)
          .lifetime(.perPart(.single))
        let _: RDRGadget = container.resolve()
      }
      let again: RDRGadget = container.resolve()
      #expect(again === first)
    }
    let fromShop = try container.resolve(RDRPartService.self, from: shop, arguments: nil)
    #expect((fromShop as? RDRPart)?.name == "stored")
    let gadget: RDRGadget = container.resolve()
    container.clean(module: shop)
    let fresh: RDRGadget = container.resolve()
    #expect(fresh !== gadget)
    let part = try container.resolve(RDRPartService.self, from: shop, arguments: nil)
    container.clean(module: storage)
    let freshPart = try container.resolve(RDRPartService.self, from: shop, arguments: nil)
    #expect(freshPart !== part)
  }

  // MARK: - Threads

  /// Threads resolve while another edits the registration over and over: every resolve
  /// gets the one instance, which is made once.
  @Test func editsRacingWithResolvesNeverMakeASecondInstance() async throws {
    let container = DIContainer()
    let made = Counter()
    let builder = container.register { RDRWidget(made.next()) }
      .lifetime(.perContainer(.single))
    let first: RDRWidget = try container.tryResolve()
    let rounds = TestEnvironment.rounds(400)
    let wrong = Counter()
    let finished = await runThreads(3, timeout: TestEnvironment.limit(60)) { index in
      for round in 0..<rounds {
        if index == 0 {
          if round.isMultiple(of: 2) {
            builder.as(RDRGadget.self)
          } else {
            builder.default()
          }
        } else {
          let widget: RDRWidget = container.resolve()
          if widget !== first { wrong.next() }
        }
      }
    }
    #expect(finished, "edits and resolves deadlocked")
    #expect(wrong.value == 0)
    #expect(made.value == 1)
  }

  /// Threads edit several registrations and resolve them at once, starting before any
  /// snapshot: each registration still makes one instance, and each hook runs once.
  @Test func interleavedBuildersOnThreadsKeepOneInstanceEach() async {
    let container = DIContainer()
    let made = Counter()
    let cleaned = Counter()
    let builders = (0..<4).map { number in
      container.register { RDRWidget(number + 100 * made.next()) }
        .lifetime(.perContainer(.single)).as(RDRGadget.self, tag: RDRTag.self)
        .onClean { _ in cleaned.next() }
    }
    _ = builders
    let rounds = TestEnvironment.rounds(300)
    let finished = await runThreads(4, timeout: TestEnvironment.limit(60)) { index in
      for round in 0..<rounds {
        if round.isMultiple(of: 3) {
          builders[(index + round) % 4].as(RDRGadget.self, tag: RDRWidget.self)
        }
        let all: [RDRGadget] = many(by(tag: RDRTag.self, on: container.resolve()))
        _ = all
      }
    }
    #expect(finished, "interleaved edits deadlocked")
    #expect(made.value == 4)
    await container.shutdown()
    #expect(cleaned.value == 4)
  }
}

// MARK: - Fixtures

private protocol RDRGadget: AnyObject {
  var number: Int { get }
}

private protocol RDRKeyedService: AnyObject {}

private protocol RDRPartService: AnyObject {}

private enum RDRTag {}

private final class RDRPart: RDRPartService, @unchecked Sendable {
  let name: String
  init(name: String) { self.name = name }
}

private final class RDRMissing {}

private final class RDRWidget: RDRGadget, @unchecked Sendable {
  let number: Int
  var touched = 0
  var part: RDRPart?
  init(_ number: Int = 0) { self.number = number }
}

private final class RDRKeyed: RDRKeyedService {
  let key: Int
  init(key: Int) { self.key = key }
}

private final class RDRShopFramework {}
private final class RDRStoragePart {}
