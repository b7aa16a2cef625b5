import Synchronization

/// A `.scoped` component that knows whether its scope closed it: a body written while it
/// is open says `open`.
final class ScopedProbe: Sendable {
  private static let serials = Atomic(0)

  /// A number no other probe of the process has.
  let serial = ScopedProbe.serials.add(1, ordering: .relaxed).newValue
  private let closed = Atomic(false)

  /// Whether its `onClean` hook ran.
  var isClosed: Bool { closed.load(ordering: .relaxed) }

  /// Its `onClean` hook.
  func close() { closed.store(true, ordering: .relaxed) }
}
