/// An async component that a synchronous attempt of an asynchronous request met before
/// its instance was made: the component, and where making it continues (the container
/// that makes it, on whose behalf, with which runtime arguments and request scope).
package final class AsyncNeed: Sendable {
  let component: Component
  let container: DIContainer
  let requester: DIModuleID?
  /// The runtime arguments, when the component is the one asked for (an `[Any]`).
  let arguments: Instance?
  let requestScope: DIRequestScope?

  init(
    component: Component, container: DIContainer, requester: DIModuleID?, arguments: [Any]?,
    requestScope: DIRequestScope?
  ) {
    self.component = component
    self.container = container
    self.requester = requester
    self.arguments = arguments.map { Instance(value: $0) }
    self.requestScope = requestScope
  }
}

/// The instances async factories made for the synchronous attempts of one asynchronous
/// request: an attempt that builds an async component takes the next one made for it,
/// and the next attempt starts again from the first (it builds the same graph).
final class PreparedInstances: @unchecked Sendable {
  // Used by one attempt at a time, on whichever thread runs it.
  private var made: [ObjectIdentifier: [Instance]] = [:]
  private var taken: [ObjectIdentifier: Int] = [:]

  /// Starts an attempt: every component's instances are available again.
  func rewind() {
    taken.removeAll(keepingCapacity: true)
  }

  /// The next instance made for `component` in this attempt, if there is one left; for a
  /// component of a caching lifetime, the one made last. It stays here until the request
  /// ends, so a `.weak` lifetime, which does not keep it, still finds it alive in the
  /// request's next attempt.
  func take(_ component: Component) -> Any? {
    let id = ObjectIdentifier(component)
    if component.asyncOnce != nil { return made[id]?.last?.value }
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
