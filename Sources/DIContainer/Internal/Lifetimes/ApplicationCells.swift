/// The process-wide cells of `.perApplication` and `.single` components: one per
/// registration site, whichever container the registration is made in.
///
/// Each cell knows the containers that compiled a registration of it, weakly: those that may
/// hand its instance out. ``DIContainer/shutdown()`` of one of them clears the cell only when
/// no other of them is still open, so a shared instance is cleaned (its `onClean` run) by the
/// last container that handed it out, never while another still resolves it.
enum ApplicationCells {
  struct Key: Hashable {
    let implementation: ObjectIdentifier
    let file: String
    let line: UInt
    let weak: Bool
  }

  private struct Entry {
    let cell: InstanceCell
    /// The containers that compiled a registration of this cell, weakly.
    var holders: [WeakReference] = []
  }

  private struct State {
    var entries: [Key: Entry] = [:]
    /// The key of each cell, by the cell's identity.
    var keys: [ObjectIdentifier: Key] = [:]
  }

  private static let state = Locked(State())

  /// The cell of the registration at `key`, made on first need, with `holder` among the
  /// containers that hand its instance out.
  static func cell(for key: Key, heldBy holder: DIContainer) -> InstanceCell {
    state.withLock { state in
      if state.entries[key] == nil {
        let cell = InstanceCell(weak: key.weak)
        state.entries[key] = Entry(cell: cell)
        state.keys[ObjectIdentifier(cell)] = key
      }
      let entry = state.entries[key]!
      if !entry.holders.contains(where: { $0.object === holder }) {
        state.entries[key]!.holders.removeAll { $0.object == nil }
        state.entries[key]!.holders.append(WeakReference(holder))
      }
      return entry.cell
    }
  }

  /// Takes `holder` off the containers of `cell`, as it shuts down; whether it was the last
  /// one still open (the cell is then to be cleared).
  static func release(_ cell: InstanceCell, by holder: DIContainer) -> Bool {
    state.withLock { state in
      guard let key = state.keys[ObjectIdentifier(cell)] else { return true }
      // A container that shut down took itself off already (it had compiled the cell).
      state.entries[key]!.holders.removeAll { reference in
        guard let container = reference.object else { return true }
        return container === holder
      }
      return state.entries[key]!.holders.isEmpty
    }
  }
}
