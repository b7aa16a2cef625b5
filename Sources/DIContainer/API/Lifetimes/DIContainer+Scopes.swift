extension DIContainer {
  /// Drops every instance of the custom scope this container knows by `name` (see
  /// ``DILifetime/custom(name:)``); nothing when it knows none.
  ///
  /// - Parameter name: The scope's name.
  ///
  /// ```swift
  /// container.register(Cart.init).lifetime(.custom(name: "Session"))
  /// container.clean(scope: "Session")
  /// ```
  public func clean(scope name: String) {
    guard let scope = scope(named: name) else {
      let known = registry.withLock { Array($0.scopes.keys) }
      DISetting.Log.log(
        .warning,
        "clean(scope: \"\(name)\"): this container has no scope named \"\(name)\""
          + Self.suggestion(ClosestName.to(name, in: known).map { "\"\($0)\"" }, among: known)
          + "; nothing was cleaned.")
      return
    }
    scope.clean()
  }

  /// The custom scope this container knows by `name`: the first one a registration used
  /// with `.custom(_:)` or `.custom(name:)`.
  ///
  /// - Parameter name: The scope's name.
  /// - Returns: The scope, or nil.
  ///
  /// ```swift
  /// container.register(Cart.init).lifetime(.custom(name: "Session"))
  /// let session = container.scope(named: "Session")
  /// ```
  public func scope(named name: String) -> DIScope? {
    registry.withLock { $0.scopes[name] }
  }

  /// Creates now the instances of every component of this container in `scope`, as
  /// ``initializeSingletonObjects()`` does for `.single`.
  ///
  /// A component that cannot be made is logged as an error and left to fail again at its
  /// first request. Instances a scope already keeps are not made again.
  ///
  /// - Parameter scope: The scope to fill.
  ///
  /// ```swift
  /// let session = DIScope(name: "Session")
  /// container.register(Cart.init).lifetime(.custom(session))
  /// container.initializeObjectsForScope(session)
  /// ```
  public func initializeObjectsForScope(_ scope: DIScope) {
    initializeObjects(for: "initializeObjectsForScope(\(scope.name))") { component in
      if case .custom(let own) = component.lifetime { return own === scope }
      return false
    }
  }

  /// Creates now the instances of every component of this container in `scope`, awaiting
  /// async factories.
  ///
  /// - Parameter scope: The custom scope whose instances to create.
  /// - Throws: The first ``DIError``.
  ///
  /// ```swift
  /// try await container.initializeObjectsForScopeAsync(session)
  /// ```
  public func initializeObjectsForScopeAsync(_ scope: DIScope) async throws(DIError) {
    try await initializeObjectsAsync { component in
      if case .custom(let own) = component.lifetime { return own === scope }
      return false
    }
  }
}
