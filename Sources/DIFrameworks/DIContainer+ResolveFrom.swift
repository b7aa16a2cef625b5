public import DIContainer

extension DIContainer {
  /// Resolves a `T` as if a component of `framework` asked for it, or stops the program
  /// with the `DIError` text when it cannot.
  ///
  /// Among several candidates, `framework`'s own wins, then one of the frameworks it
  /// imports, then the `.default()` one. Modifier types apply as in `resolve()`: `T?`
  /// gives nil when there is no unambiguous candidate, and
  /// `manyInFramework(container.resolve(from: F.self))` the framework's candidates.
  ///
  /// - Parameters:
  ///   - framework: The framework on whose behalf to resolve; it should be appended.
  ///   - file: The caller's file, shown when resolution fails.
  ///   - line: The caller's line.
  /// - Returns: The instance.
  ///
  /// ```swift
  /// let store: Store = container.resolve(from: BillingFramework.self)
  /// let cache: Cache? = container.resolve(from: BillingFramework.self)
  /// ```
  @available(
    *, noasync,
    message: "stops the program on a DIError; in async code use resolveAsync() or tryResolve()"
  )
  public func resolve<T>(
    from framework: any DIFramework.Type, file: StaticString = #fileID, line: UInt = #line
  ) -> T {
    trappingResolution(file: file, line: line) { () throws(DIError) in
      try self.tryResolve(from: framework)
    }
  }

  /// Resolves a `T` as if a component of `framework` asked for it, throwing a
  /// `DIError` that explains why when it cannot.
  ///
  /// - Parameter framework: The framework on whose behalf to resolve; it should be
  ///   appended (a warning is logged when it is not).
  /// - Returns: The instance.
  /// - Throws: `DIError` naming the path, the reason and the registrations involved.
  ///
  /// ```swift
  /// let store: Store = try container.tryResolve(from: BillingFramework.self)
  /// ```
  public func tryResolve<T>(from framework: any DIFramework.Type) throws(DIError) -> T {
    let module = DIModuleID(.framework, type: framework)
    warnIfNotAppended(module)
    return try resolve(T.self, from: module, arguments: nil)
  }

  /// Resolves a `T` as if a component of `framework` asked for it, awaiting the async
  /// factories of its graph (see `resolveAsync()`).
  ///
  /// - Parameter framework: The framework on whose behalf to resolve; it should be appended.
  /// - Returns: The instance.
  /// - Throws: `DIError` naming the path, the reason and the registrations involved.
  ///
  /// ```swift
  /// let store: Store = try await container.resolveAsync(from: BillingFramework.self)
  /// ```
  public func resolveAsync<T>(from framework: any DIFramework.Type) async throws(DIError) -> T {
    let module = DIModuleID(.framework, type: framework)
    warnIfNotAppended(module)
    return try await resolveAsync(T.self, from: module, arguments: nil)
  }

  /// Logs a warning when `module`, asked on behalf of, was not appended.
  private func warnIfNotAppended(_ module: DIModuleID) {
    guard !hasLoaded(module) else { return }
    DISetting.Log.log(
      .warning, "resolve(from: \(module)) but \(module) was not appended to this container")
  }
}
