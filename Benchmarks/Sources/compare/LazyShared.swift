import Synchronization

/// S1's hand-written baseline: a lazily created, thread-safe shared instance, as a careful
/// server engineer writes it — a `Mutex`-guarded optional, created on first use.
final class LazyShared<Value: AnyObject>: Sendable {
  private let storage = Mutex<Unchecked<Value>?>(nil)
  private let make: @Sendable () -> Value

  init(_ make: @escaping @Sendable () -> Value) {
    self.make = make
  }

  /// The shared instance, made by the first caller.
  var value: Value {
    storage.withLock { storage in
      if let existing = storage { return existing }
      let made = Unchecked(value: make())
      storage = made
      return made
    }.value
  }
}
