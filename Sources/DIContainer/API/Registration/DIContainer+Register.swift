extension DIContainer {
  /// Registers a component made by `initializer`, whose parameters are resolved by type.
  ///
  /// Pass an initializer reference or a closure; any number of parameters works. In a
  /// closure, modifiers change how a parameter is resolved: `many($0)`,
  /// `by(tag: T.self, on: $0)`, `arg($0)`; `Optional`, `Lazy` and `Provider` parameters are
  /// recognized by their type, in initializer references too.
  ///
  /// The closure is `@Sendable`, so what it captures must be; the objects it makes need
  /// not be, but those a caching lifetime shares between threads must be thread-safe.
  /// `@MainActor` types cannot be made by a `@Sendable` factory.
  ///
  /// The initializer may throw: the error fails the request with a ``DIError`` whose
  /// ``DIError/code`` is ``DIError/Code/factoryFailed`` and whose
  /// ``DIError/underlyingError`` is the error thrown; nothing is cached for it, so the next
  /// request tries again.
  ///
  /// - Parameters:
  ///   - file: The registration's file, shown in errors and graphs.
  ///   - line: The registration's line.
  ///   - initializer: Makes an instance from its resolved parameters.
  /// - Returns: A builder to declare services, lifetime and injections.
  ///
  /// ```swift
  /// container.register(Cat.init)
  /// container.register { Car(engine: $0, body: $1) }
  /// container.register(Bus.init(engine:wheels:))
  /// container.register { try Settings.load() }   // a throwing factory
  /// ```
  @discardableResult
  @inlinable  // Specialized where it is called: the parameters' layout is known there.
  public func register<Impl, each Parameter>(
    file: StaticString = #fileID, line: UInt = #line,
    _ initializer: @escaping @Sendable (repeat each Parameter) throws -> Impl
  ) -> DIComponentBuilder<Impl> {
    let factory = {
      @Sendable (context: inout DIResolutionContext) throws(DIError) -> MadeInstance in
      // The parameters go straight to the initializer (a tuple of them would copy each);
      // a failure to resolve one is a `DIError`, which `DIError(thrownBy:)` keeps.
      do {
        return MadeInstance(
          try initializer(repeat try context.value((each Parameter).self, tag: nil)))
      } catch {
        throw DIError(thrownBy: Impl.self, error)
      }
    }
    return add(
      Impl.self, file: file, line: line, factory: factory,
      parameters: DIRequest.describing(repeat (each Parameter).self))
  }

  /// Registers a component for `Impl` made by an `initializer` that returns an
  /// `Impl?`: a failable initializer, or a closure that may find nothing.
  ///
  /// The component provides `Impl`, not `Impl?`. A nil from the factory is a ``DIError``
  /// (``DIError/Code/factoryReturnedNil``) naming this registration, for an optional
  /// request too: the component was chosen, and it failed.
  ///
  /// A type with a failable initializer and others should be registered by the full name
  /// of the one meant (`Cat.init(name:)`, as with any type of several initializers): the
  /// compiler may take a bare `Cat.init` for the failable one.
  ///
  /// - Parameters:
  ///   - file: The registration's file, shown in errors and graphs.
  ///   - line: The registration's line.
  ///   - initializer: Makes an instance from its resolved parameters, or returns nil.
  /// - Returns: A builder to declare services, lifetime and injections.
  ///
  /// ```swift
  /// container.register { () -> Cat? in Cat(name: "Mimi") }
  /// let cat: Cat = container.resolve()
  /// ```
  @discardableResult
  public func register<Impl, each Parameter>(
    file: StaticString = #fileID, line: UInt = #line,
    _ initializer: @escaping @Sendable (repeat each Parameter) throws -> Impl?
  ) -> DIComponentBuilder<Impl> {
    register(file: file, line: line) { (parameters: repeat each Parameter) throws -> Impl in
      guard let instance = try initializer(repeat each parameters) else {
        throw DIError(.factoryReturnedNil(implementation: "\(Impl.self)"))
      }
      return instance
    }
  }

  /// Registers a type the container does not make: instances come from outside and get
  /// their property injections from ``inject(into:file:line:)``.
  ///
  /// - Parameters:
  ///   - file: The registration's file, shown in errors and graphs.
  ///   - line: The registration's line.
  ///   - type: The type of the instances.
  /// - Returns: A builder to declare services and injections.
  ///
  /// ```swift
  /// container.register(Presenter.self).injection(\.view)
  /// container.inject(into: presenter)
  /// ```
  @discardableResult
  public func register<Impl>(
    file: StaticString = #fileID, line: UInt = #line, _ type: Impl.Type
  ) -> DIComponentBuilder<Impl> {
    add(Impl.self, file: file, line: line, factory: nil, parameters: [])
  }

  @usableFromInline
  func add<Impl>(
    _ type: Impl.Type, file: StaticString, line: UInt, factory: Factory?,
    parameters: [DIRequest]
  ) -> DIComponentBuilder<Impl> {
    let thread = ThreadIdentity.current
    let defaultLifetime = defaultLifetime
    let (index, lifetime, warning) = edit { registry in
      let index = registry.append(
        ComponentDraft(
          implementation: Impl.self, file: file, line: line,
          framework: registry.innermost(.framework, on: thread),
          part: registry.innermost(.part, on: thread), order: registry.count,
          factory: factory, parameters: parameters,
          services: ServiceList(implementation: Impl.self)))
      guard case .prototype = defaultLifetime else {
        // The container's default, set as `lifetime(_:)` sets one (a named scope is found).
        let warning = registry.setLifetime(defaultLifetime, at: index)
        return (index, registry.withDraft(at: index) { $0.lifetime }, warning)
      }
      return (index, DILifetime.prototype, String?.none)
    }
    // The container's default until `lifetime(_:)` changes it, which logs it again.
    DISetting.Log.log(.verbose, "registered \(Impl.self) at \(file):\(line), lifetime \(lifetime)")
    if let warning { DISetting.Log.log(.warning, warning) }
    return DIComponentBuilder(container: self, index: index)
  }
}
