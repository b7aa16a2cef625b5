extension DIContainer: DIResolver {
  /// Resolves a `T` with runtime `arguments` for its `arg` parameters (none when empty);
  /// the requirement of ``DIResolver`` that its `resolve` forms use.
  ///
  /// - Parameter arguments: Go, in order, to the `arg($0)` parameters of the component.
  /// - Returns: The instance.
  /// - Throws: ``DIError`` naming the path, the reason and the registrations involved.
  ///
  /// ```swift
  /// let cat: Cat = try container.tryResolve(arguments: ["Mimi", 3])
  /// ```
  public func tryResolve<T>(arguments: [Any]) throws(DIError) -> T {
    try resolve(T.self, from: nil, arguments: arguments.isEmpty ? nil : arguments)
  }

  /// Resolves a `T`, or stops the program with the ``DIError`` text when it cannot: the
  /// container's own, shortest path of ``DIResolver/resolve(file:line:)``.
  ///
  /// - Parameters:
  ///   - file: The caller's file, shown when resolution fails.
  ///   - line: The caller's line.
  /// - Returns: The instance.
  ///
  /// ```swift
  /// let cat: Cat = container.resolve()
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

  /// A `T`, from outside every framework and with no runtime arguments, as
  /// ``resolve(file:line:)`` and `resolveAsync()` resolve it: the object the only
  /// candidate keeps, read with no context; else what the only candidate makes, cast
  /// here, where `T` is known; else the generic path. `site` is the caller's place, when
  /// a trapping form knows it.
  @inlinable @inline(__always)
  func resolved<T>(_ type: T.Type, site: CallSite?) throws(DIError) -> T {
    // While a task of the process has an override level, the look-ups find nothing and the
    // generic path, `resolve(_:after:site:)`, goes to the task's level (no test here: a
    // branch in this inlined body cost S1 15 instructions, Benchmarks/PROFILE.md).
    // Not through `publishedObject(or:)`: this closure would not be inlined.
    var found = PriorLookUp()
    if let object = publishedObject(of: T.self, found: &found) {
      return try UnsafeExactCast.object(object, as: T.self) { (_) throws(DIError) in
        try resolve(T.self, after: found, site: site)
      }
    }
    return try UnsafeExactCast.service(
      try madeInstance(requested: T.self, after: &found, site: site), as: T.self,
      notAService: { Self.notAService(T.self, in: self) },
      otherwise: { () throws(DIError) in try resolve(T.self, after: found, site: site) })
  }

  /// What the only candidate `found` found for `requested` made, for
  /// ``resolved(_:site:)`` to cast; nil, with nothing made, when the generic path must
  /// decide (`found` then keeps only what that path may use).
  @usableFromInline
  func madeInstance(
    requested type: Any.Type, after found: inout PriorLookUp, site: CallSite?
  ) throws(DIError) -> MadeInstance? {
    try DIResolutionContext.madeInstance(requested: type, in: self, site: site, after: &found)
  }

  /// The error for a request of `type` whose only candidate in `container` made an
  /// instance that is no `type` (registered with `as(_:)` for a service it does not
  /// provide); it names that candidate.
  @usableFromInline @inline(never)
  static func notAService(_ type: Any.Type, in container: DIContainer?) -> DIError {
    var component: Component?
    if case .single(let single) = container?.snapshot.lookUp(ServiceKey(type)) {
      component = single
    }
    return DIError(
      .notAService, requestedName: String(describing: type), component: component?.summary)
  }

  /// ``resolved(_:site:)`` on a resolution context, after `found` looked `T` up; on the
  /// task's override level, if it has one.
  @usableFromInline
  func resolve<T>(_ type: T.Type, after found: PriorLookUp, site: CallSite?) throws(DIError) -> T {
    if let level = overrideLevel {
      return try DIResolutionContext.resolve(
        T.self, in: level, requester: nil, site: site, after: PriorLookUp())
    }
    return try DIResolutionContext.resolve(
      T.self, in: self, requester: nil, site: site, after: found)
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
  @available(
    *, noasync,
    message: "stops the program on a DIError; in async code use resolveAsync() or tryResolve()"
  )
  public func inject<T>(into object: T, file: StaticString = #fileID, line: UInt = #line) {
    trappingResolution(file: file, line: line) { () throws(DIError) in
      try self.tryInject(into: object)
    }
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
    if let level = overrideLevel { return try level.tryInject(into: object) }
    try DIResolutionContext.with(self, requester: nil) { (context) throws(DIError) in
      let component = try context.injectionTarget(T.self)
      do throws(DIError) {
        guard component.completion == nil else { throw DIError(.asyncInjection) }
        try context.inject(component, into: object, frame: nil)
        try context.finish()
      } catch {
        throw error.entering(T.self, component)
      }
    }
  }

  /// Runs the property injections and `postInit` of the component registered for `T` on
  /// `object`, awaiting the `async` ones and the async components they need: the form
  /// for a component with an `async` injection or `postInit`, which
  /// ``tryInject(into:)`` cannot run.
  ///
  /// - Parameter object: The instance.
  /// - Throws: ``DIError`` when `T` has no single component or an injection fails.
  ///
  /// ```swift
  /// try await container.injectAsync(into: presenter)
  /// ```
  public func injectAsync<T>(into object: T) async throws(DIError) {
    if let level = overrideLevel { return try await level.injectAsync(into: object) }
    let component = try await resolvingAsync(requester: nil, arguments: nil, requestScope: nil) {
      (context) throws(DIError) in try context.injectionTarget(T.self)
    }
    do throws(DIError) {
      if let completion = component.completion {
        let parameters = AsyncParameters(
          container: self, requester: component.framework, requestScope: nil)
        try await completion.run(on: object, parameters)
      } else {
        try await resolvingAsync(requester: nil, arguments: nil, requestScope: nil) {
          (context) throws(DIError) in
          try context.inject(component, into: object, frame: nil)
          try context.finish()
        }
      }
    } catch {
      throw error.entering(T.self, component)
    }
  }

  /// Resolves `T` as if `framework` asked (nil: from outside every framework), with
  /// runtime `arguments` for the component asked for.
  package func resolve<T>(
    _ type: T.Type, from framework: DIModuleID?, arguments: [Any]?
  ) throws(DIError) -> T {
    if let level = overrideLevel {
      return try level.resolve(T.self, from: framework, arguments: arguments)
    }
    guard let arguments else {
      return try DIResolutionContext.resolve(T.self, in: self, requester: framework)
    }
    return try DIResolutionContext.with(self, requester: framework, arguments: arguments) {
      (context) throws(DIError) -> T in
      try context.valueWithArguments(T.self, tag: nil)
    }
  }
}

/// The prefix form of ``DIContainer/resolve(file:line:)``: `let cat: Cat = *container`.
prefix operator *

/// Resolves a `T` from `container`: the same as `container.resolve()`, except that an
/// operator cannot receive its caller's `#fileID` and `#line`, so a failure's message says
/// the line is unknown (`container.resolve()` shows it).
///
/// ```swift
/// let cat: Cat = *container
/// ```
@available(
  *, noasync,
  message: "stops the program on a DIError; in async code use resolveAsync() or tryResolve()"
)
public prefix func * <T>(container: DIContainer) -> T {
  do throws(DIError) {
    return try DIResolutionContext.resolve(
      T.self, in: container.overrideLevel ?? container, requester: nil, site: .starOperator)
  } catch {
    let site = CallSite.starOperator
    failResolution(error, requestedAt: "\(site)", file: site.file, line: site.line)
  }
}
