import DIContainer
import DITestSupport
import Synchronization
import Testing

// Async requests made inside other ones: by child tasks of a `postInit`, by sibling tasks
// reading one `AsyncLazy`, and loops that pass through a request's child task.

/// Made slowly, so that other tasks ask for it while it is being made.
private final class NTShared: Sendable {
  init() async {
    try? await Task.sleep(for: .milliseconds(20))
  }
}

/// Holds an `AsyncLazy` that its `postInit` reads from sibling tasks.
private final class NTReader: Sendable {
  let shared: AsyncLazy<NTShared>
  init(shared: AsyncLazy<NTShared>) { self.shared = shared }
}

/// Its `postInit` starts child tasks.
private final class NTHub: Sendable {}

/// Made by a factory that waits, then needs an `NTHub`.
private final class NTSpoke: Sendable {}

/// `body`'s result, or nil when it takes longer than `seconds`, scaled for slow builds
/// (under ThreadSanitizer a full run's async tests can wait tens of seconds for a thread).
private func within<T: Sendable>(
  seconds: Int, _ body: @escaping @Sendable () async -> T
) async -> T? {
  await withTaskGroup(of: T?.self) { group in
    group.addTask { await body() }
    group.addTask {
      try? await Task.sleep(for: .seconds(TestEnvironment.limit(Double(seconds))))
      return nil
    }
    let first = await group.next() ?? nil
    group.cancelAll()
    return first
  }
}

/// "ok", or the code of the `DIError` that resolving `T` from `container` threw.
private func outcome<T>(of _: T.Type, in container: DIContainer) async -> String {
  do throws(DIError) {
    let _: T = try await container.resolveAsync()
    return "ok"
  } catch {
    return "\(error.code)"
  }
}

@Suite struct AsyncRequestNestingTests {
  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func siblingTasksOfAPostInitReadOneAsyncLazyOnce() async throws {
    let container = DIContainer()
    let made = Atomic(0)
    let values = Atomic(0)
    container.register { () async -> NTShared in
      made.add(1, ordering: .relaxed)
      return await NTShared()
    }
    container.register(NTReader.init).lifetime(.perContainer(.single))
      .postInit { reader in
        let shared = try await withThrowingTaskGroup(of: ObjectIdentifier.self) { group in
          for _ in 0..<8 {
            group.addTask { ObjectIdentifier(try await reader.shared.value) }
          }
          return try await group.reduce(into: Set<ObjectIdentifier>()) { $0.insert($1) }
        }
        values.store(shared.count, ordering: .relaxed)
      }
    let result = await within(seconds: 20) { await outcome(of: NTReader.self, in: container) }
    #expect(result == "ok")
    #expect(values.load(ordering: .relaxed) == 1, "one value for every sibling")
    #expect(made.load(ordering: .relaxed) == 1)
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func aChildTaskAskingForWhatItsParentIsMakingIsACycle() async {
    let container = DIContainer()
    container.register { NTHub() }.lifetime(.perContainer(.single))
      .postInit { [unowned container] _ in
        try await withThrowingTaskGroup(of: Void.self) { group in
          group.addTask { let _: NTHub = try await container.resolveAsync() }
          try await group.waitForAll()
        }
      }
    let result = await within(seconds: 20) { await outcome(of: NTHub.self, in: container) }
    #expect(result == "cycle")
  }

  /// One request makes `NTSpoke`, whose factory needs `NTHub`; another makes `NTHub`, whose
  /// `postInit` awaits a child task that needs `NTSpoke`. Whichever wait comes second closes
  /// the loop and is refused: both requests end.
  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func aLoopThroughAChildTaskAndAnotherRequestEndsInAnError() async {
    for spokeFirst in [true, false] {
      let container = DIContainer()
      container.register { [unowned container] () async throws -> NTSpoke in
        try await Task.sleep(for: .milliseconds(spokeFirst ? 100 : 10))
        let _: NTHub = try await container.resolveAsync()
        return NTSpoke()
      }
      .lifetime(.perContainer(.single))
      container.register { NTHub() }.lifetime(.perContainer(.single))
        .postInit { [unowned container] _ in
          try await Task.sleep(for: .milliseconds(spokeFirst ? 10 : 100))
          try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { let _: NTSpoke = try await container.resolveAsync() }
            try await group.waitForAll()
          }
        }
      let results = await within(seconds: 20) {
        async let spoke = outcome(of: NTSpoke.self, in: container)
        try? await Task.sleep(for: .milliseconds(spokeFirst ? 0 : 50))
        let hub = await outcome(of: NTHub.self, in: container)
        return [await spoke, hub]
      }
      #expect(results != nil, "both requests ended")
      #expect(results?.contains { $0 != "ok" } == true, "\(results ?? [])")
    }
  }
}
