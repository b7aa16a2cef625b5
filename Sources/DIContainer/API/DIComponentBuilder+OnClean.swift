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
    edit { draft in
      let previous = draft.onClean
      draft.onClean = { instance in
        var failure: (any Error)?
        do { try previous?(instance) } catch { failure = error }
        // The component makes only `Impl` instances.
        do { try hook(instance as! Impl) } catch { failure = failure ?? error }
        if let failure { throw failure }
      }
    }
  }
}
