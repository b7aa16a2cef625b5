import DIContainer
import DITestSupport
import Foundation
import Testing

/// Records what the deinitializers and hooks of a test's objects saw, under a lock.
private final class Record: @unchecked Sendable {
  private let lock = NSLock()
  private var entries: [String] = []

  func add(_ entry: String) {
    lock.withLock { entries.append(entry) }
  }

  var all: [String] { lock.withLock { entries } }
}

/// A `.scoped` object whose deinitializer asks its scope whether it is closed: released
/// under the scope's lock, that would deadlock.
private final class Inquirer {
  let onDeinit: @Sendable () -> Void

  init(onDeinit: @escaping @Sendable () -> Void) {
    self.onDeinit = onDeinit
  }

  deinit { onDeinit() }
}

private final class Plain {}
private final class Hooked {
  let name: String
  init(name: String) { self.name = name }
}
private final class Chain {
  let first: Hooked
  let plain: Plain
  init(first: Hooked, plain: Plain) {
    self.first = first
    self.plain = plain
  }
}

/// Holds a scope weakly, for an object's deinitializer to reach it.
private final class ScopeBox: @unchecked Sendable {
  weak var scope: DIRequestScope?
}

@Suite struct RequestScopeReleaseTests {
  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func anInstanceReleasedByCloseMayUseItsScopeInItsDeinit() {
    let record = Record()
    let box = ScopeBox()
    let container = DIContainer()
    container.register {
      Inquirer { record.add("closed: \(box.scope?.isClosed ?? false)") }
    }.lifetime(.scoped)
    let scope = container.makeScope()
    box.scope = scope
    _ = scope.resolve() as Inquirer
    scope.close()
    #expect(record.all == ["closed: true"])
  }

  @Test func closeReleasesInstancesWithoutHooksWhileTheScopeLives() {
    let container = DIContainer()
    container.register(Plain.init).lifetime(.scoped)
    let scope = container.makeScope()
    weak var plain: Plain?
    do {
      let made: Plain = scope.resolve()
      plain = made
      #expect(scope.resolve() as Plain === made)
    }
    #expect(plain != nil)
    scope.close()
    #expect(plain == nil)
    withExtendedLifetime(scope) {}
  }

  @Test func hooksRunNewestFirstAmongInstancesWithoutHooks() {
    let record = Record()
    let container = DIContainer()
    container.register { Hooked(name: "first") }.lifetime(.scoped)
      .onClean { record.add("clean \($0.name)") }
    container.register(Plain.init).lifetime(.scoped)
    container.register { (first: Hooked, plain: Plain) in Chain(first: first, plain: plain) }
      .lifetime(.scoped)
      .onClean { _ in record.add("clean chain") }
    let scope = container.makeScope()
    _ = scope.resolve() as Chain
    scope.close()
    scope.close()
    #expect(record.all == ["clean chain", "clean first"])
  }

  @Test func aScopeReleasedAfterCloseRunsItsHooksOnce() {
    let record = Record()
    let container = DIContainer()
    container.register { Hooked(name: "only") }.lifetime(.scoped)
      .onClean { record.add("clean \($0.name)") }
    do {
      let scope = container.makeScope()
      _ = scope.resolve() as Hooked
      scope.close()
    }
    _ = container.makeScope()
    #expect(record.all == ["clean only"])
  }
}
