#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A value guarded by a pthread mutex, with a condition to wait on, all in one heap
/// allocation.
///
/// `Synchronization.Mutex` would do for the lock, but on Linux it waits on a futex that
/// ThreadSanitizer does not see, so every access it guards is reported as a race. A pthread
/// mutex is understood by ThreadSanitizer on every platform, at the same cost uncontended.
/// The value lives in the buffer's header, so reaching it costs no exclusivity check.
package struct Locked<Value>: @unchecked Sendable {
  private final class Storage: ManagedBuffer<Value, LockPrimitives> {
    // `ManagedBuffer` destroys the header (the value) itself; the primitives are ours.
    deinit {
      withUnsafeMutablePointerToElements { primitives in
        pthread_cond_destroy(&primitives.pointee.condition)
        pthread_mutex_destroy(&primitives.pointee.mutex)
        primitives.deinitialize(count: 1)
      }
    }
  }

  private var storage: Storage

  /// Guards `value`.
  package init(_ value: Value) {
    storage = unsafeDowncast(
      Storage.create(minimumCapacity: 1) { _ in value }, to: Storage.self)
    storage.withUnsafeMutablePointerToElements { primitives in
      primitives.initialize(to: LockPrimitives())
      pthread_mutex_init(&primitives.pointee.mutex, nil)
      pthread_cond_init(&primitives.pointee.condition, nil)
    }
  }

  /// Runs `body` with the value, holding the lock.
  @inline(__always)
  package func withLock<Result, Failure: Error>(
    _ body: (inout Value) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    try storage.withUnsafeMutablePointers { (value, primitives) throws(Failure) -> Result in
      pthread_mutex_lock(&primitives.pointee.mutex)
      defer { pthread_mutex_unlock(&primitives.pointee.mutex) }
      return try body(&value.pointee)
    }
  }

  /// Runs `body` with the value, holding the lock; `body` may wait for a change with
  /// ``Waiter/wait()``, which releases the lock while it waits.
  package func withLockWaiting<Result, Failure: Error>(
    _ body: (inout Value, Waiter) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    try storage.withUnsafeMutablePointers { (value, primitives) throws(Failure) -> Result in
      pthread_mutex_lock(&primitives.pointee.mutex)
      defer { pthread_mutex_unlock(&primitives.pointee.mutex) }
      return try body(&value.pointee, Waiter(primitives: primitives))
    }
  }

  /// Identifies this lock and its value: copies of one `Locked` share it.
  var identity: ObjectIdentifier { ObjectIdentifier(storage) }

  /// Whether this is the only reference to the lock and its value: then no other thread
  /// can lock it, read the value or wait on it.
  mutating func isUniquelyReferenced() -> Bool {
    isKnownUniquelyReferenced(&storage)
  }

  /// Wakes every thread waiting in ``withLockWaiting(_:)``; call it after changing the
  /// value.
  package func broadcast() {
    storage.withUnsafeMutablePointerToElements { primitives in
      _ = pthread_cond_broadcast(&primitives.pointee.condition)
    }
  }

  /// Waits, inside ``Locked/withLockWaiting(_:)``, for a ``Locked/broadcast()``.
  package struct Waiter {
    fileprivate let primitives: UnsafeMutablePointer<LockPrimitives>

    /// Releases the lock until the next broadcast (or a spurious wake-up), then takes it
    /// again: check the value again afterwards.
    package func wait() {
      _ = pthread_cond_wait(&primitives.pointee.condition, &primitives.pointee.mutex)
    }
  }
}

/// The mutex and the condition of a ``Locked``, side by side in its buffer's elements.
///
/// Not nested in the generic `Locked`: a nested type would be generic too, and its metadata
/// looked up at every new lock.
private struct LockPrimitives {
  var mutex = pthread_mutex_t()
  var condition = pthread_cond_t()
}
