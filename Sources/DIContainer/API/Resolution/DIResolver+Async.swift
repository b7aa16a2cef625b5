import Synchronization

extension DIResolver {
  /// Resolves a `T` with runtime `arguments`, awaiting the async factories of its graph:
  /// the requirement the `resolveAsync` forms use. Conformers that cannot await resolve
  /// synchronously (the default).
  ///
  /// - Parameter arguments: Go, in order, to the `arg($0)` parameters of the component.
  /// - Returns: The instance.
  /// - Throws: ``DIError`` naming the path, the reason and the registrations involved.
  ///
  /// ```swift
  /// let pool: DatabasePool = try await resolver.resolveAsync(arguments: [])
  /// ```
  public func resolveAsync<T>(arguments: [Any]) async throws(DIError) -> T {
    try tryResolve(arguments: arguments)
  }

  /// Resolves a `T`, awaiting the async factories (`register { … async … }`) of its graph.
  ///
  /// Every form of `resolve` has it: `T?`, `many(try await resolver.resolveAsync())`,
  /// `by(tag:on: try await resolver.resolveAsync())`, runtime arguments. An async
  /// component of a caching lifetime is made once, however many tasks ask: the others
  /// suspend until it is made (no thread blocks). Every factory of the graph runs once for
  /// each instance the graph gets: the request first makes the async components its graph
  /// needs (found from the registrations' parameter types), then builds the rest in one
  /// synchronous pass. A factory that resolves from inside its body (one that captures the
  /// container and calls `tryResolve()`) may meet an async component that is not made:
  /// the request makes it and builds the graph again, so that pass's synchronous factories
  /// run again.
  /// `.objectGraph` instances are shared within the synchronous pass, not across an async
  /// factory's parameters.
  ///
  /// - Returns: The instance.
  /// - Throws: ``DIError`` naming the path, the reason and the registrations involved; a
  ///   factory's own error is its ``DIError/underlyingError``.
  ///
  /// ```swift
  /// let pool: DatabasePool = try await container.resolveAsync()
  /// ```
  public func resolveAsync<T>() async throws(DIError) -> T {
    try await resolveAsync(arguments: [])
  }

  /// Resolves a `T` with one runtime argument, awaiting the async factories of its graph.
  ///
  /// - Parameter argument: Goes to the first `arg($0)` parameter of the component.
  /// - Returns: The instance.
  /// - Throws: ``DIError`` when it cannot be made.
  ///
  /// ```swift
  /// let cat: Cat = try await resolver.resolveAsync(arg: "Mimi")
  /// ```
  public func resolveAsync<T, Argument>(arg argument: Argument) async throws(DIError) -> T {
    try await resolveAsync(arguments: [argument])
  }

  /// Resolves a `T` with runtime arguments, in order, awaiting the async factories of its
  /// graph.
  ///
  /// - Parameters:
  ///   - first: Goes to the first `arg($0)` parameter.
  ///   - rest: Go to the following ones.
  /// - Returns: The instance.
  /// - Throws: ``DIError`` when it cannot be made.
  ///
  /// ```swift
  /// let cat: Cat = try await resolver.resolveAsync(args: "Mimi", 3)
  /// ```
  public func resolveAsync<T, First, each Rest>(
    args first: First, _ rest: repeat each Rest
  ) async throws(DIError) -> T {
    var arguments: [Any] = [first]
    for argument in repeat each rest { arguments.append(argument) }
    return try await resolveAsync(arguments: arguments)
  }
}

extension DIContainer {
  /// Resolves a `T`, awaiting the async factories of its graph (see
  /// ``DIResolver/resolveAsync()``): the container's own form, which resolves a graph with
  /// nothing to await (its async components made already, or none) as a synchronous
  /// resolve does, without suspending.
  ///
  /// - Returns: The instance.
  /// - Throws: ``DIError`` naming the path, the reason and the registrations involved; a
  ///   factory's own error is its ``DIError/underlyingError``.
  ///
  /// ```swift
  /// let pool: DatabasePool = try await container.resolveAsync()
  /// ```
  @inlinable @inline(__always)  // The first attempt is synchronous (Benchmarks/PROFILE.md).
  public func resolveAsync<T>() async throws(DIError) -> T {
    // A container with async registrations plans the request before building anything,
    // unless its graph can reach only async singletons that are made.
    var failed: DIError?
    if !mayAwaitComponents || !plansFirst(T.self, in: nil) {
      do throws(DIError) {
        return try resolved(T.self, site: nil)
      } catch {
        failed = error
      }
    }
    return try await resolveAsync(T.self, after: failed, requestScope: nil)
  }

