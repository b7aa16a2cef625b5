import Synchronization

/// A component's `onClean` hook, with the component's summary for the log line of a hook
/// that throws.
struct CleanHook: Sendable {
  let run: @Sendable (Any) throws -> Void
  /// `DatabasePool (Billing, App.swift:12)`.
  let name: String
}

/// An instance the library dropped, its hook, and when it was created: what a clean runs.
///
/// Every clean (of the container, a framework, a part, a custom scope or a request scope)
/// collects its teardowns while holding its locks, releases them, then calls ``run(_:)``:
/// hooks run outside every lock of the library, newest instance first.
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

  /// Runs the hooks of `teardowns` in reverse order of creation (dependents before their
  /// dependencies); a hook that throws is logged as an error and the others still run.
  static func run(_ teardowns: [Teardown]) {
    guard !teardowns.isEmpty else { return }
    for teardown in teardowns.sorted(by: { $0.sequence > $1.sequence }) {
      do {
        try teardown.hook.run(teardown.instance.value)
      } catch {
        DISetting.Log.log(.error, "onClean of \(teardown.hook.name) threw: \(error)")
      }
    }
  }
}
