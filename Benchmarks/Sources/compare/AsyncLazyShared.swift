import Synchronization

/// S12's hand-written baseline: a shared instance made by an async initializer on first
/// use, as a careful server engineer writes it — the first caller starts a `Task` that makes
/// it and caches the task in a `Mutex`-guarded box; every caller, the first included, awaits
/// that task's value, so concurrent callers suspend until it is made, and make it once.
final class AsyncLazyShared<Value: Sendable>: Sendable {
  private let creation = Mutex<Task<Value, Never>?>(nil)
  private let make: @Sendable () async -> Value

  init(_ make: @escaping @Sendable () async -> Value) {
    self.make = make
  }

  /// The shared instance, made by a task the first caller starts.
  var value: Value {
    get async {
      let task = creation.withLock { creation in
        if let started = creation { return started }
        let started = Task { await make() }
        creation = started
        return started
      }
      return await task.value
    }
  }
}
