/// A value made on first need and kept: what `Lazy` and `Lazy1…5` share.
///
/// Made through ``CreateOnce``: concurrent first calls make one value; reading the value
/// while it is being made, from inside its own making, is a cycle error, not a hang; a
/// failed attempt leaves nothing, so a later call tries again.
final class MadeOnce: Sendable {
  struct State: CreationState {
    var creation = Creation.absent

    subscript(_: Void) -> Creation { creation }

    subscript(making _: Void) -> Making? {
      get { creation.making }
      set {
        if let newValue {
          creation = .making(newValue)
        } else if case .making = creation {
          creation = .absent
        }
      }
    }

    func _checkInvariants() {
      #if DI_INTERNAL_CHECKS
        creation.making?._checkInvariants()
      #endif
    }
  }

  private let state = Locked(State())

  /// The kept value, or the one `make` makes now (and is kept).
  func value(_ make: () throws(DIError) -> Any) throws(DIError) -> Any {
    if let made = state.withLock({ $0.creation.ready }) { return made.value }
    let (instance, _) = try CreateOnce.value(
      in: state, key: (), for: ResolutionRequest.current,
      make: { (_) throws(DIError) in Instance(value: try make()) },
      store: { state, instance in state.creation = .ready(instance) })
    return instance.value
  }

  /// Forgets the kept value, so the next ``value(_:)`` makes one again; a making under way
  /// keeps its value when it ends.
  func clear() {
    state.withLock { state in
      if case .ready = state.creation { state.creation = .absent }
      state._checkInvariants()
    }
  }

  /// Whether the value was made.
  var wasMade: Bool {
    state.withLock { $0.creation.ready != nil }
  }

  /// How a delayed value named `name` describes itself: with the kept value, or saying it
  /// is not made yet; never makes it.
  func describe(_ name: String) -> String {
    Self.describe(name, made: state.withLock { $0.creation.ready })
  }

  /// How a delayed value named `name` describes itself, `made` being its kept value: what
  /// ``AsyncMadeOnce`` says too.
  static func describe(_ name: String, made: Instance?) -> String {
    guard let made else { return "\(name) (not made yet)" }
    return "\(name): \(made.value)"
  }
}
