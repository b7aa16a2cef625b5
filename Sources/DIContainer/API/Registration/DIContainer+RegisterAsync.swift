extension DIContainer {
  /// Registers a component made by an `async` `initializer`: a pool that connects, a
  /// client that loads its configuration. Its parameters are resolved by type, as for the
  /// synchronous `register` (async components among them are awaited).
  ///
  /// A synchronous closure picks the synchronous `register`, in async functions too. An
  /// async component is made by ``DIResolver/resolveAsync()`` (and the async forms:
  /// `AsyncLazy`, `AsyncProvider`, ``initializeSingletonObjectsAsync()``); a synchronous
  /// request that needs one not made yet fails with ``DIError/Code/asyncFactory``, and one
  /// already kept by its lifetime is returned. A caching lifetime makes it once under any
  /// number of tasks; a creation that throws or is cancelled keeps nothing. Its `arg`
  /// parameters (`DIArg`) take the runtime arguments of `resolveAsync(arg:)` or
  /// `resolveAsync(args:)`, in order, as a synchronous initializer's do.
  ///
  /// - Parameters:
  ///   - file: The registration's file, shown in errors and graphs.
  ///   - line: The registration's line.
  ///   - initializer: Makes an instance from its resolved parameters; may suspend and throw.
  /// - Returns: A builder to declare services, lifetime and injections.
  ///
  /// ```swift
  /// container.register { () async throws -> AsyncPool in try await AsyncPool.connect() }
  ///   .lifetime(.perContainer(.single))
  ///   .onClean { pool in await pool.close() }
  /// ```
  @discardableResult
  public func register<Impl, each Parameter>(
    file: StaticString = #fileID, line: UInt = #line,
    _ initializer: @escaping @Sendable (repeat each Parameter) async throws -> Impl
  ) -> DIComponentBuilder<Impl> {
    let factory: AsyncFactory = { (resolver: AsyncParameters) async throws(DIError) -> Any in
      let values = (repeat try await resolver.value((each Parameter).self))
      do {
        return try await initializer(repeat each values)
      } catch {
        throw DIError(thrownBy: Impl.self, error)
      }
    }
    let builder = add(
      Impl.self, file: file, line: line, factory: nil,
      parameters: DIRequest.describing(repeat (each Parameter).self))
    edit { $0.editMakingAsync(at: builder.index) { $0.asyncFactory = factory } }
    return builder
  }

  /// Registers a component for `Impl` made by an `async` `initializer` that returns an
  /// `Impl?`: a lookup that may find nothing, an async failable initializer.
  ///
  /// The component provides `Impl`, not `Impl?`, as the synchronous form does. A nil from
  /// the factory is a ``DIError`` (``DIError/Code/factoryReturnedNil``) naming this
  /// registration, for an optional request too: the component was chosen, and it failed.
  /// Nothing is cached for it, so the next request tries again. Everything else is as for
  /// an async factory returning `Impl`.
  ///
  /// - Parameters:
  ///   - file: The registration's file, shown in errors and graphs.
  ///   - line: The registration's line.
  ///   - initializer: Makes an instance from its resolved parameters, or returns nil; may
  ///     suspend and throw.
  /// - Returns: A builder to declare services, lifetime and injections.
  ///
  /// ```swift
  /// container.register { (name: DIArg<String>) async throws -> AsyncPool? in
  ///   guard !name.value.isEmpty else { return nil }   // nil: .factoryReturnedNil
  ///   return try await AsyncPool.connect()
  /// }
  /// let pool: AsyncPool = try await container.resolveAsync(arg: "orders")
  /// ```
  @discardableResult
  public func register<Impl, each Parameter>(
    file: StaticString = #fileID, line: UInt = #line,
    _ initializer: @escaping @Sendable (repeat each Parameter) async throws -> Impl?
  ) -> DIComponentBuilder<Impl> {
    register(file: file, line: line) {
      (parameters: repeat each Parameter) async throws -> Impl in
      guard let instance = try await initializer(repeat each parameters) else {
        throw DIError(.factoryReturnedNil(implementation: "\(Impl.self)"))
      }
      return instance
    }
  }
}
