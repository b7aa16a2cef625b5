import Synchronization

/// A component's `onClean` hooks, with the component's summary for the log line of a hook
/// that throws.
struct CleanHook: Sendable {
  /// The hooks, in the order `onClean` added them.
  let steps: [InstanceStep]
  /// `DatabasePool (Billing, App.swift:12)`.
  let name: String
}

/// An instance the library dropped, its hook, and when it was created: what a clean runs.
///
/// Every clean (of the container, a framework, a part, a custom scope or a request scope)
/// collects its teardowns while holding its locks, releases them, then runs them: hooks
/// run outside every lock of the library, newest instance first.
struct Teardown: Sendable {
  let instance: Instance
  let sequence: UInt64
  let hook: CleanHook

  /// The creation stamp of an instance stored now: process-wide and increasing, so a
  /// dependency (stored before its dependent's factory returns) has a smaller stamp than
  /// its dependents.
  static func nextSequence() -> UInt64 {
    counter.wrappingAdd(1, ordering: .relaxed).newValue
  }

  private static let counter = Atomic<UInt64>(0)

  /// Runs `hook` now for `instance`, which the library made but keeps nowhere (its cell
  /// retired, its scope closed): nothing else would ever run it.
  static func drop(_ instance: Instance, sequence: UInt64, hook: CleanHook?) {
    guard let hook else { return }
    run([Teardown(instance: instance, sequence: sequence, hook: hook)])
  }

  /// Runs the hooks of `teardowns` in reverse order of creation (dependents before their
  /// dependencies); a hook that throws is logged as an error and the others still run.
  ///
  /// Synchronous hooks run now. An instance's hooks from its first `async` one on run on a
  /// task of their own, started now, one instance after the other in the same order;
  /// ``TeardownTasks/waitForAll()`` (what `shutdown()` awaits) waits for it.
  static func run(_ teardowns: [Teardown]) {
    guard !teardowns.isEmpty else { return }
    let ordered = oldestFirst(teardowns)
    var later: [(Teardown, from: Int)] = []
    // By index, newest first: an iterator would copy each teardown out (its instance, its
    // hook's steps and name counted once more).
    for index in ordered.indices.reversed() {
      guard let first = ordered[index].runSynchronousSteps() else { continue }
      later.append((ordered[index], from: first))
    }
    guard !later.isEmpty else { return }
    TeardownTasks.start { [later] in
      for (teardown, first) in later { await teardown.runSteps(from: first) }
    }
  }

  /// Runs the hooks of `teardowns` in reverse order of creation, awaiting the `async`
  /// ones; a hook that throws is logged as an error and the others still run.
  static func runAwaiting(_ teardowns: [Teardown]) async {
    let ordered = oldestFirst(teardowns)
    for index in ordered.indices.reversed() {
      // The steps before the first `async` one run with no suspension.
      guard let first = ordered[index].runSynchronousSteps() else { continue }
      await ordered[index].runSteps(from: first)
    }
  }

  /// Whether a hook of `teardowns` has an `async` step: ``runAwaiting(_:)`` would suspend
  /// for it, where ``run(_:)`` would start a task.
  static func mustAwait(_ teardowns: [Teardown]) -> Bool {
    teardowns.contains { $0.hook.steps.contains(where: \.isAsync) }
  }

  /// `teardowns` oldest first. A request scope keeps its own in the order they were made,
  /// so they are returned as they are, with no sorted copy (an allocation per closed
  /// scope).
  private static func oldestFirst(_ teardowns: [Teardown]) -> [Teardown] {
    for index in teardowns.indices.dropFirst()
    where teardowns[index - 1].sequence >= teardowns[index].sequence {
      return teardowns.sorted { $0.sequence < $1.sequence }
    }
    return teardowns
  }

  /// Runs the hook's steps up to its first `async` one, and returns that one's index (nil:
  /// all ran).
  private func runSynchronousSteps() -> Int? {
    for (index, step) in hook.steps.enumerated() {
      guard case .sync(let run) = step else { return index }
      report { try run(instance.value) }
    }
    return nil
  }

  /// Runs the hook's steps from `first` on, awaiting the `async` ones.
  private func runSteps(from first: Int) async {
    for step in hook.steps[first...] {
      switch step {
      case .sync(let run): report { try run(instance.value) }
      case .async(let run):
        do {
          try await run(instance.value)
        } catch {
          log(error)
        }
      }
    }
  }

  private func report(_ run: () throws -> Void) {
    do { try run() } catch { log(error) }
  }

  private func log(_ error: any Error) {
    DISetting.Log.log(.error, "onClean of \(hook.name) threw: \(error)")
  }
}
