import DIContainer
import DIFrameworks
import DITestSupport
import Testing

// SPEC.md, "Overrides, defaults and inspection": `print(container)` is one line per
// registration (services, tags, lifetime, framework/part, file:line); `description` never
// resolves anything; `debugDescription` adds each component's parameters.

protocol SODescribedPet: Sendable {}
enum SODescribedIndoor {}
final class SODescribedCat: SODescribedPet, Sendable {}
final class SODescribedBowl: Sendable {}
final class SODescribedFeeder: Sendable {
  let cat: SODescribedCat
  let bowl: SODescribedBowl
  init(cat: SODescribedCat, bowl: SODescribedBowl) {
    self.cat = cat
    self.bowl = bowl
  }
}
final class SODescribedEager: Sendable {}

enum SODescribedFramework: DIFramework {
  static func load(container: DIContainer) {
    container.register(SODescribedBowl.init).lifetime(.perFramework(.single))
  }
}

@Suite struct SOContainerDescriptionSpecTests {
  @Test func descriptionHasOneLinePerRegistrationWithItsServicesTagLifetimeAndPlace() throws {
    let container = DIContainer()
    let catLine = #line + 1
    container.register(SODescribedCat.init).as(SODescribedPet.self, tag: SODescribedIndoor.self)
      .lifetime(.perContainer(.single))
    let feederLine = #line + 1
    container.register(SODescribedFeeder.init)
    container.append(framework: SODescribedFramework.self)
    let lines = container.description.split(separator: "\n").map(String.init)
    let cat = try #require(lines.first { $0.contains("SODescribedCat") && !$0.contains("Feeder") })
    #expect(cat.contains("SODescribedPet"))
    #expect(cat.contains("SODescribedIndoor"), "the tag")
    #expect(cat.contains("perContainer"))
    #expect(cat.contains("ContainerDescriptionSpecTests.swift:\(catLine)"), "\(cat)")
    let feeder = try #require(lines.first { $0.contains("SODescribedFeeder") })
    #expect(feeder.contains("prototype"))
    #expect(feeder.contains("ContainerDescriptionSpecTests.swift:\(feederLine)"), "\(feeder)")
    let bowl = try #require(lines.first { $0.contains("SODescribedBowl") })
    #expect(bowl.contains("SODescribedFramework"), "the framework that registered it")
    #expect(bowl.contains("perFramework"))
    #expect(
      lines.filter { $0.contains("SODescribed") && $0.contains(".swift:") }.count == 3,
      "one line per registration:\n\(container.description)")
  }

  @Test func descriptionAndDebugDescriptionNeverRunAFactory() async throws {
    let container = DIContainer()
    let made = Counter()
    container.register { () -> SODescribedCat in
      made.next()
      return SODescribedCat()
    }
    .lifetime(.perContainer(.single))
    container.register { () async -> SODescribedEager in
      made.next()
      return SODescribedEager()
    }
    .lifetime(.single)
    container.register { () -> SODescribedBowl in
      made.next()
      return SODescribedBowl()
    }
    .lifetime(.perApplication(.single))
    container.register(SODescribedFeeder.init).lifetime(.multiton)
    _ = container.description
    _ = container.debugDescription
    _ = "\(container)"
    _ = String(reflecting: container)
    #expect(made.value == 0)
    let _: SODescribedCat = try await container.resolveAsync()
    #expect(made.value == 1, "the factory counts its runs")
  }

  @Test func debugDescriptionAddsEachComponentsParameters() {
    let container = DIContainer()
    container.register(SODescribedCat.init)
    container.register(SODescribedFeeder.init)
    let plain = container.description
    let debug = container.debugDescription
    #expect(!plain.contains("SODescribedBowl"), "no Bowl is registered")
    #expect(debug.contains("SODescribedBowl"), "the Feeder's second parameter:\n\(debug)")
    #expect(debug.count > plain.count)
    for line in plain.split(separator: "\n") {
      #expect(debug.contains(line), "debugDescription keeps every line of description")
    }
  }

  @Test func descriptionListsOnlyThisContainersRegistrations() {
    let parent = DIContainer()
    parent.register(SODescribedCat.init)
    let child = DIContainer(parent: parent)
    child.register(SODescribedBowl.init)
    #expect(child.description.contains("SODescribedBowl"))
    #expect(!parent.description.contains("SODescribedBowl"), "a parent never sees a child's")
  }

  @Test func descriptionNamesANonDefaultDefaultLifetimeAndWorksAfterShutdown() async {
    let container = DIContainer(defaultLifetime: .perContainer(.single))
    container.register(SODescribedCat.init)
    #expect(container.description.contains("SODescribedCat"))
    await container.shutdown()
    let text = container.description  // safe at any time: it resolves nothing
    #expect(text.contains("perContainer"), "\(text)")
  }
}
