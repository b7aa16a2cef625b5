extension DIRequestScope {
  /// Resolves a `T` in this scope, or stops the program with the ``DIError`` text when it
  /// cannot.
  ///
  /// The same as ``DIContainer/resolve(file:line:)``, except that `.scoped` components
  /// have one instance in this scope. Modifier types apply: `T?`, `many(scope.resolve())`,
  /// `by(tag:on: scope.resolve())`.
  ///
  /// - Parameters:
  ///   - file: The caller's file, shown when resolution fails.
  ///   - line: The caller's line.
  /// - Returns: The instance.
  ///
  /// ```swift
  /// let scope = container.makeScope()
  /// let handler: Handler = scope.resolve()
  /// let audit: Audit? = scope.resolve()
  /// ```
  public func resolve<T>(file: StaticString = #fileID, line: UInt = #line) -> T {
    trapping(file: file, line: line) { () throws(DIError) in try self.tryResolve() }
  }

  /// Resolves a `T` in this scope, throwing a ``DIError`` that explains why when it
  /// cannot (the scope is closed, for one).
  ///
  /// - Returns: The instance.
  /// - Throws: ``DIError`` naming the path, the reason and the registrations involved.
  ///
  /// ```swift
  /// let handler: Handler = try scope.tryResolve()
  /// ```
  public func tryResolve<T>() throws(DIError) -> T {
    try resolve(T.self, from: nil, arguments: nil)
  }

  /// Resolves a `T` in this scope with one runtime argument for its `arg` parameter.
  ///
  /// - Parameters:
  ///   - argument: Goes to the first `arg($0)` parameter of the component asked for.
  ///   - file: The caller's file, shown when resolution fails.
  ///   - line: The caller's line.
  /// - Returns: The instance.
  ///
  /// ```swift
  /// container.register { Reply(status: arg($0), log: $1) }
  /// let reply: Reply = scope.resolve(arg: 200)
  /// ```
  public func resolve<T, Argument>(
    arg argument: Argument, file: StaticString = #fileID, line: UInt = #line
  ) -> T {
    trapping(file: file, line: line) { () throws(DIError) in
      try self.resolve(T.self, from: nil, arguments: [argument])
    }
  }

  /// Resolves a `T` in this scope with runtime arguments for its `arg` parameters, in
  /// order (at least one).
  ///
  /// - Parameters:
  ///   - first: Goes to the first `arg($0)` parameter.
  ///   - rest: Go to the following ones.
  /// - Returns: The instance.
  ///
  /// ```swift
  /// let reply: Reply = scope.resolve(args: 200, "OK")
  /// ```
  public func resolve<T, First, each Rest>(args first: First, _ rest: repeat each Rest) -> T {
    var arguments: [Any] = [first]
    for argument in repeat each rest { arguments.append(argument) }
    return trapping(file: #fileID, line: #line) { () throws(DIError) in
      try self.resolve(T.self, from: nil, arguments: arguments)
    }
  }

  /// Runs `body`, or prints its error (and logs it) and stops the program.
  private func trapping<T>(
    file: StaticString, line: UInt, _ body: () throws(DIError) -> T
  ) -> T {
    do throws(DIError) {
      return try body()
    } catch {
      DISetting.Log.log(.error, error.description)
      fatalError("\n\(error.description)\n  requested at: \(file):\(line)", file: file, line: line)
    }
  }
}
