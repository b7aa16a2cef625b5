/// What one `resolve` call shares: its `.objectGraph` instances and the injections it
/// postponed until the graph is built (`injection(cycle: true, …)`).
///
/// Made only when a request needs one: until then the thread's request keeps the graph's
/// instances (``InlineGraphs``), and this object takes them when it is made. Delayed
/// injection (`Lazy`, `Provider`) keeps the graph it was made in, possibly on another
/// thread, hence the lock.
///
/// While resolutions use the graph it holds its instances strongly; once the last one is
/// over (``leave()``) it holds them weakly, so a `Provider` kept by an `.objectGraph`
/// object does not keep that object alive through its graph. An object still alive is
/// reused by later resolutions of the graph; one nobody holds any more is made anew.
package final class ObjectGraph: Sendable {
  /// An instance whose cycle-breaking injections and `postInit` wait for the graph.
  struct Pending: Sendable {
    let instance: Instance
    let component: Component
    /// The plain injections that needed an instance still under construction.
    let waiting: [Int]
    /// The `.prototype` postponements whose work led here, this one last if it is one;
    /// the same one twice is a loop that would never end.
    let postponedBy: [Postponement]
    /// The components under construction when it was postponed, outermost first, after
    /// the path of the postponed work that led here: a failure of its postponed work names
    /// the path from what was asked (see ``ResolutionRequest/postponementPath``).
    let path: PostponedPath
  }

  /// A `.prototype` component postponed its injections when its resolution had built
  /// `builds` reusable instances.
  struct Postponement: Equatable, Sendable {
    let component: ObjectIdentifier
    let builds: Int
  }

  private enum Slot {
    case strong(Instance)
    case weak(WeakReference)
  }

  private struct State: Sendable {
    var instances = SmallIdentityMap<Slot>()
    var pending: [Pending] = []
    var nextPending = 0
    /// The resolutions using the graph: the one that made it, then delayed ones.
    var users = 1
    /// One making at a time of each async `.objectGraph` component's instance, across the
    /// requests that continue this graph (reads of one async delayed value).
    var asyncOnces: [ObjectIdentifier: AsyncOnce] = [:]
  }

  // A `Locked`, whose lock ThreadSanitizer sees: a delayed value reads the graph from any
  // thread.
  private let state: Locked<State>

  /// The graph's identity, which the frames of its components under construction name.
  let id: GraphID

  /// A graph `id` whose resolution has made `instances` so far (first made first), for
  /// which the resolution now needs an object.
  init(id: GraphID, instances: [(ObjectIdentifier, Instance)]) {
    self.id = id
    var state = State()
    for (component, instance) in instances {
      state.instances.set(.strong(instance), for: component)
    }
    self.state = Locked(state)
  }

  func instance(of component: Component) -> Any? {
    state.withLock { state -> Any? in
      switch state.instances[ObjectIdentifier(component)] {
      case .strong(let instance): instance.value
      case .weak(let reference): reference.object
      case nil: nil
      }
    }
  }

  /// Keeps `value` as the instance of the component `component` identifies.
  /// The one making at a time of the async `component`'s instance in this graph.
  func asyncOnce(for component: Component) -> AsyncOnce {
    state.withLock { AsyncOnce.shared(in: &$0.asyncOnces[ObjectIdentifier(component)]) }
  }

  func store(_ value: Any, for component: ObjectIdentifier) {
    state.withLock { $0.instances.set(.strong(Instance(value: value)), for: component) }
  }

  /// A delayed resolution starts using the graph.
  func enter() {
    state.withLock { $0.users += 1 }
  }

  /// A resolution using the graph is over; after the last one the graph holds its objects
  /// weakly and drops its values.
  func leave() {
    // What the lock returns is released after it.
    _ = state.withLock { state -> [Instance] in
      state.users = max(state.users - 1, 0)
      guard state.users == 0 else { return [] }
      var dropped: [Instance] = []
      state.instances.update { slot in
        guard case .strong(let instance) = slot else { return slot }
        dropped.append(instance)
        return classInstance(instance.value).map { .weak(WeakReference($0)) }
      }
      return dropped
    }
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

  /// Whether postponed work is waiting to run.
  var hasPending: Bool {
    state.withLock { $0.nextPending < $0.pending.count }
  }
}
