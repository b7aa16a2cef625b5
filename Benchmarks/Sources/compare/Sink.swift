import BenchSupport

/// Lets `object` escape to code the optimizer cannot see (a C function compiled apart), so
/// making it cannot be optimized away.
@inline(__always)
func sink(_ object: AnyObject) {
  withExtendedLifetime(object) {
    bench_sink(UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque()))
  }
}

/// Carries a value the harness shares between threads on purpose (a thread-safe container
/// whose type is not declared `Sendable`, or an operation that only uses such containers).
struct Unchecked<Value>: @unchecked Sendable {
  let value: Value
}
