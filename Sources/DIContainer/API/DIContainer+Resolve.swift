extension DIContainer {
  /// Resolves a `T`, or stops the program with the ``DIError`` text when it cannot.
  ///
  /// `T` is inferred from the context. Modifier types apply: `T?` gives nil when there
  /// is no unambiguous candidate, `many(container.resolve())` every candidate,
  /// `by(tag:on: container.resolve())` a tagged one.
  ///
  /// - Parameters:
  ///   - file: The caller's file, shown when resolution fails.
  ///   - line: The caller's line.
  /// - Returns: The instance.
  ///
  /// ```swift
  /// let cat: Cat = container.resolve()
  /// let cat: Cat? = container.resolve()
  /// let cats: [Animal] = many(container.resolve())
  /// ```
  public func resolve<T>(file: StaticString = #fileID, line: UInt = #line) -> T {
    trapping(file: file, line: line) { () throws(DIError) in try self.tryResolve() }
  }

  /// Resolves a `T`, throwing a ``DIError`` that explains why when it cannot.
  ///
  /// - Returns: The instance.
  /// - Throws: ``DIError`` naming the path, the reason and the registrations involved.
  ///
  /// ```swift
  /// let cat: Cat = try container.tryResolve()
  /// ```
  public func tryResolve<T>() throws(DIError) -> T {
    try resolve(T.self, from: nil, arguments: nil)
  }

  /// Resolves a `T` with one runtime argument for its `arg` parameter.
  ///
  /// - Parameters:
  ///   - argument: Goes to the first `arg($0)` parameter of the component asked for.
  ///   - file: The caller's file, shown when resolution fails.
  ///   - line: The caller's line.
  /// - Returns: The instance.
  ///
  /// ```swift
  /// container.register { Cat(name: arg($0)) }
  /// let cat: Cat = container.resolve(arg: "Mimi")
  /// ```
  public func resolve<T, Argument>(
    arg argument: Argument, file: StaticString = #fileID, line: UInt = #line
  ) -> T {
    trapping(file: file, line: line) { () throws(DIError) in
      try self.resolve(T.self, from: nil, arguments: [argument])
    }
  }

  /// Resolves a `T` with runtime arguments for its `arg` parameters, in order.
  ///
  /// At least one argument is required (an empty list would make `resolve()`
  /// ambiguous).
  ///
  /// - Parameters:
  ///   - first: Goes to the first `arg($0)` parameter.
  ///   - rest: Go to the following ones.
  /// - Returns: The instance.
  ///
  /// ```swift
  /// let cat: Cat = container.resolve(args: "Mimi", 3)
  /// ```
  public func resolve<T, First, each Rest>(args first: First, _ rest: repeat each Rest) -> T {
    var arguments: [Any] = [first]
    for argument in repeat each rest { arguments.append(argument) }
    return trapping(file: #fileID, line: #line) { () throws(DIError) in
      try self.resolve(T.self, from: nil, arguments: arguments)
    }
  }

  /// Runs the property injections (and `postInit`) of the component registered for
  /// `T` on an instance made elsewhere, or stops the program with the ``DIError`` text.
  ///
  /// - Parameters:
  ///   - object: The instance, typically of a `register(T.self)` component.
  ///   - file: The caller's file, shown when injection fails.
  ///   - line: The caller's line.
  ///
  /// ```swift
  /// container.register(Presenter.self).injection(\.view)
  /// container.inject(into: presenter)
  /// ```
  public func inject<T>(into object: T, file: StaticString = #fileID, line: UInt = #line) {
    trapping(file: file, line: line) { () throws(DIError) in try self.tryInject(into: object) }
  }

  /// Runs the property injections of the component registered for `T` on `object`.
  ///
  /// - Parameter object: The instance.
  /// - Throws: ``DIError`` when `T` has no single component or an injection fails.
  ///
  /// ```swift
  /// try container.tryInject(into: presenter)
  /// ```
  public func tryInject<T>(into object: T) throws(DIError) {
    try DIResolutionContext.with(self, requester: nil) { (context) throws(DIError) in
      let name = String(describing: T.self)
      guard let entry = context.snapshot.table[ServiceKey(T.self)] else {
        throw DIError(.notRegistered, requestedName: name)
      }
      let component = try context.choose(entry, for: T.self, tag: nil)
      do throws(DIError) {
        try context.inject(component, into: object)
        try context.finish()
      } catch {
        var error = error
        error.enter(name, component: component.summary)
        throw error
      }
    }
  }

  /// Resolves `T` as if `framework` asked (nil: from outside every framework), with
  /// runtime `arguments` for the component asked for.
  package func resolve<T>(
    _ type: T.Type, from framework: DIModuleID?, arguments: [Any]?
  ) throws(DIError) -> T {
    try DIResolutionContext.with(self, requester: framework, arguments: arguments) {
      (context) throws(DIError) -> T in
      try context.value(T.self, tag: nil)
    }
  }

  /// Runs `body`, or prints its error (and logs it) and stops the program.
  package func trapping<T>(
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

/// The prefix form of ``DIContainer/resolve(file:line:)``: `let cat: Cat = *container`.
prefix operator *

/// Resolves a `T` from `container`: the same as `container.resolve()`.
///
/// ```swift
/// let cat: Cat = *container
/// ```
public prefix func * <T>(container: DIContainer) -> T {
  container.resolve()
}