  /// Whether an asynchronous request may meet an async component: this container or a
  /// parent has an async registration, or a task overrides registrations. One that may is
  /// planned (``AsyncPlan``) before anything is built; any other is one synchronous pass.
  @inlinable @inline(__always)
  var mayAwaitComponents: Bool {
    registersAsyncComponents.load(ordering: .relaxed) || OverrideLevels.areInUse
      || (parent != nil && parentsRegisterAsyncComponents())
  }

  /// Whether a parent, or its parent, has an async registration.
  @usableFromInline
  func parentsRegisterAsyncComponents() -> Bool {
    var level = parent
    while let container = level {
      if container.registersAsyncComponents.load(ordering: .relaxed) { return true }
      level = container.parent
    }
    return false
  }

  /// Resolves a `T` with runtime `arguments` (none when empty), awaiting the async
  /// factories of its graph (see ``DIResolver/resolveAsync()``).
  ///
  /// - Parameter arguments: Go, in order, to the `arg($0)` parameters of the component.
  /// - Returns: The instance.
  /// - Throws: ``DIError`` naming the path, the reason and the registrations involved.
  ///
  /// ```swift
  /// let pool: DatabasePool = try await container.resolveAsync(arguments: [])
  /// ```
  public func resolveAsync<T>(arguments: [Any]) async throws(DIError) -> T {
    try await resolveAsync(T.self, from: nil, arguments: arguments.isEmpty ? nil : arguments)
  }

  /// Resolves `T` asynchronously as if `framework` asked (nil: from outside every
  /// framework), with runtime `arguments`, in `requestScope` if there is one.
  package func resolveAsync<T>(
    _ type: T.Type, from framework: DIModuleID?, arguments: [Any]?,
    requestScope: DIRequestScope? = nil
  ) async throws(DIError) -> T {
    try await resolveAsync(
      T.self, from: framework, arguments: arguments, requestScope: requestScope, addressed: nil)
  }

  /// ``resolveAsync(_:from:arguments:requestScope:)`` with the runtime arguments
  /// `addressed` by type, if there are some.
  func resolveAsync<T>(
    _ type: T.Type, from framework: DIModuleID?, arguments: [Any]?,
    requestScope: DIRequestScope?, addressed: AddressedArguments?
  ) async throws(DIError) -> T {
    if requestScope == nil, let level = overrideLevel {
      return try await level.resolveAsync(
        T.self, from: framework, arguments: arguments, requestScope: nil, addressed: addressed)
    }
    return try await resolvingAsync(
      requester: framework, arguments: arguments, requestScope: requestScope,
      addressed: addressed, root: mayAwaitComponents ? .service(DIRequest(for: T.self)) : nil
    ) { (context) throws(DIError) -> T in
      try context.valueWithArguments(T.self, tag: nil)
    }
  }
}

extension DIRequestScope {
  /// Resolves a `T` in this scope, awaiting the async factories of its graph (see
  /// ``DIResolver/resolveAsync()``): the scope's own form, which resolves a graph with
  /// nothing to await as a synchronous resolve does, without suspending.
  ///
  /// - Returns: The instance.
  /// - Throws: ``DIError`` naming the path, the reason and the registrations involved (the
  ///   scope is closed, for one).
  ///
  /// ```swift
  /// let scope = container.makeScope()
  /// let handler: Handler = try await scope.resolveAsync()
  /// ```
  @inlinable @inline(__always)  // The first attempt is synchronous (Benchmarks/PROFILE.md).
  public func resolveAsync<T>() async throws(DIError) -> T {
    // A container with async registrations plans the request before building anything,
    // unless its graph can reach only async singletons that are made.
    var failed: DIError?
    if !plansFirst(T.self) {
      do throws(DIError) {
        return try resolved(T.self, site: nil)
      } catch {
        failed = error
      }
    }
    return try await resolveAsync(T.self, after: failed)
  }

  /// Whether an asynchronous request of `type` in this scope has its graph planned before
  /// its pass (see ``DIContainer/plansFirst(_:in:)``); a closed scope's request fails
  /// either way.
  @usableFromInline
  func plansFirst(_ type: Any.Type) -> Bool {
    guard let container, container.mayAwaitComponents else { return false }
    return container.plansFirst(type, in: self)
  }

  /// Resolves a `T` in this scope, awaiting the async factories of its graph: like the
  /// container, except that `.scoped` components have one instance in this scope.
  ///
  /// - Parameter arguments: Go, in order, to the `arg($0)` parameters of the component.
  /// - Returns: The instance.
  /// - Throws: ``DIError`` naming the path, the reason and the registrations involved (the
  ///   scope is closed, for one).
  ///
  /// ```swift
  /// let handler: Handler = try await scope.resolveAsync(arguments: [])
  /// ```
  public func resolveAsync<T>(arguments: [Any]) async throws(DIError) -> T {
    let container = try openContainer(for: T.self)
    return try await container.resolveAsync(
      T.self, from: nil, arguments: arguments.isEmpty ? nil : arguments, requestScope: self)
  }
}
