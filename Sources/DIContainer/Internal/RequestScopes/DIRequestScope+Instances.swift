extension DIRequestScope {
  /// The container, unless the scope holds it weakly and it is gone.
  var container: DIContainer? {
    switch reference {
    case .strong(let container): container
    case .weak(let reference): reference.object as? DIContainer
    }
  }

  /// The instance of the `.scoped` `component` in this scope, or the one `make` creates
  /// for `request` (see ``CreateOnce``); `claimed` is the token of the making
  /// ``keptObjectOrClaim(for:by:)`` claimed for it, if it did.
  ///
  /// An instance made while the scope closes is dropped at once (its hook runs) and the
  /// request fails.
  func instance(
    of component: Component, for request: ResolutionRequest, claimed: UInt64? = nil,
    _ make: (_ publish: (Any) -> Void) throws(DIError) -> (Any, complete: Bool)
  ) throws(DIError) -> Any {
    guard let id = component.requestScopedID else {
      preconditionFailure("\(component.summary) is not .scoped")
    }
    // The hook is read when an instance is kept or dropped, not for one found ready.
    var kept = true
    // A `claimed` making is ended by `valueOrOpen` alone: nothing before it may throw, or
    // the making would stay open and every other request of it wait forever.
    let (instance, _) = try CreateOnce.valueOrOpen(
      in: state, key: id, for: request, claimed: claimed,
      make: { (publisher) throws(DIError) -> (Instance, complete: Bool) in
        // A scope closed since the request began refused the making (`State.refusal`).
        let (value, complete) = try make { publisher($0) }
        return (Instance(value: value), complete)
      },
      store: { state, instance in
        kept = state.keep(instance, for: id, hook: component.onClean)
      },
      leaveOpen: { instance, making in
        request.leaveOpen { keep in
          guard keep else {
            making.abandon()
            // Dropped by a request that backs off: its factory ran.
            if request.backoff != nil { Self.drop(instance, hook: component.onClean) }
            return
          }
          let hook = component.onClean
          guard !making.commit({ $0.keep(instance, for: id, hook: hook) }) else { return }
          Self.drop(instance, hook: hook)
        }
      },
      drop: { Self.drop($0, hook: component.onClean) })
    guard kept else {
      Self.drop(instance, hook: component.onClean)
      throw Self.closedError
    }
    return instance.value
  }

  /// Whether this scope keeps an instance of the `.scoped` component of `key` now.
  func keeps(_ key: ObjectIdentifier) -> Bool {
    state.withLock { $0.instances[key] != nil }
  }

  /// What a request of the `.scoped` component of `key` finds, under one lock: the class
  /// instance this scope keeps for it, read in place with nothing copied but the
  /// reference (what most requests find); or, when the scope is open and neither keeps
  /// nor makes one, the making claimed for `request`, as ``CreateOnce`` claims it (the
  /// usual first request), whose token ``instance(of:for:claimed:_:)`` then takes.
  func keptObjectOrClaim(for key: ObjectIdentifier, by request: ObjectIdentifier) -> FirstLook {
    state.withLock { state in
      if let kept = state.instances.keptObject(for: key) {
        return kept.map(FirstLook.kept) ?? .undecided
      }
      guard state.refusal == nil, !state.isMaking(key) else { return .undecided }
      return .claimed(token: CreateOnce.startMaking(in: &state, key: key, by: request))
    }
  }

  /// What ``keptObjectOrClaim(for:by:)`` found.
  enum FirstLook {
    /// The class instance the scope keeps.
    case kept(AnyObject)
    /// The making, now the request's.
    case claimed(token: UInt64)
    /// A kept value that is no class instance, another making under way, or a closed
    /// scope: the create-once path decides.
    case undecided
  }

  /// Runs the hook of an instance made while the scope closed: it is dropped now.
  private static func drop(_ instance: Instance, hook: CleanHook?) {
    Teardown.drop(instance, sequence: Teardown.nextSequence(), hook: hook)
  }

  /// One making at a time of the instance of the async `.scoped` component of `key` in
  /// this scope, across tasks (other scopes make theirs meanwhile).
  func asyncOnce(for key: RequestScopedKey) -> AsyncOnce {
    state.withLock { AsyncOnce.shared(in: &$0.asyncOnces[ObjectIdentifier(key)]) }
  }

  /// A resolve in a scope after ``close()``.
  static var closedError: DIError {
    DIError(.scopeClosed(delayed: nil))
  }

  /// A `.scoped` component asked for outside every request scope.
  static func outsideScopeError(_ component: Component) -> DIError {
    DIError(.outsideScope(component: component.summary))
  }

  /// The container, for a request of `type` in this scope, which must be open.
  func openContainer(for type: Any.Type) throws(DIError) -> DIContainer {
    guard let container else {
      throw DIError(
        .containerReleased(owner: "this request scope"),
        requestedName: String(describing: type))
    }
    if isClosed {
      var error = Self.closedError
      error.enter(String(describing: type), component: nil)
      throw error
    }
    return container
  }

  /// Resolves `T` in this scope, as if `framework` asked, with runtime `arguments` for the
  /// component asked for.
  package func resolve<T>(
    _ type: T.Type, from framework: DIModuleID?, arguments: [Any]?
  ) throws(DIError) -> T {
    let container = try openContainer(for: T.self)
    return try DIResolutionContext.with(
      container, requester: framework, arguments: arguments, requestScope: self
    ) { (context) throws(DIError) -> T in
      try context.valueWithArguments(T.self, tag: nil)
    }
  }
}
