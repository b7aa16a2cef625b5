/// The instances of one `.multiton` component: one ``InstanceCell`` per distinct set of
/// runtime arguments, so concurrent first requests with equal arguments make one instance.
final class MultitonCells: Sendable {
  /// The runtime arguments of a request, compared by type and value (so `1` and `1.0`
  /// stay apart).
  ///
  /// Arguments are user values the library only hashes and compares, under the cells'
  /// lock; like instances (``Instance``) they are not constrained to `Sendable`.
  struct Key: Hashable, Sendable {
    let types: [ObjectIdentifier]
    let values: UncheckedSendable<[AnyHashable]>

    /// The key of `arguments`, or the position and type of the first one that is not
    /// `Hashable`.
    static func make(_ arguments: [Any]) -> Result<Key, DIError> {
      var types: [ObjectIdentifier] = []
      var values: [AnyHashable] = []
      for (index, argument) in arguments.enumerated() {
        guard let hashable = argument as? AnyHashable else {
          return .failure(
            DIError(
              .argumentNotHashable(
                position: index + 1, type: String(describing: type(of: argument)))))
        }
        types.append(ObjectIdentifier(type(of: argument)))
        values.append(hashable)
      }
      return .success(Key(types: types, values: UncheckedSendable(values)))
    }
  }

  private struct State {
    var cells: [Key: InstanceCell] = [:]
    /// Set when the container shuts down: it keeps nothing more.
    var isRetired = false
  }

  private let state = Locked(State())

  /// The cell of `key`, made on first need; once the cells are retired (the container shut
  /// down), a retired cell of its own, which keeps nothing: an instance a request still
  /// under way makes in it is dropped at once, its hook run.
  func cell(for key: Key) -> InstanceCell {
    let (cell, isRetired) = state.withLock { state -> (InstanceCell, Bool) in
      if let cell = state.cells[key] { return (cell, false) }
      let cell = InstanceCell(weak: false)
      guard !state.isRetired else { return (cell, true) }
      state.cells[key] = cell
      return (cell, false)
    }
    if isRetired { _ = cell.retire() }
    return cell
  }

  /// Drops every instance and returns them with their creation stamps, so the caller runs
  /// their hooks and releases them outside the lock.
  ///
  /// The cells are retired, not just emptied: a request that found a cell before this
  /// call and is still making its instance gets the instance, and its hook runs at once,
  /// so no instance is left that nothing holds and no hook ever runs for.
  ///
  /// - Parameter retiring: The container shuts down: cells made from now on keep nothing
  ///   either.
  func clear(retiring: Bool = false) -> [(instance: Instance, sequence: UInt64)] {
    let dropped = state.withLock { state in
      if retiring { state.isRetired = true }
      defer { state.cells = [:] }
      return Array(state.cells.values)
    }
    return dropped.compactMap { $0.retire() }
  }
}
