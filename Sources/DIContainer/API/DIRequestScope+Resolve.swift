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
  public func resolve<T>(file: StaticString = #fileID, line: UInt = #line) -> T {
    // Resolved as a `T` on the core's context when there is no only candidate: made as an
    // instance to cast, a protocol-typed value would be cast twice.
    var resolved: T?
    return UnsafeExactCast.service(
      madeInstance(requested: T.self, file: file, line: line) { (context) throws(DIError) in
        resolved = try context.value(T.self, tag: nil)
      }, as: T.self, notAService: { failNotAService(T.self, file: file, line: line) },
      otherwise: { resolved.take()! })
  }

  /// What the only candidate for `requested` made in this scope, for
  /// ``resolve(file:line:)`` to cast; nil once `otherwise` resolved it on the same
  /// resolution context, when `requested` has no only candidate (modifiers, several
  /// candidates, a parent's components). Stops the program with the ``DIError`` text
  /// when resolution fails.
  @usableFromInline
  func madeInstance(
    requested type: Any.Type, file: StaticString, line: UInt,
    otherwise: (inout DIResolutionContext) throws(DIError) -> Void
  ) -> MadeInstance? {
    do throws(DIError) {
      let container = try openContainer(for: type)
      return try DIResolutionContext.madeInstance(
        requested: type, in: container, requestScope: self,
        site: CallSite(file: file, line: line), otherwise: otherwise)
    } catch {
      failResolution(error, file: file, line: line)
    }
  }

  /// Stops the program because the only candidate for `type` made an instance that is no
  /// `type`.
  @usableFromInline @inline(never)
  func failNotAService(_ type: Any.Type, file: StaticString, line: UInt) -> Never {
    DIContainer.failNotAService(type, in: container, file: file, line: line)
  }
}
