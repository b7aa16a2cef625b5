extension DIContainer {
  /// Runs `operation` with `overrides` registered on top of this container for the current
  /// task only: inside it, every request on this container sees them; other tasks and
  /// threads do not. The form for tests that run in parallel on one shared container.
  ///
  /// `overrides` registers on an override level, a child container of this one (see
  /// ``init(parent:defaultLifetime:)``) bound to the task: the level decides first (its candidate beats the
  /// container's), the container's `.prototype` and `.objectGraph` components resolved inside
  /// see the level's registrations, and the container's cached instances stay the
  /// container's. What the level caches (the overrides' `.perContainer`, `.multiton` and
  /// custom-scope instances, and the request scopes opened inside) is dropped, its `onClean`
  /// hooks awaited, when `operation` returns or throws.
  ///
  /// Every request made through this container in `operation` goes to the level: `resolve`,
  /// `tryResolve`, `resolveAsync` and their forms, `inject`, `makeScope()`, `withScope` and
  /// `scope(for:)`, and the `Lazy`, `Provider` and async delayed values those make (they
  /// keep the level). A `Lazy` made before `operation` keeps the container without the
  /// overrides. Nested calls stack: the inner overrides sit on the outer ones.
  ///
  /// The level is a task-local value, so it reaches the child tasks `operation` starts
  /// (`async let`, task groups, `Task { }`) but not `Task.detached` nor threads it starts. While
  /// no `withOverrides` runs anywhere in the process, a request pays one relaxed atomic load
  /// for this feature.
  ///
  /// - Parameters:
  ///   - isolation: The caller's actor, on which `operation` runs.
  ///   - overrides: Registers the overrides on the level it is given.
  ///   - operation: Runs with the overrides in place.
  /// - Returns: What `operation` returns.
  /// - Throws: What `overrides` or `operation` throws, after the level's hooks ran.
  ///
  /// ```swift
  /// let service: ProfileService = try await container.withOverrides { level in
  ///   level.register(FakeClock.init).as(Clock.self)
  /// } operation: {
  ///   try await container.resolveAsync()
  /// }
  /// ```
  public func withOverrides<Result>(
    isolation: isolated (any Actor)? = #isolation,
    _ overrides: (DIContainer) throws -> Void,
    operation: () async throws -> Result
  ) async rethrows -> Result {
    let entry = OverrideLevels.entry(over: self)
    OverrideLevels.enter()
    defer { OverrideLevels.leave() }
    do {
      try overrides(entry.level)
      let result = try await OverrideLevels.$current.withValue(entry, operation: operation)
      await entry.level.shutdownQuietly()
      return result
    } catch {
      await entry.level.shutdownQuietly()
      throw error
    }
  }

  /// Runs the synchronous `operation` with `overrides` registered on top of this container
  /// for the current thread's task (or the thread, outside a task) only: the form of
  /// ``withOverrides(isolation:_:operation:)`` for synchronous code (see <doc:TestingWithOverrides>).
  ///
  /// The level's cached instances are dropped when `operation` returns or throws; their
  /// synchronous `onClean` hooks run before this returns, the `async` ones on a task of their
  /// own (``shutdown()`` awaits them). Threads that `operation` starts do not see the level.
  ///
  /// - Parameters:
  ///   - overrides: Registers the overrides on the level it is given.
  ///   - operation: Runs with the overrides in place.
  /// - Returns: What `operation` returns.
  /// - Throws: What `overrides` or `operation` throws, after the level's hooks ran.
  ///
  /// ```swift
  /// let service: ProfileService = try container.withOverrides { level in
  ///   level.register(FakeClock.init).as(Clock.self)
  /// } operation: {
  ///   try container.tryResolve()
  /// }
  /// ```
  @_disfavoredOverload
  public func withOverrides<Result>(
    _ overrides: (DIContainer) throws -> Void,
    operation: () throws -> Result
  ) rethrows -> Result {
    let entry = OverrideLevels.entry(over: self)
    OverrideLevels.enter()
    defer { OverrideLevels.leave() }
    defer { entry.level.retireQuietly() }
    try overrides(entry.level)
    return try OverrideLevels.$current.withValue(entry, operation: operation)
  }
}

extension DIContainer {
  /// Shuts an override level down as ``shutdown()`` does, without its log line: the end of
  /// every `withOverrides` is no news.
  fileprivate func shutdownQuietly() async {
    switch retire() {
    case .retired(let teardowns, let finished):
      await Teardown.runAwaiting(teardowns)
      finished.signal()
    case .retiring(let finished):
      await finished.wait()
    }
  }

  /// Shuts an override level down from synchronous code: the synchronous steps of the hooks
  /// run now, the `async` ones on a task of their own (``shutdown()`` awaits them).
  fileprivate func retireQuietly() {
    guard case .retired(let teardowns, let finished) = retire() else { return }
    Teardown.run(teardowns)
    finished.signal()
  }
}
