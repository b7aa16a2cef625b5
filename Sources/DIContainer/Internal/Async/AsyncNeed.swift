/// A component that an asynchronous request makes before its synchronous pass (an async
/// one, or a cached one whose graph needs an async one; found by the request's plan, or
/// met by a pass): the component, and where making it continues (the container that makes
/// it, on whose behalf, with which runtime arguments, request scope and object graph).
package final class AsyncNeed: Sendable {
  let component: Component
  let container: DIContainer
  let requester: DIModuleID?
  /// The runtime arguments, when the component is the one asked for (an `[Any]`).
  let arguments: Instance?
  let requestScope: DIRequestScope?
  /// The request's runtime arguments addressed by type, which the making's own
  /// resolutions see too.
  let addressed: AddressedArguments?
  /// The object graph the request continues (an async delayed value's), which keeps an
  /// `.objectGraph` instance for every request of it.
  let graph: ObjectGraph?

  init(
    component: Component, container: DIContainer, requester: DIModuleID?, arguments: [Any]?,
    requestScope: DIRequestScope?, addressed: AddressedArguments? = nil,
    graph: ObjectGraph? = nil
  ) {
    self.component = component
    self.container = container
    self.requester = requester
    self.arguments = arguments.map { Instance(value: $0) }
    self.requestScope = requestScope
    self.addressed = addressed
    self.graph = graph
  }
}

extension AsyncNeed {
  /// The one making at a time of the component's instance (async, or synchronous with
  /// async components below it), nil for a lifetime that keeps none: the primitive of the place that keeps it (the cell, the `.multiton` cell of
  /// these arguments, the request scope), not of the compiled component, which another
  /// container or an edit of the registration may duplicate over the same place.
  var once: AsyncOnce? {
    switch component.storage {
    case .none: return nil
    case .objectGraph: return graph?.asyncOnce(for: component)
    case .cell(let cell): return cell.asyncOnce
    case .scoped(_, let cell): return cell.asyncOnce
    case .requestScoped(let key): return requestScope?.asyncOnce(for: key)
    case .multiton(let cells):
      guard let arguments = arguments?.value as? [Any],
        case .success(let key) = MultitonCells.Key.make(arguments)
      else { return nil }
      return cells.cell(for: key).asyncOnce
    }
  }
}

/// The instances async factories made for the synchronous passes of one asynchronous
/// request: a pass that builds an async component takes the next one made for it (a
/// cached or `.objectGraph` one: the one made last), and a pass run again starts from the
/// first (it builds the same graph).
final class PreparedInstances: @unchecked Sendable {
  // Used by one attempt at a time, on whichever thread runs it.
  private var made: [ObjectIdentifier: [Instance]] = [:]
  private var taken: [ObjectIdentifier: Int] = [:]
  /// The components of a caching lifetime whose instance this attempt took.
  private var takenCached: Set<ObjectIdentifier> = []

  /// Starts an attempt: every component's instances are available again.
  func rewind() {
    taken.removeAll(keepingCapacity: true)
    takenCached.removeAll(keepingCapacity: true)
  }

  /// Whether this attempt took the instance of `component`, of a caching lifetime: its
  /// lifetime then kept it, or dropped it and ran its hook.
  func tookInstance(of component: Component) -> Bool {
    takenCached.contains(ObjectIdentifier(component))
  }

  /// The next instance made for `component` in this attempt, if there is one left; for a
  /// component of a caching lifetime, the one made last. It stays here until the request
  /// ends, so a `.weak` lifetime, which does not keep it, still finds it alive in the
  /// request's next attempt.
  func take(_ component: Component) -> Any? {
    let id = ObjectIdentifier(component)
    // A cached instance, or an `.objectGraph` one: one per pass.
    if component.isAsyncCached || component.isObjectGraph {
      takenCached.insert(id)
      return made[id]?.last?.value
    }
    let index = taken[id, default: 0]
    guard let instances = made[id], index < instances.count else { return nil }
    taken[id] = index + 1
    return instances[index].value
  }

  /// Adds an instance made for `component`.
  func add(_ instance: Any, for component: Component) {
    made[ObjectIdentifier(component), default: []].append(Instance(value: instance))
  }
}
