// A container remembers the last module it found loaded (`lastLoadedModule`), so a request
// on behalf of the same framework as the last one checks with one load. These tests hold
// that the remembered module answers only for itself: another framework, a part of the
// same type, a module appended later, and a child container's view of its parent.

import DIParts
import Foundation
import Testing

@testable import DIContainer
@testable import DIFrameworks

private final class LMThing {}
private enum LMLoaded: DIFramework {
  static func load(container: DIContainer) { container.register(LMThing.init) }
}
private enum LMLater: DIFramework {
  static func load(container: DIContainer) {}
}
private enum LMBoth: DIFramework, DIPart {
  static func load(container: DIContainer) {}
}

@Suite struct LoadedModuleCacheTests {
  private func warnings(_ body: () -> Void) -> [String] {
    DISetting.Log.capturing(body).filter { $0.contains("was not appended") }
  }

  @Test func theRememberedFrameworkAnswersOnlyForItself() {
    let container = DIContainer().append(framework: LMLoaded.self)
    let loaded = DIModuleID(.framework, type: LMLoaded.self)
    #expect(container.hasLoaded(loaded))
    #expect(container.hasLoaded(loaded))
    #expect(container.lastLoadedModule.load(ordering: .relaxed) == loaded.bits)
    #expect(!container.hasLoaded(DIModuleID(.framework, type: LMLater.self)))
    #expect(container.lastLoadedModule.load(ordering: .relaxed) == loaded.bits)
    // The same type as a part is another module.
    #expect(!container.hasLoaded(DIModuleID(.part, type: LMLoaded.self)))
    container.append(framework: LMLater.self)
    #expect(container.hasLoaded(DIModuleID(.framework, type: LMLater.self)))
    #expect(container.hasLoaded(loaded))
  }

  @Test func aPartAndAFrameworkOfOneTypeAreTold() {
    let container = DIContainer().append(part: LMBoth.self)
    #expect(container.hasLoaded(DIModuleID(.part, type: LMBoth.self)))
    #expect(!container.hasLoaded(DIModuleID(.framework, type: LMBoth.self)))
    container.append(framework: LMBoth.self)
    #expect(container.hasLoaded(DIModuleID(.framework, type: LMBoth.self)))
    #expect(container.hasLoaded(DIModuleID(.part, type: LMBoth.self)))
  }

  @Test func resolvingOnBehalfOfAFrameworkWarnsOnlyWhenItIsNotAppended() {
    let container = DIContainer().append(framework: LMLoaded.self)
    #expect(warnings { _ = container.resolve(from: LMLoaded.self) as LMThing }.isEmpty)
    #expect(warnings { _ = container.resolve(from: LMLoaded.self) as LMThing }.isEmpty)
    #expect(warnings { _ = container.resolve(from: LMLater.self) as LMThing }.count == 1)
    #expect(warnings { _ = container.resolve(from: LMLater.self) as LMThing }.count == 1)
    #expect(warnings { _ = container.resolve(from: LMLoaded.self) as LMThing }.isEmpty)
  }

  @Test func aChildSeesItsParentsModules() {
    let parent = DIContainer().append(framework: LMLoaded.self)
    let child = DIContainer(parent: parent)
    #expect(child.hasLoaded(DIModuleID(.framework, type: LMLoaded.self)))
    #expect(!child.hasLoaded(DIModuleID(.framework, type: LMLater.self)))
    #expect(!parent.hasLoaded(DIModuleID(.framework, type: LMLater.self)))
  }
}
