extension DIRequestScope {
  /// The container, unless the scope holds it weakly and it is gone.
  var container: DIContainer? {
    switch reference {
    case .strong(let container): container
    case .weak(let reference): reference.object as? DIContainer
    }
  }

  /// The instance of the `.scoped` `component` in this scope, or the one `make` creates.
  ///
  /// Works like ``InstanceCell``: concurrent first requests make one instance (the others
  /// wait on the maker's lock, which is per instance, never shared with other
  /// components), and a request that re-enters on the making thread gets the instance
  /// published so far (a cycle through property injection) or a cycle error.
  func instance(
    of component: Component, key: RequestScopedKey,
    _ make: (_ publish: (Any) -> Void) throws(DIError) -> Any
  ) throws(DIError) -> Any {
    let id = ObjectIdentifier(key)
    let me = ThreadIdentity.current
    enum Step {
      case ready(Instance)
      case reentered(Instance?)
      case wait(Lock, creator: ThreadIdentity, partial: Instance?)
      case make(Lock)
      case closed
    }
    while true {
      let step = state.withLock { state -> Step in
        if state.isClosed { return .closed }
        switch state.entries[id] {
        case .ready(let instance, _, _): return .ready(instance)
        case .creating(let thread, let lock, let partial):
          return thread == me
            ? .reentered(partial) : .wait(lock, creator: thread, partial: partial)
        case nil:
          let lock = Lock()
          lock.lock()
          state.entries[id] = .creating(thread: me, lock: lock, partial: nil)
          return .make(lock)
        }
      }
      switch step {
      case .ready(let instance): return instance.value
      case .reentered(let partial):
        guard let partial else { throw DIError(.cycle) }
        return partial.value
      case .wait(let lock, let creator, let partial):
        guard CreationWaits.begin(me, waitingFor: creator) else {
          // The maker waits for this thread: serve what it made so far, as on one thread.
          guard let partial else { throw DIError(.cycle) }
          return partial.value
        }
        // The maker unlocks once the instance is ready (or failed); then look again.
        lock.withLock {}
        CreationWaits.end(me)
      case .closed:
        throw Self.closedError
      case .make(let lock):
        defer { lock.unlock() }
        return try create(component, id: id, lock: lock, make)
      }
    }
  }

  private func create(
    _ component: Component, id: ObjectIdentifier, lock: Lock,
    _ make: (_ publish: (Any) -> Void) throws(DIError) -> Any
  ) throws(DIError) -> Any {
    let me = ThreadIdentity.current
    let value: Any
    do throws(DIError) {
      value = try make { partial in
        state.withLock { state in
          guard case .creating = state.entries[id] else { return }
          state.entries[id] = .creating(thread: me, lock: lock, partial: Instance(value: partial))
        }
      }
    } catch {
      state.withLock { state in
        if case .creating = state.entries[id] { state.entries[id] = nil }
      }
      throw error
    }
    let instance = Instance(value: value)
    let hook = component.onClean
    let sequence = Teardown.nextSequence()
    let kept = state.withLock { state in
      guard !state.isClosed else { return false }
      state.entries[id] = .ready(instance, hook: hook, sequence: sequence)
      return true
    }
    guard kept else {
      // Closed while the instance was made: it is dropped now.
      if let hook { Teardown.run([Teardown(instance: instance, sequence: sequence, hook: hook)]) }
      throw Self.closedError
    }
    return value
  }

  /// A resolve in a scope after ``close()``.
  static var closedError: DIError {
    DIError(
      .invalid(
        "the request scope was closed; resolve from an open scope (container.makeScope())."))
  }

  /// A `.scoped` component asked for outside every request scope.
  static func outsideScopeError(_ component: Component) -> DIError {
    DIError(
      .invalid(
        "\(component.summary) is .scoped: it lives in a request scope, and this request"
          + " runs in none; resolve it from a scope: container.makeScope() or"
          + " container.scope(for: owner) (a Lazy or Provider made in a scope resolves"
          + " there while the scope is open)."))
  }

  /// Resolves `T` in this scope, as if `framework` asked, with runtime `arguments` for the
  /// component asked for.
  package func resolve<T>(
    _ type: T.Type, from framework: DIModuleID?, arguments: [Any]?
  ) throws(DIError) -> T {
    guard let container else {
      throw DIError(
        .invalid("the container of this request scope is gone."),
        requestedName: String(describing: T.self))
    }
    if isClosed {
      var error = Self.closedError
      error.enter(String(describing: T.self), component: nil)
      throw error
    }
    return try DIResolutionContext.with(
      container, requester: framework, arguments: arguments, requestScope: self
    ) { (context) throws(DIError) -> T in
      try context.value(T.self, tag: nil)
    }
  }
}
