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
/// Every pthread call's return code is checked: a failure is a broken invariant (a lock
/// used after it was destroyed, or unlocked by a thread that does not hold it), and it stops
/// the process with the call's name and code. ThreadSanitizer sees the mutex and the
/// condition, so it sees every access `withLock` guards. (`Synchronization.Mutex` waits on a
/// futex that ThreadSanitizer does not see on Linux, so every access it guards would be
/// reported as a race.) The value lives in the buffer's header, so reaching it costs no
/// exclusivity check.
///
/// `Locked` is `Sendable` when its value is; the library's own non-`Sendable` states are
/// shared through ``UncheckedSendableLocked``, which says so in its name.
package struct Locked<Value> {
  private final class Storage: ManagedBuffer<Value, LockPrimitives> {
    // `ManagedBuffer` destroys the header (the value) itself; the primitives are ours.
    deinit {
      unsafe withUnsafeMutablePointerToElements { primitives in
        unsafe check(pthread_cond_destroy(&primitives.pointee.condition), "pthread_cond_destroy")
        unsafe check(pthread_mutex_destroy(&primitives.pointee.mutex), "pthread_mutex_destroy")
        unsafe primitives.deinitialize(count: 1)
      }
    }
  }

  private var storage: Storage

  /// Guards `value`.
  package init(_ value: Value) {
    storage = unsafe unsafeDowncast(
      Storage.create(minimumCapacity: 1) { _ in value }, to: Storage.self)
    unsafe storage.withUnsafeMutablePointerToElements { primitives in
      unsafe primitives.initialize(to: LockPrimitives())
      unsafe check(pthread_mutex_init(&primitives.pointee.mutex, nil), "pthread_mutex_init")
      unsafe check(pthread_cond_init(&primitives.pointee.condition, nil), "pthread_cond_init")
    }
  }

  /// Runs `body` with the value, holding the lock.
  @inline(__always)
  package func withLock<Result, Failure: Error>(
    _ body: (inout Value) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    unsafe try storage.withUnsafeMutablePointers { (value, primitives) throws(Failure) -> Result in
      unsafe primitives.lock()
      defer { unsafe primitives.unlock() }
      return unsafe try body(&value.pointee)
    }
  }

  /// Runs `body` with the value, holding the lock; `body` may wait for a change with
  /// ``Waiter/wait()``, which releases the lock while it waits.
  package func withLockWaiting<Result, Failure: Error>(
    _ body: (inout Value, Waiter) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    unsafe try storage.withUnsafeMutablePointers { (value, primitives) throws(Failure) -> Result in
      unsafe primitives.lock()
      defer { unsafe primitives.unlock() }
      return unsafe try body(&value.pointee, Waiter(primitives: primitives))
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
    unsafe storage.withUnsafeMutablePointerToElements { primitives in
      unsafe check(pthread_cond_broadcast(&primitives.pointee.condition), "pthread_cond_broadcast")
    }
  }

  /// Waits, inside ``Locked/withLockWaiting(_:)``, for a ``Locked/broadcast()``.
  @safe
  package struct Waiter {
    fileprivate let primitives: UnsafeMutablePointer<LockPrimitives>

    /// Releases the lock until the next broadcast (or a spurious wake-up), then takes it
    /// again: check the value again afterwards.
    package func wait() {
      unsafe check(
        pthread_cond_wait(&primitives.pointee.condition, &primitives.pointee.mutex),
        "pthread_cond_wait")
    }
  }
}

extension Locked: @unchecked Sendable where Value: Sendable {}

/// The pthread mutex and condition of a ``Locked``, in its buffer's elements.
///
/// Not nested in the generic `Locked`: a nested type would be generic too, and its metadata
/// looked up at every new lock.
@safe
private struct LockPrimitives: ~Copyable {
  /// Guards the value.
  var mutex = unsafe pthread_mutex_t()
  /// Where threads in `withLockWaiting` wait for a broadcast.
  var condition = pthread_cond_t()
}

extension UnsafeMutablePointer where Pointee == LockPrimitives {
  @inline(__always)
  fileprivate func lock() {
    unsafe check(pthread_mutex_lock(&pointee.mutex), "pthread_mutex_lock")
  }

  @inline(__always)
  fileprivate func unlock() {
    unsafe check(pthread_mutex_unlock(&pointee.mutex), "pthread_mutex_unlock")
  }
}

/// Stops the process when a pthread call fails: every failure these calls can report is
/// a misuse of the lock, which no caller can recover from.
@inline(__always)
private func check(_ code: Int32, _ call: StaticString) {
  if code != 0 { lockCallFailed(code, call) }
}

@inline(never)
private func lockCallFailed(_ code: Int32, _ call: StaticString) -> Never {
  fatalError("\(call) failed with error \(code)")
}
