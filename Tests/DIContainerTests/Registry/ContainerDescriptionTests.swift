import DIContainer
import DITestSupport
import Testing

private protocol CDAnimal: AnyObject {}
private protocol CDPet: AnyObject {}
private final class CDCat: CDAnimal, CDPet {}
private enum CDIndoor {}
private final class CDEngine {}
private final class CDWheel {}
private final class CDLogger {}
private final class CDCar {
  init(engine: CDEngine, wheels: [CDWheel], logger: CDLogger?, plate: String) {}
}
private final class CDPool {
  init() async {}
}

@Suite struct ContainerDescriptionTests {
  @Test func describingRunsNoFactory() async throws {
    let made = Counter()
    let container = DIContainer()
    container.register(file: "App/Wiring.swift", line: 1) { () -> CDEngine in
      made.next()
      return CDEngine()
    }.lifetime(.perContainer(.single))
    container.register(file: "App/Wiring.swift", line: 2) { () -> CDCat in
      made.next()
      return CDCat()
    }.as(CDAnimal.self).lifetime(.single)
    container.register(file: "App/Wiring.swift", line: 3) { (name: String) -> CDWheel in
      made.next()
      _ = name
      return CDWheel()
    }.lifetime(.multiton)
    container.register(file: "App/Wiring.swift", line: 4) { () async -> CDPool in
      made.next()
      return await CDPool()
    }.lifetime(.perContainer(.single))
    container.register(file: "App/Wiring.swift", line: 5) { (engine: CDEngine) -> CDCar in
      made.next()
      return CDCar(engine: engine, wheels: [], logger: nil, plate: "")
    }
    let text = container.description
    let debugText = container.debugDescription
    _ = "\(container)"
    #expect(made.value == 0, "no factory ran")
    #expect(text.contains("CDEngine"))
    #expect(debugText.contains("CDCar"))
    // The cached instances were not made either: the first request makes them.
    let _: CDCar = try container.tryResolve()
    #expect(made.value == 2)
    let _: CDPool = try await container.resolveAsync()
    #expect(made.value == 3)
  }

  @Test func oneLinePerRegistrationWithServicesTagsLifetimeAndLocation() {
    let container = DIContainer()
    container.register(file: "App/Wiring.swift", line: 12, CDCat.init)
      .as(CDAnimal.self)
      .as(CDPet.self, tag: CDIndoor.self)
      .lifetime(.perContainer(.single))
      .default()
    container.register(file: "App/Wiring.swift", line: 13, CDEngine.init)
    #expect(
      container.description == """
        DIContainer, 2 registrations:
          CDCat: services CDCat, CDAnimal, CDPet tagged CDIndoor; lifetime perContainer(.single); \
        default; App/Wiring.swift:12
          CDEngine: services CDEngine; lifetime prototype; App/Wiring.swift:13
        """)
  }

  @Test func linesFollowRegistrationOrderAndShowLaterEdits() {
    let container = DIContainer()
    let wheel = container.register(file: "W.swift", line: 1, CDWheel.init)
    container.register(file: "W.swift", line: 2, CDEngine.init)
    container.register(file: "W.swift", line: 3, CDLogger.init)
    let before = container.description
    wheel.lifetime(.objectGraph)
    let lines = container.description.split(separator: "\n").dropFirst()
    #expect(
      lines.map { $0.split(separator: ":").first ?? "" } == [
        "  CDWheel", "  CDEngine", "  CDLogger",
      ])
    #expect(lines.first?.contains("lifetime objectGraph") == true)
    #expect(before.contains("lifetime prototype; W.swift:1"))
    #expect(container.description == container.description, "stable between calls")
  }

  @Test func marksWhatChangesChoiceAndHowInstancesAreMade() {
    let container = DIContainer()
    container.register(file: "T.swift", line: 1, CDCat.self)
    container.register(file: "T.swift", line: 2) { () async -> CDPool in await CDPool() }
      .test().root()
    let lines = container.description.split(separator: "\n")
    #expect(lines[1] == "  CDCat: services CDCat; lifetime prototype; no initializer; T.swift:1")
    #expect(
      lines[2] == "  CDPool: services CDPool; lifetime prototype; async; test; root; T.swift:2")
  }

  @Test func theHeaderNamesAChildAndADefaultLifetime() {
    let parent = DIContainer(defaultLifetime: .perContainer(.weak))
    parent.register(file: "P.swift", line: 1, CDEngine.init)
    let child = DIContainer(parent: parent)
    #expect(
      parent.description == """
        DIContainer, default lifetime perContainer(.weak), 1 registration:
          CDEngine: services CDEngine; lifetime perContainer(.weak); P.swift:1
        """)
    #expect(
      child.description
        == "DIContainer (child), default lifetime perContainer(.weak), no registrations",
      "a child lists its own registrations only")
    #expect(DIContainer().description == "DIContainer, no registrations")
  }

  @Test func aShutDownContainerSaysSo() async {
    let container = DIContainer()
    container.register(CDEngine.init)
    await container.shutdown()
    #expect(container.description == "DIContainer, shut down")
  }

  @Test func debugDescriptionListsEachComponentsParameters() {
    let container = DIContainer()
    container.register(file: "C.swift", line: 1, CDEngine.init)
    container.register(file: "C.swift", line: 2, CDWheel.init)
    container.register(file: "C.swift", line: 3, CDWheel.init)
    container.register(file: "C.swift", line: 4) {
      CDCar(engine: $0, wheels: many($1), logger: $2, plate: arg($3))
    }
    let lines = container.debugDescription.split(separator: "\n").map(String.init)
    #expect(
      Array(lines.suffix(5)) == [
        "  CDCar: services CDCar; lifetime prototype; C.swift:4",
        "    parameter 1 of the initializer: CDEngine -> CDEngine (C.swift:1)",
        "    parameter 2 of the initializer: CDWheel, many -> 2 components",
        "    parameter 3 of the initializer: CDLogger, optional -> no candidate",
        "    parameter 4 of the initializer: String, runtime argument",
      ])
    #expect(!container.description.contains("parameter"))
  }

  @Test func debugDescriptionNamesAnAmbiguousParameter() {
    let container = DIContainer()
    container.register(file: "A.swift", line: 1, CDCat.init).as(CDPet.self)
    container.register(file: "A.swift", line: 2) { CDCat() }.as(CDPet.self)
    container.register(file: "A.swift", line: 3) { (pet: CDPet) in CDLogger() }
    #expect(
      container.debugDescription.contains(
        "parameter 1 of the initializer: CDPet -> ambiguous among 2 candidates"))
  }
}
