// The container's lock (`Locked`): an atomic word on the uncontended path, threads parked
// on a pthread condition when it is held. These tests hold it under contention, park
// threads on it, and wait for broadcasts, each with a deadline, so a lost wake-up fails
// instead of hanging; under ThreadSanitizer they also show that the lock orders what it
// guards.

import DIContainer
import DITestSupport
import Foundation
import Testing

/// What the threads of a lock test change under the lock, with a check that no two of them
/// are inside at once.
struct LockTally {
  private var inside = false
  /// How many times a thread found another inside.
  private(set) var overlaps = 0
  /// How many times a thread was inside.
  private(set) var count = 0

  /// Counts one turn inside the lock, running `hold` (a pause, say) while inside.
  mutating func turn(holding hold: () -> Void = {}) {
    if inside { overlaps += 1 }
    inside = true
    hold()
    count += 1
    inside = false
  }
}

@Suite("Locked: the container's lock")
struct LockedTests {

  @Test("four threads incrementing under the lock lose no increment and never overlap")
  func mutualExclusion() async {
    let locked = Locked(LockTally())
    let rounds = TestEnvironment.rounds(20_000, minimum: 2_000)
    let finished = await runThreads(4, timeout: TestEnvironment.limit(60)) { _ in
      for _ in 0..<rounds {
        locked.withLock { $0.turn() }
      }
    }
    #expect(finished)
    let tally = locked.withLock { $0 }
    #expect(tally.count == 4 * rounds)
    #expect(tally.overlaps == 0)
  }

  @Test("threads that find the lock held long enough to park all get it once it is let go")
  func parkedThreadsWake() async {
    let locked = Locked(0)
    let entered = Counter()
    let holding = Flag()
    let letGo = Flag()
    let holder = Task.detached {
      await runOnThread(timeout: TestEnvironment.limit(30)) {
        locked.withLock { _ in
          holding.raise()
          // Long past the waiters' spinning: they park.
          while !letGo.isRaised { usleep(1_000) }
        }
      }
    }
    while !holding.isRaised { await Task.yield() }
    let waiters = Task.detached {
      await runThreads(3, timeout: TestEnvironment.limit(30)) { _ in
        locked.withLock {
          entered.next()
          $0 += 1
        }
      }
    }
    try? await Task.sleep(for: .milliseconds(50))
    #expect(entered.value == 0, "a thread got in while the lock was held")
    letGo.raise()
    #expect(await holder.value)
    #expect(await waiters.value)
    #expect(locked.withLock { $0 } == 3)
  }

  @Test("a waiter lets go of the lock while it waits, and every broadcast reaches it")
  func waitAndBroadcast() async {
    let locked = Locked(0)
    let target = TestEnvironment.rounds(2_000, minimum: 200)
    let seen = LockedValue<[Int]>([])
    let finished = await runThreads(4, timeout: TestEnvironment.limit(60)) { index in
      if index == 0 {
        // The producer: one step at a time, a broadcast after each.
        for _ in 0..<target {
          locked.withLock { $0 += 1 }
          locked.broadcast()
        }
      } else {
        // Consumers: wait for each value in turn; a lost broadcast would leave one
        // parked past the deadline.
        var last = 0
        while last < target {
          last = locked.withLockWaiting { value, waiter in
            while value == last { waiter.wait() }
            return value
          }
        }
        seen.withLock { $0.append(last) }
      }
    }
    #expect(finished)
    #expect(seen.current == [target, target, target])
  }

  @Test("threads waiting for a broadcast and threads parked for the lock share its condition")
  func waitersAndParkedThreadsTogether() async {
    let locked = Locked(0)
    let rounds = TestEnvironment.rounds(4_000, minimum: 400)
    let finished = await runThreads(4, timeout: TestEnvironment.limit(60)) { index in
      if index < 2 {
        // Contenders take the lock often, so some park while the others wait.
        for _ in 0..<rounds {
          locked.withLock { $0 += 1 }
          if index == 0 { locked.broadcast() }
        }
        // The last increment may be either contender's.
        locked.broadcast()
      } else {
        // Waiters wait until the contenders are done; each wake-up checks the value.
        locked.withLockWaiting { value, waiter in
          while value < 2 * rounds { waiter.wait() }
        }
      }
    }
    #expect(finished)
    #expect(locked.withLock { $0 } == 2 * rounds)
  }
}
