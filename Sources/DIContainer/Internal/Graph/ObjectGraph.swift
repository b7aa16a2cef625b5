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
///
/// Reads of one delayed value may continue the graph on several threads at once. Each
/// keeps what it makes for itself (``RequestGraph/Reading``) and gives it to the graph once
/// its postponed work is done, all at once; the graph keeps the first instance of each
/// component (``keepFirst(_:)``). A read sees only what the graph had when it began, and
/// what it made: one instance of each component, never one that another read has not
/// finished. The resolution that made the graph stores what it makes as it goes, so a read
/// running while it builds may see its unfinished instances. Each postponed work belongs
/// to the read that postponed it (or to the thread that builds the graph), which alone
/// runs it.
package final class ObjectGraph: Sendable {
  /// An instance whose cycle-breaking injections and `postInit` wait for the graph.
  struct Pending: Sendable {
    /// The resolution that postponed the work: it runs the work before it returns.
    let owner: Postponer
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

  private enum Reference {
    case strong(Instance)
    case weak(WeakReference)
  }

  /// An instance, and the generation of the graph that gave it: a read that began
  /// before does not see it.
  private struct Slot {
    var reference: Reference
    var generation: Int

    /// The instance, if it is alive.
    var value: Any? {
      switch reference {
      case .strong(let instance): instance.value
      case .weak(let reference): reference.object
      }
    }
  }

  /// Who runs some postponed work: the thread's request, and how deep in it the read that
  /// postponed it runs (0 for the graph's other resolutions on that thread; see
  /// ``RequestGraph/postponer(in:)``).
  struct Postponer: Equatable, Sendable {
    let request: ObjectIdentifier
    let depth: Int
  }

  /// What a resolution continuing the graph sees: the instances given before it began.
  struct Generation {
    fileprivate let value: Int
  }

  private struct State: Sendable {
    var instances = SmallIdentityMap<Slot>()
    var pending: [Pending] = []
    /// The resolutions using the graph: the one that made it, then delayed ones.
    var users = 1
    /// How many times resolutions continuing the graph gave it instances.
    var generation = 0
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
      state.instances.set(Slot(reference: .strong(instance), generation: 0), for: component)
    }
    self.state = Locked(state)
  }

  /// The instance of `component`, if the graph has one alive; for a resolution that
  /// continues the graph, one the graph had when it began (`seen`).
  func instance(of component: Component, seen: Generation? = nil) -> Any? {
    state.withLock { state -> Any? in
      guard let slot = state.instances[ObjectIdentifier(component)],
        slot.generation <= seen?.value ?? .max
      else { return nil }
      return slot.value
    }
  }

  /// The one making at a time of the async `component`'s instance in this graph.
  func asyncOnce(for component: Component) -> AsyncOnce {
    state.withLock { AsyncOnce.shared(in: &$0.asyncOnces[ObjectIdentifier(component)]) }
  }

  /// Keeps `value` as the instance of the component `component` identifies: the
  /// resolution that made the graph stores what it makes.
  func store(_ value: Any, for component: ObjectIdentifier) {
    state.withLock {
      $0.instances.set(
        Slot(reference: .strong(Instance(value: value)), generation: 0), for: component)
    }
  }

  /// Keeps `made`, the complete instances of a read of the graph (a read of a delayed
  /// value, which may run beside others), unless the graph has a live instance of one of
  /// their components already (another read gave it first): all of them or none, since
  /// they may hold each other. Reads that begin later see them.
  func keepFirst(_ made: [(ObjectIdentifier, Instance)]) {
    guard !made.isEmpty else { return }
    state.withLock { state in
      guard made.allSatisfy({ state.instances[$0.0]?.value == nil }) else { return }
      state.generation += 1
      for (component, instance) in made {
        state.instances.set(
          Slot(reference: .strong(instance), generation: state.generation), for: component)
      }
    }
  }

  /// A delayed resolution starts using the graph; it sees what the graph has now.
  func enter() -> Generation {
    state.withLock {
      $0.users += 1
      return Generation(value: $0.generation)
    }
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
        guard case .strong(let instance) = slot.reference else { return slot }
        dropped.append(instance)
        return classInstance(instance.value).map {
          Slot(reference: .weak(WeakReference($0)), generation: slot.generation)
        }
      }
      return dropped
    }
  }

  func postpone(_ pending: Pending) {
    state.withLock { $0.pending.append(pending) }
  }

  /// The oldest postponed work of `owner` not yet taken.
  func takePending(of owner: Postponer) -> Pending? {
    state.withLock { state in
      guard let index = state.pending.firstIndex(where: { $0.owner == owner }) else {
        return nil
      }
      return state.pending.remove(at: index)
    }
  }

  /// Whether postponed work of `owner` is waiting to run.
  func hasPending(of owner: Postponer) -> Bool {
    state.withLock { $0.pending.contains { $0.owner == owner } }
  }

  /// Drops the postponed work of `owner`, which ended without running it (it failed).
  func dropPending(of owner: Postponer) {
    // What the lock returns is released after it.
    _ = state.withLock { state -> [Pending] in
      let dropped = state.pending.filter { $0.owner == owner }
      guard !dropped.isEmpty else { return [] }
      state.pending.removeAll { $0.owner == owner }
      return dropped
    }
  }
}
