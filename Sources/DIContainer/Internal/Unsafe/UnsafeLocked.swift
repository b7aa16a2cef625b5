import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A value guarded by a lock, with a condition to wait on, all in one heap allocation: the
/// library's one lock.
///
/// The lock is an atomic word taken with one compare-and-exchange and given back with one
/// exchange when nobody waits. A thread that finds it held spins briefly, then parks on a
/// pthread condition. A pthread mutex in its place costs 50 instructions more per lock and
/// unlock: a request scope's request (S8, which takes 14 locks) went from 7,263 to 7,983
/// instructions (+9.9%) with one, measured with callgrind at 64b5a46 (Benchmarks/PROFILE.md),
/// so this lock stays. `Synchronization.Mutex` would do for the fast path, but on Linux it
/// waits on a futex that ThreadSanitizer does not see, so every access it guards is
/// reported as a race; the atomic operations here are compiled into this module and
/// ThreadSanitizer sees them, and it understands the pthread mutex and condition of the
/// slow path. The value lives in the buffer's header, so reaching it costs no exclusivity
/// check.
///
/// Every pthread call's return code is checked. Built with `DI_INTERNAL_CHECKS`, the lock
/// also records its holder and stops the process when a thread takes it twice, or lets go
/// of a lock it does not hold. Tests/DIContainerTests/Internals/LockedTests.swift drives it
/// under contention, and CI runs them under ThreadSanitizer and with the checks on.
///
/// `Locked` is `Sendable` when its value is.
package struct Locked<Value> {
  private final class Storage: ManagedBuffer<Value, LockPrimitives> {
    // `ManagedBuffer` destroys the header (the value) itself; the primitives are ours.
    deinit {
      unsafe withUnsafeMutablePointerToElements { primitives in
        unsafe check(pthread_cond_destroy(&primitives.pointee.condition), "pthread_cond_destroy")
        unsafe check(pthread_mutex_destroy(&primitives.pointee.parking), "pthread_mutex_destroy")
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
      unsafe check(pthread_mutex_init(&primitives.pointee.parking, nil), "pthread_mutex_init")
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

extension Locked: @unchecked Sendable where Value: Sendable {}

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
  #if DI_INTERNAL_CHECKS
    /// The thread holding the lock, 0 when none: written by the holder only.
    let holder = Atomic<UInt>(0)
  #endif
}

extension UnsafeMutablePointer where Pointee == LockPrimitives {
  @inline(__always)
  fileprivate func lock() {
    #if DI_INTERNAL_CHECKS
      precondition(
        unsafe pointee.holder.load(ordering: .relaxed) != currentThread(),
        "a thread took a lock it holds")
    #endif
    if unsafe !tryLock() { unsafe lockContended() }
    #if DI_INTERNAL_CHECKS
      unsafe pointee.holder.store(currentThread(), ordering: .relaxed)
    #endif
  }

  /// Takes the lock if it is free, marked held with nobody parked.
  @inline(__always)
  private func tryLock() -> Bool {
    unsafe pointee.state.compareExchange(expected: 0, desired: 1, ordering: .acquiring).exchanged
  }

  @inline(__always)
  fileprivate func unlock() {
    #if DI_INTERNAL_CHECKS
      precondition(
        unsafe pointee.holder.load(ordering: .relaxed) == currentThread(),
        "a thread let go of a lock it does not hold")
      unsafe pointee.holder.store(0, ordering: .relaxed)
    #endif
    let previous = unsafe pointee.state.exchange(0, ordering: .releasing)
    #if DI_INTERNAL_CHECKS
      precondition(previous == 1 || previous == 2, "a free lock was let go of")
    #endif
    if previous == 2 { unsafe wakeParked() }
  }

  /// Takes the lock another thread holds: spins a little (a holder lets go within a few
  /// hundred instructions), then parks until the holder lets go.
  @inline(never)
  private func lockContended() {
    for _ in 0..<64 where unsafe pointee.state.load(ordering: .relaxed) == 0 {
      if unsafe tryLock() { return }
    }
    unsafe check(pthread_mutex_lock(&pointee.parking), "pthread_mutex_lock")
    // Marking the word 2 tells the holder to wake the parked threads as it lets go; a
    // thread that takes the lock this way keeps the mark, so it wakes the others in turn.
    while unsafe pointee.state.exchange(2, ordering: .acquiring) != 0 {
      unsafe check(pthread_cond_wait(&pointee.condition, &pointee.parking), "pthread_cond_wait")
    }
    unsafe check(pthread_mutex_unlock(&pointee.parking), "pthread_mutex_unlock")
  }

  @inline(never)
  private func wakeParked() {
    unsafe check(pthread_mutex_lock(&pointee.parking), "pthread_mutex_lock")
    // Broadcast: the condition is shared with `waitForBroadcast`, whose threads must not
    // take the one wake-up a thread parked for the lock needs.
    unsafe check(pthread_cond_broadcast(&pointee.condition), "pthread_cond_broadcast")
    unsafe check(pthread_mutex_unlock(&pointee.parking), "pthread_mutex_unlock")
  }

  /// Lets go of the lock, which the caller holds, until the next broadcast, then takes it
  /// again.
  fileprivate func waitForBroadcast() {
    unsafe check(pthread_mutex_lock(&pointee.parking), "pthread_mutex_lock")
    let seen = unsafe pointee.broadcasts.load(ordering: .relaxed)
    #if DI_INTERNAL_CHECKS
      unsafe pointee.holder.store(0, ordering: .relaxed)
    #endif
    // As `unlock()`, with `parking` already held: a broadcast cannot come between letting
    // go and parking.
    if unsafe pointee.state.exchange(0, ordering: .releasing) == 2 {
      unsafe check(pthread_cond_broadcast(&pointee.condition), "pthread_cond_broadcast")
    }
    while unsafe pointee.broadcasts.load(ordering: .relaxed) == seen {
      unsafe check(pthread_cond_wait(&pointee.condition, &pointee.parking), "pthread_cond_wait")
    }
    unsafe check(pthread_mutex_unlock(&pointee.parking), "pthread_mutex_unlock")
    unsafe lock()
  }

  fileprivate func broadcast() {
    unsafe check(pthread_mutex_lock(&pointee.parking), "pthread_mutex_lock")
    unsafe pointee.broadcasts.add(1, ordering: .relaxed)
    unsafe check(pthread_cond_broadcast(&pointee.condition), "pthread_cond_broadcast")
    unsafe check(pthread_mutex_unlock(&pointee.parking), "pthread_mutex_unlock")
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

#if DI_INTERNAL_CHECKS
  /// The calling thread, for the holder checks.
  private func currentThread() -> UInt {
    #if canImport(Darwin)
      UInt(bitPattern: pthread_self())
    #else
      UInt(pthread_self())
    #endif
  }
#endif
