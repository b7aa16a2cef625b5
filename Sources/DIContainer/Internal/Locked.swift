#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A value guarded by a pthread mutex, both in one heap allocation.
///
/// `Synchronization.Mutex` would do, but on Linux it waits on a futex that
/// ThreadSanitizer does not see, so every access it guards is reported as a race. A pthread
/// mutex is understood by ThreadSanitizer on every platform, at the same cost uncontended.
/// The value lives in the buffer's header, so reaching it costs no exclusivity check.
package struct Locked<Value>: @unchecked Sendable {
  private final class Storage: ManagedBuffer<Value, pthread_mutex_t> {
    // `ManagedBuffer` destroys the header (the value) itself; the mutex is ours.
    deinit {
      withUnsafeMutablePointerToElements { mutex in
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
      }
    }
  }

  private let storage: Storage

  /// Guards `value`.
  package init(_ value: Value) {
    storage = unsafeDowncast(
      Storage.create(minimumCapacity: 1) { _ in value }, to: Storage.self)
    storage.withUnsafeMutablePointerToElements { mutex in
      mutex.initialize(to: pthread_mutex_t())
      pthread_mutex_init(mutex, nil)
    }
  }

  /// Runs `body` with the value, holding the lock.
  @inline(__always)
  package func withLock<Result, Failure: Error>(
    _ body: (inout Value) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    try storage.withUnsafeMutablePointers { (value, mutex) throws(Failure) -> Result in
      pthread_mutex_lock(mutex)
      defer { pthread_mutex_unlock(mutex) }
      return try body(&value.pointee)
    }
  }

  /// Takes the lock; pair with ``unlock()`` on the same thread.
  package func lock() {
    storage.withUnsafeMutablePointerToElements { _ = pthread_mutex_lock($0) }
  }

  /// Releases the lock taken by ``lock()``.
  package func unlock() {
    storage.withUnsafeMutablePointerToElements { _ = pthread_mutex_unlock($0) }
  }
}

/// A lock that guards no value of its own: it serializes a piece of work.
struct Lock: Sendable {
  private let locked = Locked<Int>(0)

  /// Runs `body` holding the lock.
  @inline(__always)
  func withLock<Result, Failure: Error>(
    _ body: () throws(Failure) -> Result
  ) throws(Failure) -> Result {
    try locked.withLock { (_: inout Int) throws(Failure) -> Result in try body() }
  }

  /// Takes the lock; pair with ``unlock()`` on the same thread.
  func lock() { locked.lock() }

  /// Releases the lock taken by ``lock()``.
  func unlock() { locked.unlock() }
}
