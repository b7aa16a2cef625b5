import DIContainer
import DIFrameworks
import DIParts
import Foundation
import Testing

/// The instances whose `onClean` ran, in order (hooks registered in a static `load` can
/// only reach global state; each test looks for its own instances). Kept alive, so no
/// other test's instance reuses their addresses.
private final class Cleaned: @unchecked Sendable {
  private let lock = NSLock()
  private var objects: [AnyObject] = []

  func append(_ object: AnyObject) { lock.withLock { objects.append(object) } }

  func count(of object: AnyObject) -> Int {
    lock.withLock { objects.filter { $0 === object }.count }
  }
}

private let cleaned = Cleaned()

private final class PartPool {}
private final class FrameworkClient {
  let pool: PartPool
  init(pool: PartPool) { self.pool = pool }
}

private final class TeardownPart: DIPart {
  static func load(container: DIContainer) {
    container.register(PartPool.init).lifetime(.perPart(.single))
      .onClean { cleaned.append($0) }
  }
}

private final class TeardownFramework: DIFramework {
  static func load(container: DIContainer) {
    container.append(part: TeardownPart.self)
    container.register(FrameworkClient.init).lifetime(.perFramework(.single))
      .onClean { cleaned.append($0) }
  }
}

@Suite struct FrameworkTeardownTests {
  @Test func cleanFrameworkRunsTheHooksOfPerFrameworkInstancesOnly() {
    let container = DIContainer().append(framework: TeardownFramework.self)
    let client: FrameworkClient = container.resolve()
    container.clean(framework: TeardownFramework.self)
    #expect(cleaned.count(of: client) == 1)
    #expect(cleaned.count(of: client.pool) == 0)
    container.clean(framework: TeardownFramework.self)
    #expect(cleaned.count(of: client) == 1)
  }

  @Test func cleanPartRunsTheHooksOfPerPartInstancesOnly() {
    let container = DIContainer().append(framework: TeardownFramework.self)
    let client: FrameworkClient = container.resolve()
    container.clean(part: TeardownPart.self)
    #expect(cleaned.count(of: client.pool) == 1)
    #expect(cleaned.count(of: client) == 0)
    container.clean(part: TeardownPart.self)
    #expect(cleaned.count(of: client.pool) == 1)
  }
}
