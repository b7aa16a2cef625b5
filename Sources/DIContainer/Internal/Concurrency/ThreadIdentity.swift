#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The identity of the calling thread, used to tell a re-entrant request (a cycle on this
/// thread) from a concurrent one (another thread is creating the same instance).
struct ThreadIdentity: Hashable, Sendable {
  private let raw: UInt

  /// The calling thread.
  static var current: ThreadIdentity {
    #if canImport(Darwin)
      ThreadIdentity(raw: UInt(bitPattern: pthread_self()))
    #else
      ThreadIdentity(raw: UInt(pthread_self()))
    #endif
  }
}
