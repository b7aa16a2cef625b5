#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A pthread mutex allocated on the heap (never at the address of a stored property).
///
/// `Synchronization.Mutex` would do, but on Linux it waits on a futex that
/// ThreadSanitizer does not see, so every access it guards is reported as a race. A pthread
/// mutex is understood by ThreadSanitizer on every platform, at the same cost uncontended.
struct PThreadMutex: ~Copyable {
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>

  init() {
    mutex = .allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deinitialize(count: 1)
    mutex.deallocate()
  }

  func lock() { pthread_mutex_lock(mutex) }

  func unlock() { pthread_mutex_unlock(mutex) }
}

/// A value guarded by a ``PThreadMutex``.
package final class Locked<Value>: @unchecked Sendable {
  private let mutex = PThreadMutex()
  // Only touched with `mutex` held.
  private var value: Value

  /// Guards `value`.
  package init(_ value: Value) {
    self.value = value
  }

  /// Runs `body` with the value, holding the lock.
  @inline(__always)
  package func withLock<Result, Failure: Error>(
    _ body: (inout Value) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    mutex.lock()
    defer { mutex.unlock() }
    return try body(&value)
  }
}

/// A lock that guards no value of its own: it serializes a piece of work.
final class Lock: @unchecked Sendable {
  private let mutex = PThreadMutex()

  /// Runs `body` holding the lock.
  @inline(__always)
  func withLock<Result, Failure: Error>(
    _ body: () throws(Failure) -> Result
  ) throws(Failure) -> Result {
    mutex.lock()
    defer { mutex.unlock() }
    return try body()
  }
}
