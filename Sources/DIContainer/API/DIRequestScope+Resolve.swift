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
}
