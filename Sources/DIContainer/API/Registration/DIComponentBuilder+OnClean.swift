extension DIComponentBuilder {
  /// Runs `hook` on each instance the library drops, so it can close what it holds
  /// (connection pools, file handles, clients).
  ///
  /// A hook runs exactly once per instance, when the instance is dropped by
  /// ``DIContainer/clean()`` (`.perContainer`, `.multiton`), `clean(framework:)`
  /// (`.perFramework`), `clean(part:)` (`.perPart`), ``DIScope/clean()`` or
  /// ``DIContainer/clean(scope:)`` (`.custom`), or by ``DIRequestScope/close()``
  /// (`.scoped`). The hooks of one clean run after it released its locks, in reverse order
  /// of creation: an instance's dependents (made after it) are cleaned before it. A hook
  /// that throws is logged through ``DISetting/Log`` at ``DILogLevel/error`` and the
  /// other hooks still run.
  ///
  /// Nothing runs for instances the library does not drop: `.prototype` and `.objectGraph`
  /// ones (their callers own them), `.perApplication` and `.single` ones (kept for the
  /// process), a `.weak` instance that is already gone, or a value a ``DIStorage`` of
  /// your own forgot by itself (expired) or that does not implement
  /// ``DIStorage/removeAll()``. Several `onClean` calls add hooks that run in call order.
  ///
  /// - Parameter hook: Receives the dropped instance; may throw.
  /// - Returns: This builder.
  ///
  /// ```swift
  /// container.register(DatabasePool.init)
  ///   .lifetime(.perFramework(.single))
  ///   .onClean { pool in pool.close() }
  /// ```
  @discardableResult
  public func onClean(_ hook: @escaping @Sendable (Impl) throws -> Void) -> Self {
    // The component makes only `Impl` instances.
    edit { $0.onClean.append(.sync { instance in try hook(Self.made(instance)) }) }
  }

  /// Runs the `async` `hook` on each instance the library drops: what a connection pool's
  /// `await pool.close()` needs.
  ///
  /// It runs when the synchronous hooks do (see ``onClean(_:)-3sk0e``), awaited by
  /// ``DIContainer/shutdown()``, ``DIContainer/withScope(isolation:_:)`` and
  /// ``DIRequestScope/closeAwaitingHooks()``. When a synchronous call drops the instance
  /// (`clean()`, `clean(framework:)`, `close()`, …), the hook is not lost: it starts at
  /// once on a task of its own, runs exactly once, and `shutdown()` waits for it. An
  /// instance's hooks run in the order they were added, whatever their kind.
  ///
  /// - Parameter hook: Receives the dropped instance; may suspend and throw.
  /// - Returns: This builder.
  ///
  /// ```swift
  /// container.register(AsyncPool.init)
  ///   .lifetime(.perContainer(.single))
  ///   .onClean { pool in await pool.close() }
  /// ```
  @discardableResult
  public func onClean(_ hook: @escaping @Sendable (Impl) async throws -> Void) -> Self {
    edit { draft in
      draft.onClean.append(
        .async { instance in
          // The component makes only `Impl` instances.
          try await hook(Self.made(instance))
        })
    }
  }
}
