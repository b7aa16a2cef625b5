import DIContainer
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Starts a thread that stays, until the process exits, inside a `withOverrides` operation on
/// a container of its own: the state of a test process where another test overrides, in
/// which every request of every container reads the task-local list of override levels.
/// Returns once the operation has started.
func holdAnOverrideElsewhere() {
  let started = Atomic<Bool>(false)
  let job = OverrideHolder {
    DIContainer().withOverrides { _ in
    } operation: {
      started.store(true, ordering: .releasing)
      while true { sleep(3_600) }
    }
  }
  #if canImport(Glibc)
    var thread = pthread_t()
  #else
    var thread: pthread_t?
  #endif
  let status = pthread_create(
    &thread, nil,
    { context in
      Unmanaged<OverrideHolder>.fromOpaque(context!).takeRetainedValue().body()
      return nil
    }, Unmanaged.passRetained(job).toOpaque())
  precondition(status == 0, "pthread_create failed: \(status)")
  while !started.load(ordering: .acquiring) { sched_yield() }
}

/// What the overriding thread runs.
private final class OverrideHolder: Sendable {
  let body: @Sendable () -> Void
  init(_ body: @escaping @Sendable () -> Void) { self.body = body }
}
