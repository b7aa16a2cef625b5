/// What one `resolve` call shares: its `.objectGraph` instances and the injections it
/// postponed until the graph is built (`injection(cycle: true, …)`).
///
/// Made only when a request needs one. Delayed injection (`Lazy`, `Provider`) keeps the
/// graph it was made in, possibly on another thread, hence the lock.
package final class ObjectGraph: Sendable {
  /// An instance whose cycle-breaking injections and `postInit` wait for the graph.
  struct Pending: Sendable {
    let instance: Instance
    let component: Component
    /// How many postponements led here; a chain that never ends is a cycle.
    let generation: Int
  }

  private struct State {
    var instances: [ObjectIdentifier: Instance] = [:]
    var pending: [Pending] = []
    var nextPending = 0
  }

  private let state = Locked(State())

  func instance(of component: Component) -> Any? {
    state.withLock { $0.instances[ObjectIdentifier(component)]?.value }
  }

  func store(_ value: Any, for component: Component) {
    state.withLock { $0.instances[ObjectIdentifier(component)] = Instance(value: value) }
  }

  func postpone(_ pending: Pending) {
    state.withLock { $0.pending.append(pending) }
  }

  /// The oldest postponed work not yet taken.
  func takePending() -> Pending? {
    state.withLock { state in
      guard state.nextPending < state.pending.count else {
        state.pending.removeAll()
        state.nextPending = 0
        return nil
      }
      defer { state.nextPending += 1 }
      return state.pending[state.nextPending]
    }
  }
}
