extension DIContainer {
  /// Drops every instance the container holds and runs their `onClean` hooks, awaiting
  /// the `async` ones; afterwards every request fails with a ``DIError`` whose code is
  /// ``DIError/Code/containerShutDown``.
  ///
  /// What it drops: the instances of its registrations of every caching lifetime
  /// (`.perContainer`, `.perFramework`, `.perPart`, `.multiton`, and the `.single` and
  /// `.perApplication` ones), those of the custom scopes its registrations use, and the
  /// request scopes it opened that are still open (closed now). A request already under
  /// way that makes an instance of the container's own lifetimes afterwards gets it, and
  /// its hook runs at once: the container keeps nothing more. The hooks run in reverse
  /// order of creation, dependents first; a hook that throws is logged and the others still
  /// run. It then waits for the `async` hooks that synchronous calls (`clean()`, `close()`,
  /// …) started on tasks of their own. A child container's parent is not shut down.
  ///
  /// ```swift
  /// await container.shutdown()   // in a server's graceful shutdown, after the listener stops
  /// ```
  public func shutdown() async {
    let teardowns = retire()
    DISetting.Log.log(.info, "shutting down: \(teardowns.count) instances with onClean hooks")
    await Teardown.runAwaiting(teardowns)
    await TeardownTasks.waitForAll()
  }

  /// Shuts the container down, as ``shutdown()`` does, except that the hooks are left to the
  /// caller: it returns the teardowns of every instance it dropped.
  func retire() -> [Teardown] {
    let components = snapshot.components
    edit { $0.isShutDown = true }
    var teardowns = drop(components, retiring: true) { _ in true }
    var scopes: [ObjectIdentifier: DIScope] = [:]
    for component in components {
      if case .scoped(let scope, _) = component.storage { scopes[ObjectIdentifier(scope)] = scope }
    }
    teardowns += scopes.values.flatMap { $0.drop() }
    teardowns += openScopes.takeAll().flatMap { DIRequestScope.drop($0) ?? [] }
    return teardowns
  }

  /// Runs `body` with a new request scope, and closes the scope when `body` returns or
  /// throws, after awaiting its instances' `onClean` hooks: the form HTTP middleware and
  /// job runners need (it works for requests that are structs).
  ///
  /// - Parameters:
  ///   - isolation: The caller's actor, on which `body` runs.
  ///   - body: Uses the scope; its `.scoped` instances live until it ends.
  /// - Returns: What `body` returns.
  /// - Throws: What `body` throws, unchanged.
  ///
  /// ```swift
  /// let status = try await container.withScope { scope in
  ///   let handler: Handler = try await scope.resolveAsync()
  ///   handler.handle()
  ///   return 200
  /// }
  /// ```
  public func withScope<Result>(
    isolation: isolated (any Actor)? = #isolation,
    _ body: (DIRequestScope) async throws -> Result
  ) async rethrows -> Result {
    let scope = makeScope()
    do {
      let result = try await body(scope)
      await scope.closeAwaitingHooks()
      return result
    } catch {
      await scope.closeAwaitingHooks()
      throw error
    }
  }
}
