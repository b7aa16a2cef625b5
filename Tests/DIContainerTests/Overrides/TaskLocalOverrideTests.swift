// `withOverrides`: which requests see an override level and which do not (SPEC, "Overrides,
// defaults and inspection"). Every top-level type is prefixed `OV`.

import DIContainer
import DITestSupport
import Foundation
import Testing

protocol OVClock: Sendable { var now: Int { get } }
struct OVSystemClock: OVClock { let now = -1 }
struct OVFixedClock: OVClock { let now: Int }

final class OVReport: Sendable {
  let clock: any OVClock
  init(clock: any OVClock) { self.clock = clock }
}

/// A container whose `OVReport` reads an `OVClock`: the system clock unless overridden.
private func reportContainer() -> DIContainer {
  let container = DIContainer()
  container.register { OVSystemClock() }.as(OVClock.self)
  container.register(OVReport.init)
  return container
}

@Suite struct TaskLocalOverrideTests {
  @Test func parallelTasksOnOneContainerEachSeeOnlyTheirOwnOverride() async throws {
    let container = reportContainer()
    let seen = try await withThrowingTaskGroup(of: (Int, [Int]).self) { group in
      for task in 0..<50 {
        group.addTask {
          try await container.withOverrides { level in
            level.register { OVFixedClock(now: task) }.as(OVClock.self)
          } operation: {
            var nows: [Int] = []
            for _ in 0..<20 {
              let report: OVReport = try await container.resolveAsync()
              nows.append(report.clock.now)
              await Task.yield()
            }
            return (task, nows)
          }
        }
      }
      // A task with no override, racing them, sees the container's own clock.
      group.addTask {
        var nows: [Int] = []
        for _ in 0..<200 {
          let report: OVReport = try container.tryResolve()
          nows.append(report.clock.now)
          await Task.yield()
        }
        return (-1, nows)
      }
      var seen: [Int: [Int]] = [:]
      for try await (task, nows) in group { seen[task] = nows }
      return seen
    }
    #expect(seen.count == 51)
    for (task, nows) in seen {
      #expect(nows.allSatisfy { $0 == task }, "task \(task) saw \(Set(nows).sorted())")
    }
    let after: OVReport = try container.tryResolve()
    #expect(after.clock.now == -1)
  }

  @Test func everyResolveFormInsideTheOperationSeesTheOverride() async throws {
    let container = reportContainer()
    try await container.withOverrides { level in
      level.register { OVFixedClock(now: 7) }.as(OVClock.self)
    } operation: {
      let tried: OVReport = try container.tryResolve()
      let withArguments: OVReport = try container.tryResolve(arguments: [])
      let awaited: OVReport = try await container.resolveAsync()
      let clock: any OVClock = try await container.resolveAsync()
      let clocks: [any OVClock] = many(try container.tryResolve())
      let scoped: OVReport = try await container.withScope { scope in try scope.tryResolve() }
      #expect(tried.clock.now == 7)
      #expect(withArguments.clock.now == 7)
      #expect(awaited.clock.now == 7)
      #expect(clock.now == 7)
      // As in a child container, `many` collects the level's components, then the container's.
      #expect(clocks.map(\.now) == [7, -1])
      #expect(scoped.clock.now == 7)
    }
  }

  @Test func childTasksOfTheOperationSeeTheOverrideAndDetachedTasksDoNot() async throws {
    let container = reportContainer()
    try await container.withOverrides { level in
      level.register { OVFixedClock(now: 3) }.as(OVClock.self)
    } operation: { () async throws in
      async let child: OVReport = container.resolveAsync()
      let unstructured = Task { () throws(DIError) -> OVReport in try container.tryResolve() }
      let detached = Task.detached { () throws(DIError) -> OVReport in
        try container.tryResolve()
      }
      #expect(try await child.clock.now == 3)
      #expect(try await unstructured.value.clock.now == 3)
      #expect(try await detached.value.clock.now == -1)
    }
  }

  @Test func nestedOverridesStackAndUnwindInOrder() async throws {
    let container = reportContainer()
    container.register { "plain" }
    try await container.withOverrides { outer in
      outer.register { OVFixedClock(now: 1) }.as(OVClock.self)
    } operation: {
      try await container.withOverrides { inner in
        inner.register { "inner" }
      } operation: {
        let report: OVReport = try container.tryResolve()
        let name: String = try container.tryResolve()
        // The inner level sits on the outer one: both overrides apply.
        #expect(report.clock.now == 1)
        #expect(name == "inner")
      }
      let report: OVReport = try container.tryResolve()
      let name: String = try container.tryResolve()
      #expect(report.clock.now == 1)
      #expect(name == "plain")
    }
    let report: OVReport = try container.tryResolve()
    #expect(report.clock.now == -1)
  }

  @Test func aLazyMadeInsideKeepsTheOverrideAndOneMadeBeforeDoesNot() async throws {
    let container = reportContainer()
    let before: Lazy<OVReport> = try container.tryResolve()
    try await container.withOverrides { level in
      level.register { OVFixedClock(now: 5) }.as(OVClock.self)
    } operation: {
      let inside: Lazy<OVReport> = try container.tryResolve()
      let provider: Provider<OVReport> = try container.tryResolve()
      let asyncLazy: AsyncLazy<OVReport> = try await container.resolveAsync()
      #expect(try inside.tryValue().clock.now == 5)
      #expect(try provider.tryValue().clock.now == 5)
      #expect(try await asyncLazy.value.clock.now == 5)
      #expect(try before.tryValue().clock.now == -1)
    }
  }

  @Test func theSynchronousFormWorksOnAThreadAndOnlyThere() async throws {
    let container = reportContainer()
    let inside = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let seen = LockedValue<Int?>(nil)
    let thread = Thread {
      let report: OVReport? = try? container.withOverrides { level in
        level.register { OVFixedClock(now: 9) }.as(OVClock.self)
      } operation: {
        inside.signal()
        release.wait()
        return try container.tryResolve()
      }
      seen.set(report?.clock.now)
      inside.signal()
    }
    thread.start()
    await waitOnThread(inside)
    // The thread is inside its operation: this task has no override.
    let here: OVReport = try container.tryResolve()
    #expect(here.clock.now == -1)
    release.signal()
    await waitOnThread(inside)
    #expect(seen.current == 9)
  }

  @Test func requestScopesOpenedInsideResolveFromTheLevel() async throws {
    let container = reportContainer()
    let outside = container.makeScope()
    defer { outside.close() }
    try await container.withOverrides { level in
      level.register { OVFixedClock(now: 2) }.as(OVClock.self)
    } operation: {
      let scope = container.makeScope()
      defer { scope.close() }
      let owner = NSObject()
      let inScope: OVReport = try scope.tryResolve()
      let inOwnerScope: OVReport = try container.scope(for: owner).tryResolve()
      let inOutsideScope: OVReport = try outside.tryResolve()
      #expect(inScope.clock.now == 2)
      #expect(inOwnerScope.clock.now == 2)
      // A scope opened before the operation belongs to the container itself.
      #expect(inOutsideScope.clock.now == -1)
    }
  }
}

/// Waits, without blocking a thread of the cooperative pool, until `semaphore` is signalled
/// by a thread of its own.
private func waitOnThread(_ semaphore: DispatchSemaphore) async {
  await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
    Thread {
      semaphore.wait()
      continuation.resume()
    }.start()
  }
}
