/// What resolves services: a ``DIContainer``, or a request scope (``DIRequestScope``) that
/// resolves like its container and keeps `.scoped` instances.
///
/// Conformers implement ``tryResolve(arguments:)``; every `resolve` form comes from it.
///
/// ```swift
/// func handle(_ request: Request, with resolver: some DIResolver) {
///   let handler: Handler = resolver.resolve()
///   handler.handle(request)
/// }
/// ```
public protocol DIResolver: Sendable {
  /// Resolves a `T` with runtime `arguments` for its `arg` parameters (none when empty).
  ///
  /// - Parameter arguments: Go, in order, to the `arg($0)` parameters of the component.
  /// - Returns: The instance.
  /// - Throws: ``DIError`` naming the path, the reason and the registrations involved.
  ///
  /// ```swift
  /// let cat: Cat = try resolver.tryResolve(arguments: ["Mimi"])
  /// ```
  func tryResolve<T>(arguments: [Any]) throws(DIError) -> T

  /// Resolves a `T` with runtime `arguments`, awaiting the async factories of its graph;
  /// the requirement the `resolveAsync` forms use. By default, resolves synchronously.
  ///
  /// - Parameter arguments: Go, in order, to the `arg($0)` parameters of the component.
  /// - Returns: The instance.
  /// - Throws: ``DIError`` naming the path, the reason and the registrations involved.
  ///
  /// ```swift
  /// let pool: AsyncPool = try await resolver.resolveAsync(arguments: [])
  /// ```
  func resolveAsync<T>(arguments: [Any]) async throws(DIError) -> T
}

extension DIResolver {
  /// Resolves a `T`, or stops the program with the ``DIError`` text when it cannot.
  ///
  /// `T` is inferred from the context. Modifier types apply: `T?` gives nil when there
  /// is no unambiguous candidate, `many(resolver.resolve())` every candidate,
  /// `by(tag:on: resolver.resolve())` a tagged one.
  ///
  /// - Parameters:
  ///   - file: The caller's file, shown when resolution fails.
  ///   - line: The caller's line.
  /// - Returns: The instance.
  ///
  /// ```swift
  /// let cat: Cat = resolver.resolve()
  /// let stray: Cat? = resolver.resolve()
  /// let cats: [Animal] = many(resolver.resolve())
  /// ```
  @available(
    *, noasync,
    message: "stops the program on a DIError; in async code use resolveAsync() or tryResolve()"
  )
  public func resolve<T>(file: StaticString = #fileID, line: UInt = #line) -> T {
    trappingResolution(file: file, line: line) { () throws(DIError) in
      try self.tryResolve(arguments: [])
    }
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
    try tryResolve(arguments: [])
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
  /// let cat: Cat = resolver.resolve(arg: "Mimi")
  /// ```
  @available(
    *, noasync,
    message: "stops the program on a DIError; in async code use resolveAsync() or tryResolve()"
  )
  public func resolve<T, Argument>(
    arg argument: Argument, file: StaticString = #fileID, line: UInt = #line
  ) -> T {
    trappingResolution(file: file, line: line) { () throws(DIError) in
      try self.tryResolve(arguments: [argument])
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
  ///   - file: The caller's file, shown when resolution fails.
  ///   - line: The caller's line.
  /// - Returns: The instance.
  ///
  /// ```swift
  /// let cat: Cat = resolver.resolve(args: "Mimi", 3)
  /// ```
  @available(
    *, noasync,
    message: "stops the program on a DIError; in async code use resolveAsync() or tryResolve()"
  )
  public func resolve<T, First, each Rest>(
    args first: First, _ rest: repeat each Rest, file: StaticString = #fileID,
    line: UInt = #line
  ) -> T {
    var arguments: [Any] = [first]
    for argument in repeat each rest { arguments.append(argument) }
    return trappingResolution(file: file, line: line) { () throws(DIError) in
      try self.tryResolve(arguments: arguments)
    }
  }
}

/// Runs `body`, or prints its error (and logs it) and stops the program: the trapping
/// `resolve()` forms print the same text `tryResolve()` throws. The resolution `body`
/// starts knows the caller's `file:line` (a `Lazy` or `Provider` it makes names it).
package func trappingResolution<T>(
  file: StaticString, line: UInt, _ body: () throws(DIError) -> T
) -> T {
  let request = ResolutionRequest.current
  request.state.pendingSite = CallSite(file: file, line: line)
  defer { request.state.pendingSite = nil }
  do throws(DIError) {
    return try body()
  } catch {
    failResolution(error, file: file, line: line)
  }
}

/// Logs `error` and stops the program with its text and the place of the request.
@usableFromInline @inline(never)
func failResolution(_ error: DIError, file: StaticString, line: UInt) -> Never {
  failResolution(error, requestedAt: "\(file):\(line)", file: file, line: line)
}

/// Logs `error` and stops the program with its text and `place`, which says where the
/// request was made; `file` and `line` head the runtime's message.
func failResolution(
  _ error: DIError, requestedAt place: String, file: StaticString, line: UInt
) -> Never {
  DISetting.Log.log(.error, error.description)
  fatalError("\n\(error.description)\n  requested at: \(place)", file: file, line: line)
}
