import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs `body` on `count` new threads at once and returns the nanoseconds from their common
/// start to the end of the last one. Creating the threads is not timed: they wait for a
/// start signal.
func timeOnThreads(_ count: Int, _ body: @escaping @Sendable () -> Void) -> UInt64 {
  let gate = StartGate()
  let job = ThreadJob {
    gate.ready.add(1, ordering: .acquiringAndReleasing)
    while !gate.go.load(ordering: .acquiring) { sched_yield() }
    body()
  }
  var threads: [pthread_t] = []
  for _ in 0..<count {
    #if canImport(Glibc)
      var thread = pthread_t()
    #else
      var thread: pthread_t?
    #endif
    let context = Unmanaged.passRetained(job).toOpaque()
    let status = pthread_create(
      &thread, nil,
      { context in
        let job = Unmanaged<ThreadJob>.fromOpaque(context!).takeRetainedValue()
        job.body()
        return nil
      }, context)
    precondition(status == 0, "pthread_create failed: \(status)")
    #if canImport(Glibc)
      threads.append(thread)
    #else
      threads.append(thread!)
    #endif
  }
  while gate.ready.load(ordering: .acquiring) < count { sched_yield() }
  let start = now()
  gate.go.store(true, ordering: .releasing)
  for thread in threads { pthread_join(thread, nil) }
  return now() - start
}

/// What a benchmark thread runs.
private final class ThreadJob: Sendable {
  let body: @Sendable () -> Void
  init(_ body: @escaping @Sendable () -> Void) { self.body = body }
}

/// Holds the threads until every one is ready.
private final class StartGate: Sendable {
  let ready = Atomic<Int>(0)
  let go = Atomic<Bool>(false)
}
