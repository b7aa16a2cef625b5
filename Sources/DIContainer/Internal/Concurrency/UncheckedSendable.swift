/// A value shared across threads that Swift cannot check: what the library keeps of its
/// users' values, which it does not constrain to `Sendable` (a `.multiton`'s arguments, an
/// injection's key path), and a weak reference.
///
/// Sharing these is the contract the documentation states: a cached instance is shared by
/// every thread that resolves it, so it must be safe to use from them. The types that hold
/// such a value hold it in this box, so they are checked `Sendable`; ``Instance`` states the
/// same contract itself (it says why).
struct UncheckedSendable<Wrapped>: @unchecked Sendable {
  /// The value.
  var wrapped: Wrapped

  init(_ wrapped: Wrapped) {
    self.wrapped = wrapped
  }
}

extension UncheckedSendable: Equatable where Wrapped: Equatable {}
extension UncheckedSendable: Hashable where Wrapped: Hashable {}
