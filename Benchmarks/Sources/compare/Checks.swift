import DIContainer
import DIFrameworks
import Swinject

/// Checks that each implementation makes the graph the scenario describes, so the timings
/// compare the same work. Returns the problems found.
func checkScenarios() -> [String] {
  var problems: [String] = []
  func expect(_ condition: Bool, _ message: String) {
    if !condition { problems.append(message) }
  }

  let container = DIContainer()
  container.register(D.init).lifetime(.perContainer(.single))
  expect(
    (container.resolve() as D) === (container.resolve() as D), "S1 DIContainer: not a singleton")
  let swinject = Container()
  swinject.register(D.self) { _ in D() }.inObjectScope(.container)
  expect(swinject.resolve(D.self)! === swinject.resolve(D.self)!, "S1 Swinject: not a singleton")
  let shared = LazyShared { D() }
  expect(shared.value === shared.value, "S1 hand-written: not a singleton")

  for sharedD in [false, true] {
    let name = sharedD ? "S4" : "S3"
    let container = Scenarios.makeGraphContainer(sharedD: sharedD)
    let a: A = container.resolve()
    let other: A = container.resolve()
    expect((a.b.d === a.c.d) == sharedD, "\(name) DIContainer: wrong sharing of D in a graph")
    expect(a.b.d !== other.b.d, "\(name) DIContainer: D shared across resolves")

    let swinject = Container()
    Scenarios.registerGraph(in: swinject, sharedD: sharedD)
    let sa = swinject.resolve(A.self)!
    let sother = swinject.resolve(A.self)!
    expect((sa.b.d === sa.c.d) == sharedD, "\(name) Swinject: wrong sharing of D in a graph")
    expect(sa.b.d !== sother.b.d, "\(name) Swinject: D shared across resolves")
  }

  let fanContainer = DIContainer()
  fanContainer.register(P0.init)
  fanContainer.register(P1.init)
  fanContainer.register(P2.init)
  fanContainer.register(P3.init)
  fanContainer.register(P4.init)
  fanContainer.register(P5.init)
  fanContainer.register(P6.init)
  fanContainer.register(P7.init)
  fanContainer.register(P8.init)
  fanContainer.register(P9.init)
  fanContainer.register(Fan.init)
  let fans: (Fan, Fan) = (fanContainer.resolve(), fanContainer.resolve())
  expect(fans.0.p9 !== fans.1.p9, "S5 DIContainer: dependencies not transient")
  // S8: the scoped objects are shared within a request, never across requests.
  let requests = Scenarios.makeRequestContainer()
  let scope = requests.makeScope()
  let handler: RequestHandler = scope.resolve()
  let sameRequest: RequestHandler = scope.resolve()
  scope.close()
  let nextRequest: RequestHandler = requests.makeScope().resolve()
  expect(
    handler.log === handler.service.repository.log
      && handler.service.context === handler.service.repository.context
      && sameRequest.log === handler.log && handler.service !== sameRequest.service,
    "S8 DIContainer: wrong sharing within a request")
  expect(nextRequest.log !== handler.log, "S8 DIContainer: shared across requests")
  let parent = Scenarios.makeSwinjectRequestParent()
  let swinjectHandler = Scenarios.makeSwinjectRequest(parent: parent).resolve(
    RequestHandler.self)!
  let swinjectNext = Scenarios.makeSwinjectRequest(parent: parent).resolve(RequestHandler.self)!
  expect(
    swinjectHandler.log === swinjectHandler.service.repository.log
      && swinjectHandler.service.context === swinjectHandler.service.repository.context,
    "S8 Swinject: wrong sharing within a request")
  expect(swinjectNext.log !== swinjectHandler.log, "S8 Swinject: shared across requests")
  return problems + checkModularScenarios() + runBlocking { await checkAsyncScenarios() }
}

/// The checks of the framework scenarios, S9 and S10.
private func checkModularScenarios() -> [String] {
  var problems: [String] = []
  func expect(_ condition: Bool, _ message: String) {
    if !condition { problems.append(message) }
  }

  let startUp = Scenarios.startUp()
  let components = startUp.makeGraph().components.count
  expect(components >= StartUp.count, "S9 DIContainer: \(components) components, not 10,000")
  typealias Framework42 = StartUpNumber<Digit4, Digit2>
  let head = startUp.resolve() as StartUpComponent<Framework42, StartUpNumber<Digit7, Digit0>>
  let second = startUp.resolve() as StartUpComponent<Framework42, StartUpNumber<Digit7, Digit1>>
  let headAgain = startUp.resolve() as StartUpComponent<Framework42, StartUpNumber<Digit7, Digit0>>
  expect(
    head.next === second && headAgain === head,
    "S9 DIContainer: a component is not its framework's single instance")

  let modular = Scenarios.makeModularContainer()
  let handler: FeatureHandler = modular.resolve(from: ModularFeatureFramework.self)
  let again: FeatureHandler = modular.resolve(from: ModularFeatureFramework.self)
  expect(
    handler.store is FeatureStore && handler.store === again.store && handler !== again,
    "S10 DIContainer: the handler does not get its own framework's single store")
  let core: any ModularStore = modular.resolve(from: ModularCoreFramework.self)
  expect(core is CoreStore, "S10 DIContainer: the imported framework's store is not its own")
  let swinject = Scenarios.makeSwinjectModularContainer()
  expect(
    swinject.resolve(FeatureHandler.self)!.store === swinject.resolve(FeatureHandler.self)!.store,
    "S10 Swinject: the store is not shared")
  return problems
}

/// The checks of the async scenarios, S11, S12 and S13.
private func checkAsyncScenarios() async -> [String] {
  var problems: [String] = []
  func expect(_ condition: Bool, _ message: String) {
    if !condition { problems.append(message) }
  }

  let container = Scenarios.makeGraphContainer(sharedD: false)
  let a: A = try! await container.resolveAsync()
  let other: A = try! await container.resolveAsync()
  expect(a.b.d !== a.c.d && a.b.d !== other.b.d, "S11 DIContainer: D shared")
  container.register { () async -> Pool in await Pool() }.lifetime(.perContainer(.single))
  let planned: A = try! await container.resolveAsync()
  expect(planned.b.d !== planned.c.d, "S13 DIContainer: D shared")

  let tasks = Scenarios.firstResolvers
  let pools = Scenarios.makePoolContainer()
  let made = await instances(tasks) { try! await pools.resolveAsync() as Pool }
  expect(made == 1, "S12 DIContainer: \(made) instances for \(tasks) tasks, not 1")
  let shared = AsyncLazyShared { await Pool() }
  let madeByHand = await instances(tasks) { await shared.value }
  expect(madeByHand == 1, "S12 hand-written: \(madeByHand) instances for \(tasks) tasks, not 1")
  return problems
}

/// How many distinct instances `tasks` tasks get from `first`, all asking at once (all are
/// kept until counted, so no address is reused).
private func instances(_ tasks: Int, _ first: @escaping @Sendable () async -> Pool) async -> Int {
  let pools = await withTaskGroup(of: Pool.self) { group in
    for _ in 0..<tasks { group.addTask { await first() } }
    return await group.reduce(into: []) { $0.append($1) }
  }
  return Set(pools.map(ObjectIdentifier.init)).count
}
