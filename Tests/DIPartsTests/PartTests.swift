import DIContainer
import DIParts
import Testing

@Suite struct PartTests {
  @Test func appendingAPartTwiceLoadsItOnce() {
    let container = DIContainer()
    container.append(part: PlantPart.self)
    container.append(part: PlantPart.self)
    let plants: [any Plant] = many(container.resolve())
    #expect(plants.count == 1)
  }

  @Test func appendReturnsTheContainerForChaining() {
    let container = DIContainer()
    let chained = container.append(part: PlantPart.self).append(part: GardenPart.self)
    #expect(chained === container)
    let garden: Garden = container.resolve()
    #expect(garden.plant is Rose)
  }

  @Test func appendingInsideAPartsLoadStillLoadsOnce() {
    let container = DIContainer().append(part: GardenPart.self).append(part: PlantPart.self)
    let plants: [any Plant] = many(container.resolve())
    #expect(plants.count == 1)
  }

  @Test func perPartSingleIsOneInstancePerPart() {
    let container = DIContainer().append(part: PlantPart.self).append(part: GardenPart.self)
    let first: Garden = container.resolve()
    let second: Garden = container.resolve()
    #expect(first === second)
    let rose1: Rose = container.resolve()
    let rose2: Rose = container.resolve()
    #expect(rose1 === rose2)
  }

  @Test func cleanPartDropsThatPartsInstancesAndLeavesAnothers() {
    let container = DIContainer().append(part: PlantPart.self).append(part: GardenPart.self)
    let rose1: Rose = container.resolve()
    let garden1: Garden = container.resolve()
    container.clean(part: GardenPart.self)
    let rose2: Rose = container.resolve()
    let garden2: Garden = container.resolve()
    #expect(garden1 !== garden2)
    #expect(rose1 === rose2)
    #expect(garden2.plant as? Rose === rose1)
  }

  @Test func cleanPartLeavesOtherLifetimes() {
    let container = DIContainer().append(part: ShedPart.self)
    let shed1: Shed = container.resolve()
    container.clean(part: ShedPart.self)
    let shed2: Shed = container.resolve()
    #expect(shed1 === shed2)
    container.clean()
    let shed3: Shed = container.resolve()
    #expect(shed1 !== shed3)
  }

  @Test func perPartWeakIsReleasedWhenNobodyHoldsIt() {
    let container = DIContainer().append(part: ShedPart.self)
    weak var weakTool: Tool?
    do {
      let tool: Tool = container.resolve()
      let again: Tool = container.resolve()
      #expect(tool === again)
      weakTool = tool
    }
    #expect(weakTool == nil)
  }

  @Test func cleanPartReleasesTheInstance() {
    let container = DIContainer().append(part: PlantPart.self)
    weak var weakRose: Rose?
    do {
      let rose: Rose = container.resolve()
      weakRose = rose
    }
    #expect(weakRose != nil)
    container.clean(part: PlantPart.self)
    #expect(weakRose == nil)
  }

  @Test func errorsNameThePartOfEachCandidate() throws {
    let container = DIContainer().append(part: PlantPart.self).append(part: WeedPart.self)
    let error = try #require(throws: DIError.self) {
      let _: any Plant = try container.tryResolve()
    }
    #expect(error.description.contains("Plant is ambiguous: Rose (PlantPart, DIPartsTests/"))
    #expect(error.description.contains("Dandelion (WeedPart, DIPartsTests/"))
  }
}

protocol Plant: AnyObject, Sendable {}
final class Rose: Plant {}
final class Dandelion: Plant {}
final class Garden: Sendable {
  let plant: any Plant
  init(plant: any Plant) { self.plant = plant }
}
final class Shed: Sendable {}
final class Tool: Sendable {}

final class PlantPart: DIPart {
  static func load(container: DIContainer) {
    container.register(Rose.init).as((any Plant).self).lifetime(.perPart(.single))
  }
}

final class GardenPart: DIPart {
  static func load(container: DIContainer) {
    container.append(part: PlantPart.self)
    container.register(Garden.init).lifetime(.perPart(.single))
  }
}

final class WeedPart: DIPart {
  static func load(container: DIContainer) {
    container.register(Dandelion.init).as((any Plant).self)
  }
}

final class ShedPart: DIPart {
  static func load(container: DIContainer) {
    container.register(Shed.init).lifetime(.perContainer(.single))
    container.register(Tool.init).lifetime(.perPart(.weak))
  }
}
