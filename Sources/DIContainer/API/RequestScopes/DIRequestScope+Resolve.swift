extension DIRequestScope: DIResolver {
  /// Resolves a `T` in this scope with runtime `arguments` (none when empty): like the
  /// container, except that `.scoped` components have one instance in this scope.
  ///
  /// - Parameter arguments: Go, in order, to the `arg($0)` parameters of the component.
  /// - Returns: The instance.
  /// - Throws: ``DIError`` naming the path, the reason and the registrations involved (the
  ///   scope is closed, for one).
  ///
  /// ```swift
  /// let scope = container.makeScope()
  /// let handler: Handler = try scope.tryResolve(arguments: [])
  /// ```
  public func tryResolve<T>(arguments: [Any]) throws(DIError) -> T {
    try resolve(T.self, from: nil, arguments: arguments.isEmpty ? nil : arguments)
  }

  /// Resolves a `T` in this scope, or stops the program with the ``DIError`` text when it
  /// cannot: the scope's own, shortest path of ``DIResolver/resolve(file:line:)``.
  ///
  /// - Parameters:
  ///   - file: The caller's file, shown when resolution fails.
  ///   - line: The caller's line.
  /// - Returns: The instance.
  ///
  /// ```swift
  /// let scope = container.makeScope()
  /// let handler: Handler = scope.resolve()
  /// ```
  @inlinable @inline(__always)  // Cast where `T` is known (Benchmarks/PROFILE.md).
  @available(
    *, noasync,
    message: "stops the program on a DIError; in async code use resolveAsync() or tryResolve()"
  )
  public func resolve<T>(file: StaticString = #fileID, line: UInt = #line) -> T {
    do throws(DIError) {
      return try resolved(T.self, site: CallSite(file: file, line: line))
    } catch {
      failResolution(error, file: file, line: line)
    }
  }

  /// A `T` in this scope, from outside every framework and with no runtime arguments, as
  /// ``resolve(file:line:)`` and `resolveAsync()` resolve it: what the only candidate
  /// makes, cast here, where `T` is known. `site` is the caller's place, when a trapping
  /// form knows it.
  @inlinable @inline(__always)
  func resolved<T>(_ type: T.Type, site: CallSite?) throws(DIError) -> T {
    // Resolved as a `T` on the core's context when there is no only candidate: made as an
    // instance to cast, a protocol-typed value would be cast twice.
    var resolved: T?
    return try UnsafeExactCast.service(
      try madeInstance(requested: T.self, site: site) { (context) throws(DIError) in
        resolved = try context.value(T.self, tag: nil)
      }, as: T.self, notAService: { notAService(T.self) },
      otherwise: { () throws(DIError) in resolved.take()! })
  }

  /// What the only candidate for `requested` made in this scope, for
  /// ``resolved(_:site:)`` to cast; nil once `otherwise` resolved it on the same
  /// resolution context, when `requested` has no only candidate (modifiers, several
  /// candidates, a parent's components).
  @usableFromInline
  func madeInstance(
    requested type: Any.Type, site: CallSite?,
    otherwise: (inout DIResolutionContext) throws(DIError) -> Void
  ) throws(DIError) -> MadeInstance? {
    let container = try openContainer(for: type)
    return try DIResolutionContext.madeInstance(
      requested: type, in: container, requestScope: self, site: site, otherwise: otherwise)
  }

  /// The error for a request of `type` in this scope whose only candidate made an
  /// instance that is no `type`.
  @usableFromInline @inline(never)
  func notAService(_ type: Any.Type) -> DIError {
    DIContainer.notAService(type, in: container)
  }
}
