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
  public func resolve<T>(file: StaticString = #fileID, line: UInt = #line) -> T {
    // Not through `publishedObject(or:)`: this closure would not be inlined.
    var found = PriorLookUp()
    if let object = publishedObject(of: T.self, found: &found) {
      return UnsafeExactCast.object(object, as: T.self) { (_) in
        resolve(T.self, after: found, file: file, line: line)
      }
    }
    return UnsafeExactCast.service(
      madeInstance(requested: T.self, after: &found, file: file, line: line), as: T.self,
      notAService: { failNotAService(T.self, file: file, line: line) },
      otherwise: { resolve(T.self, after: found, file: file, line: line) })
  }

  /// What the only candidate `found` found for `requested` made, for
  /// ``resolve(file:line:)`` to cast; nil, with nothing made, when the generic path must
  /// decide (`found` then keeps only what that path may use). Stops the program with the
  /// ``DIError`` text when resolution fails.
  @usableFromInline
  func madeInstance(
    requested type: Any.Type, after found: inout PriorLookUp, file: StaticString, line: UInt
  ) -> MadeInstance? {
    do throws(DIError) {
      return try DIResolutionContext.madeInstance(
        requested: type, in: self, site: CallSite(file: file, line: line), after: &found)
    } catch {
      failResolution(error, file: file, line: line)
    }
  }

  /// Stops the program because the only candidate for `type` made an instance that is no
  /// `type` (registered with `as(_:)` for a service it does not provide).
  @usableFromInline @inline(never)
  func failNotAService(_ type: Any.Type, file: StaticString, line: UInt) -> Never {
    Self.failNotAService(type, in: self, file: file, line: line)
  }

  /// Stops the program because the only candidate of `container` for `type` made an
  /// instance that is no `type`; the error names that candidate.
  static func failNotAService(
    _ type: Any.Type, in container: DIContainer?, file: StaticString, line: UInt
  ) -> Never {
    var component: Component?
    if case .single(let single) = container?.snapshot.lookUp(ServiceKey(type)) {
      component = single
    }
    let error = DIError(
      .notAService, requestedName: String(describing: type), component: component?.summary)
    failResolution(error, file: file, line: line)
  }

  /// ``resolve(file:line:)`` on a resolution context, after `found` looked `T` up.
  @usableFromInline
  func resolve<T>(_ type: T.Type, after found: PriorLookUp, file: StaticString, line: UInt) -> T {
    do throws(DIError) {
      return try DIResolutionContext.resolve(
        T.self, in: self, requester: nil, site: CallSite(file: file, line: line), after: found)
    } catch {
      failResolution(error, file: file, line: line)
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
public prefix func * <T>(container: DIContainer) -> T {
  do throws(DIError) {
    return try DIResolutionContext.resolve(
      T.self, in: container, requester: nil, site: .starOperator)
  } catch {
    let site = CallSite.starOperator
    failResolution(error, requestedAt: "\(site)", file: site.file, line: site.line)
  }
}
