import Foundation

/// A value that threads share, guarded by a lock.
///
/// `NSLock` rather than `Synchronization.Mutex`: on Linux a `Mutex` waits on a futex that
/// ThreadSanitizer does not see, so it would report every access it guards as a race.
///
/// ```swift
/// let counter = LockedState(0)
/// counter.withLock { $0 += 1 }
/// print(counter.withLock { $0 })  // 1
/// ```
public final class LockedState<Value>: @unchecked Sendable {
  // Read and written only inside `withLock`.
  private var value: Value
  private let lock = NSLock()

  /// Guards `value`.
  ///
  /// - Parameter value: The initial value.
  ///
  /// ```swift
  /// let stock = LockedState(["cap": 3])
  /// ```
  public init(_ value: Value) {
    self.value = value
  }

  /// Runs `body` with the value, holding the lock.
  ///
  /// - Parameter body: Reads or changes the value.
  /// - Returns: What `body` returns.
  ///
  /// ```swift
  /// let left = stock.withLock { stock in stock["cap", default: 0] }
  /// ```
  public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }
}
