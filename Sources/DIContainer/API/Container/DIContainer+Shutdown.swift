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
  /// Calls made while one runs (a signal handler and the service lifecycle, say) return
  /// when it returns: after every hook has run. A `.single` or `.perApplication` instance,
  /// which every container with its registration shares, is dropped only by the last of
  /// those containers to shut down, never while another still hands it out.
  ///
  /// ```swift
  /// await container.shutdown()   // in a server's graceful shutdown, after the listener stops
  /// ```
  public func shutdown() async {
    switch retire() {
    case .retired(let teardowns, let finished):
      DISetting.Log.log(.info, "shutting down: \(teardowns.count) instances with onClean hooks")
      await Teardown.runAwaiting(teardowns)
      await TeardownTasks.waitForAll()
      finished.signal()
    case .retiring(let finished):
      // Another call shuts it down: return when it has, every hook run, and the hooks of
      // instances made late (after its drop) that run on tasks of their own too.
      await finished.wait()
      await TeardownTasks.waitForAll()
    }
  }

  /// What ``retire()`` did.
  enum Retirement {
    /// It shut the container down: the teardowns of every instance it dropped, for the
    /// caller to run, and the event to signal once they have run.
    case retired([Teardown], finished: AsyncEvent)
    /// An earlier call shuts it down; the event happens once that call's hooks have run.
    case retiring(AsyncEvent)
  }

  /// Shuts the container down, as ``shutdown()`` does, except that the hooks are left to the
  /// caller; or, when shutting down began already, says so.
  func retire() -> Retirement {
    let components = snapshot.components
    let (first, finished) = edit { registry -> (Bool, AsyncEvent) in
      if let finished = registry.shutDown { return (false, finished) }
      let finished = AsyncEvent()
      registry.shutDown = finished
      return (true, finished)
    }
    guard first else { return .retiring(finished) }
    var teardowns = drop(components, retiring: true) { _ in true }
    var scopes: [ObjectIdentifier: DIScope] = [:]
    for component in components {
      if case .scoped(let scope, _) = component.storage { scopes[ObjectIdentifier(scope)] = scope }
    }
    teardowns += scopes.values.flatMap { $0.drop() }
    teardowns += openScopes.takeAll().flatMap { DIRequestScope.drop($0) ?? [] }
    return .retired(teardowns, finished: finished)
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
