/// The forms that address runtime arguments to any component of the request by its type
/// (``DIArgument``), where `resolve(args:)` gives them to the component asked for only.
///
/// They take at least one ``DIArgument``, so they never meet the positional forms: a
/// `[Any]` (`tryResolve(arguments: ["Mimi"])`, `resolveAsync(arguments: [])`) still picks
/// the positional `tryResolve(arguments:)` / `resolveAsync(arguments:)`, and `.for(…)` only
/// these. Arguments addressed to a type the request builds no component of (none asked for
/// it, or its instance was kept already) fail the request with
/// ``DIError/Code/extraArguments`` naming that type; more values than the component has
/// `arg` parameters too. They do not take part in the choice among several candidates.
/// They reach the components the request builds, through nested resolutions too, not those
/// a `Lazy` or `Provider` made in it builds later.
extension DIResolver {
  /// Resolves a `T` with runtime arguments addressed to components of its graph by type,
  /// or stops the program with the ``DIError`` text when it cannot. ``DIArgument`` says
  /// which component takes which values.
  ///
  /// - Parameters:
  ///   - first: Values for the `arg` parameters of one component of the request.
  ///   - rest: Values for others.
  ///   - file: The caller's file, shown when resolution fails.
  ///   - line: The caller's line.
  /// - Returns: The instance.
  ///
  /// ```swift
  /// container.register { Cat(name: arg($0)) }.as(Pet.self)
  /// container.register(House.init)
  /// let house: House = container.resolve(arguments: .for(Cat.self, "Mimi"))
  /// ```
  @available(
    *, noasync,
    message: "stops the program on a DIError; in async code use resolveAsync() or tryResolve()"
  )
  public func resolve<T>(
    arguments first: DIArgument, _ rest: DIArgument..., file: StaticString = #fileID,
    line: UInt = #line
  ) -> T {
    let addressed = AddressedArguments([first] + rest)
    return trappingResolution(file: file, line: line) { () throws(DIError) -> T in
      try resolve(addressed: addressed)
    }
  }

  /// Resolves a `T` with runtime arguments addressed to components of its graph by type:
  /// those for the component asked for and those for its dependencies, at any depth
  /// (``DIArgument`` says which component takes which values).
  ///
  /// - Parameters:
  ///   - first: Values for the `arg` parameters of one component of the request.
  ///   - rest: Values for others.
  /// - Returns: The instance.
  /// - Throws: ``DIError`` naming the path, the reason and the registrations involved;
  ///   ``DIError/Code/extraArguments`` for arguments no component of the request took.
  ///
  /// ```swift
  /// container.register { Cat(name: arg($0)) }.as(Pet.self)
  /// container.register(House.init)
  /// let house: House = try container.tryResolve(arguments: .for(Cat.self, "Mimi"))
  /// ```
  public func tryResolve<T>(arguments first: DIArgument, _ rest: DIArgument...) throws(DIError)
    -> T
  {
    try resolve(addressed: AddressedArguments([first] + rest))
  }

  /// Resolves a `T` with runtime arguments addressed to components of its graph by type,
  /// awaiting the async factories of the graph: an async component takes its addressed
  /// arguments at any depth, as a synchronous one does.
  ///
  /// A ``DIContainer`` and a ``DIRequestScope`` await; another conformer resolves
  /// synchronously, through ``tryResolve(arguments:)``.
  ///
  /// - Parameters:
  ///   - first: Values for the `arg` parameters of one component of the request.
  ///   - rest: Values for others.
  /// - Returns: The instance.
  /// - Throws: ``DIError`` naming the path, the reason and the registrations involved;
  ///   ``DIError/Code/extraArguments`` for arguments no component of the request took.
  ///
  /// ```swift
  /// container.register { (name: DIArg<String>) async -> Cat in Cat(name: name.value) }
  ///   .as(Pet.self)
  /// container.register(House.init)
  /// let house: House = try await container.resolveAsync(arguments: .for(Cat.self, "Mimi"))
  /// ```
  public func resolveAsync<T>(
    arguments first: DIArgument, _ rest: DIArgument...
  ) async throws(DIError) -> T {
    let addressed = AddressedArguments([first] + rest)
    let value: T
    if let resolver = self as? any AddressedAsyncResolver {
      value = try await resolver.resolveAsync(T.self, addressed: addressed)
    } else {
      value = try addressed.installed { () throws(DIError) -> T in try tryResolve(arguments: []) }
    }
    try addressed.checkAllTaken(requested: T.self)
    return value
  }

  /// Resolves a `T` with `addressed` installed on the thread's request, then checks that
  /// the request took them all.
  private func resolve<T>(addressed: AddressedArguments) throws(DIError) -> T {
    let value = try addressed.installed { () throws(DIError) -> T in try tryResolve(arguments: []) }
    try addressed.checkAllTaken(requested: T.self)
    return value
  }
}

/// A resolver that awaits the async factories of a request with arguments addressed by
/// type (the `resolveAsync(arguments:)` form of ``DIArgument``).
protocol AddressedAsyncResolver: Sendable {
  /// Resolves `T` asynchronously with `addressed` for the components of its graph.
  func resolveAsync<T>(_ type: T.Type, addressed: AddressedArguments) async throws(DIError) -> T
}

extension DIContainer: AddressedAsyncResolver {
  /// Resolves `T` asynchronously from outside every framework, with `addressed`.
  func resolveAsync<T>(_ type: T.Type, addressed: AddressedArguments) async throws(DIError) -> T {
    try await resolveAsync(
      T.self, from: nil, arguments: nil, requestScope: nil, addressed: addressed)
  }
}

extension DIRequestScope: AddressedAsyncResolver {
  /// Resolves `T` asynchronously in this scope, with `addressed`.
  func resolveAsync<T>(_ type: T.Type, addressed: AddressedArguments) async throws(DIError) -> T {
    let container = try openContainer(for: T.self)
    return try await container.resolveAsync(
      T.self, from: nil, arguments: nil, requestScope: self, addressed: addressed)
  }
}
