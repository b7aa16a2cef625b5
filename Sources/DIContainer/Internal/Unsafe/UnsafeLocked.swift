import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A value guarded by a lock, with a condition to wait on, all in one heap allocation.
///
/// The lock is an atomic word taken with one compare-and-exchange and given back with one
/// exchange when nobody waits (a pthread mutex pair costs ~50 instructions more, and a
/// request scope takes up to 13 locks per request: Benchmarks/PROFILE.md). A thread that
/// finds it held spins briefly, then parks on a pthread condition. `Synchronization.Mutex`
/// would do for the fast path, but on Linux it waits on a futex that ThreadSanitizer does
/// not see, so every access it guards is reported as a race; the atomic operations here
/// are compiled into this module and ThreadSanitizer sees them, and it understands the
/// pthread mutex and condition of the slow path on every platform. The value lives in the
/// buffer's header, so reaching it costs no exclusivity check.
package struct Locked<Value>: @unchecked Sendable {
  private final class Storage: ManagedBuffer<Value, LockPrimitives> {
    // `ManagedBuffer` destroys the header (the value) itself; the primitives are ours.
    deinit {
      unsafe withUnsafeMutablePointerToElements { primitives in
        unsafe pthread_cond_destroy(&primitives.pointee.condition)
        unsafe pthread_mutex_destroy(&primitives.pointee.parking)
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
      unsafe pthread_mutex_init(&primitives.pointee.parking, nil)
      unsafe pthread_cond_init(&primitives.pointee.condition, nil)
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
    unsafe storage.withUnsafeMutablePointerToElements { primitives in unsafe primitives.broadcast()
    }
  }

  /// Waits, inside ``Locked/withLockWaiting(_:)``, for a ``Locked/broadcast()``.
  @safe
  package struct Waiter {
    fileprivate let primitives: UnsafeMutablePointer<LockPrimitives>

    /// Releases the lock until the next broadcast, then takes it again: check the value
    /// again afterwards.
    package func wait() {
      unsafe primitives.waitForBroadcast()
    }
  }
}

/// The lock word, and the pthread mutex and condition that threads park on, side by side
/// in a ``Locked`` buffer's elements.
///
/// Not nested in the generic `Locked`: a nested type would be generic too, and its metadata
/// looked up at every new lock.
@safe
private struct LockPrimitives: ~Copyable {
  /// 0: free; 1: held; 2: held, and a thread may be parked waiting for it.
  let state = Atomic<UInt32>(0)
  /// How many broadcasts there were; changed and read holding `parking`. Atomic only so
  /// that no Swift access writes the primitives while other threads use the lock word.
  let broadcasts = Atomic<UInt32>(0)
  /// Guards parking: a thread checks the lock word and parks holding it, and a thread
  /// wakes the parked ones holding it, so no wake-up is lost between the two.
  var parking = unsafe pthread_mutex_t()
  /// Where threads wait for the lock, and for a broadcast.
  var condition = pthread_cond_t()
}

extension UnsafeMutablePointer where Pointee == LockPrimitives {
  @inline(__always)
  fileprivate func lock() {
    if unsafe !tryLock() { unsafe lockContended() }
  }

  /// Takes the lock if it is free, marked held with nobody parked.
  @inline(__always)
  private func tryLock() -> Bool {
    unsafe pointee.state.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged
  }

  @inline(__always)
  fileprivate func unlock() {
    if unsafe pointee.state.exchange(0, ordering: .releasing) == 2 { unsafe wakeParked() }
  }

  /// Takes the lock another thread holds: spins a little (a holder lets go within a few
  /// hundred instructions), then parks until the holder lets go.
  @inline(never)
  private func lockContended() {
    for _ in 0..<64 where unsafe pointee.state.load(ordering: .relaxed) == 0 {
      if unsafe tryLock() { return }
    }
    unsafe pthread_mutex_lock(&pointee.parking)
    // Marking the word 2 tells the holder to wake the parked threads as it lets go; a
    // thread that takes the lock this way keeps the mark, so it wakes the others in turn.
    while unsafe pointee.state.exchange(2, ordering: .acquiring) != 0 {
      unsafe pthread_cond_wait(&pointee.condition, &pointee.parking)
    }
    unsafe pthread_mutex_unlock(&pointee.parking)
  }

  @inline(never)
  private func wakeParked() {
    unsafe pthread_mutex_lock(&pointee.parking)
    // Broadcast: the condition is shared with `waitForBroadcast`, whose threads must not
    // take the one wake-up a thread parked for the lock needs.
    unsafe pthread_cond_broadcast(&pointee.condition)
    unsafe pthread_mutex_unlock(&pointee.parking)
  }

  /// Lets go of the lock, which the caller holds, until the next broadcast, then takes it
  /// again.
  fileprivate func waitForBroadcast() {
    unsafe pthread_mutex_lock(&pointee.parking)
    let seen = unsafe pointee.broadcasts.load(ordering: .relaxed)
    // As `unlock()`, with `parking` already held: a broadcast cannot come between letting
    // go and parking.
    if unsafe pointee.state.exchange(0, ordering: .releasing) == 2 {
      unsafe pthread_cond_broadcast(&pointee.condition)
    }
    while unsafe pointee.broadcasts.load(ordering: .relaxed) == seen {
      unsafe pthread_cond_wait(&pointee.condition, &pointee.parking)
    }
    unsafe pthread_mutex_unlock(&pointee.parking)
    unsafe lock()
  }

  fileprivate func broadcast() {
    unsafe pthread_mutex_lock(&pointee.parking)
    unsafe pointee.broadcasts.add(1, ordering: .relaxed)
    unsafe pthread_cond_broadcast(&pointee.condition)
    unsafe pthread_mutex_unlock(&pointee.parking)
  }
}
