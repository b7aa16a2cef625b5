extension DIComponentBuilder {
  /// Injects a property by key path after the instance is made.
  ///
  /// The property's type is resolved like an initializer parameter: `Optional`, `Lazy`
  /// and `Provider` properties are recognized.
  ///
  /// - Parameters:
  ///   - cycle: Postpone the injection until the whole graph of the request is built,
  ///     which breaks a cycle (with `.objectGraph` or a cached lifetime on the loop).
  ///   - keyPath: The property.
  /// - Returns: This builder.
  ///
  /// ```swift
  /// container.register(Cat.init).injection(\.owner)
  /// container.register(Cat.init).injection(cycle: true, \.friend)
  /// ```
  @discardableResult
  public func injection<Value>(
    cycle: Bool = false, _ keyPath: ReferenceWritableKeyPath<Impl, Value>
  ) -> Self {
    injection(cycle: cycle, keyPath) { (value: Value) in value }
  }

  /// Injects a property by key path, with a modifier on the resolved value.
  ///
  /// - Parameters:
  ///   - cycle: Postpone the injection until the graph is built (breaks a cycle).
  ///   - keyPath: The property.
  ///   - modifier: Maps the resolved parameter to the property's value:
  ///     `{ many($0) }`, `{ by(tag: Indoor.self, on: $0) }`.
  /// - Returns: This builder.
  ///
  /// ```swift
  /// container.register(Cat.init).injection(\.toys) { many($0) }
  /// ```
  @discardableResult
  public func injection<Value, Parameter>(
    cycle: Bool = false, _ keyPath: ReferenceWritableKeyPath<Impl, Value>,
    _ modifier: @escaping @Sendable (Parameter) -> Value
  ) -> Self {
    // Key paths are immutable values the library only reads; Swift does not mark every key
    // path `Sendable`.
    let property = UncheckedSendable(keyPath)
    return add(cycle: cycle, parameters: [DIRequest(for: Parameter.self)]) {
      (instance, context) throws(DIError) in
      let target = try Self.target(instance)
      target[keyPath: property.wrapped] = modifier(try context.value(Parameter.self, tag: nil))
    }
  }

  /// Calls a method with resolved parameters after the instance is made.
  ///
  /// An error `method` throws fails the request with a ``DIError`` whose
  /// ``DIError/code`` is ``DIError/Code/factoryFailed``.
  ///
  /// - Parameters:
  ///   - cycle: Postpone the call until the graph is built (breaks a cycle).
  ///   - method: Receives the instance and its resolved parameters; modifiers apply.
  /// - Returns: This builder.
  ///
  /// ```swift
  /// container.register(Cat.init).injection { cat, food in cat.feed(food) }
  /// ```
  @discardableResult
  public func injection<each Parameter>(
    cycle: Bool = false, _ method: @escaping @Sendable (Impl, repeat each Parameter) throws -> Void
  ) -> Self {
    let injection = Injection(
      isCycleBreak: cycle, dependencies: DIRequest.describing(repeat (each Parameter).self)
    ) {
      (instance, context) throws(DIError) in
      do {
        try method(
          try Self.target(instance), repeat try context.value((each Parameter).self, tag: nil))
      } catch {
        throw DIError(thrownBy: Impl.self, error)
      }
    }
    return edit { $0.injections.append(injection) }
  }

  /// Calls an `async` method with resolved parameters after the instance is made: a
  /// client that registers itself with a server, a consumer that subscribes.
  ///
  /// The component is then made asynchronously, like one with an async factory (see
  /// the async `postInit(_:)`): its parameters may be async components, and it runs in
  /// order with the other injections, awaited (cycle-breaking ones last).
  ///
  /// - Parameters:
  ///   - cycle: Run it after the component's other injections.
  ///   - method: Receives the instance and its resolved parameters; may suspend and throw.
  /// - Returns: This builder.
  ///
  /// ```swift
  /// container.register(Cat.init)
  ///   .injection { (cat: Cat, food: Food) async in await cat.eat(food) }
  /// ```
  @discardableResult
  public func injection<each Parameter>(
    cycle: Bool = false,
    _ method: @escaping @Sendable (Impl, repeat each Parameter) async throws -> Void
  ) -> Self {
    let injection = Injection(
      isCycleBreak: cycle, dependencies: DIRequest.describing(repeat (each Parameter).self)
    ) {
      (instance, parameters) async throws(DIError) in
      let target = try Self.target(instance)
      let values = (repeat try await parameters.value((each Parameter).self))
      do {
        try await method(target, repeat each values)
      } catch {
        throw DIError(thrownBy: Impl.self, error)
      }
    }
    return editMakingAsync { $0.injections.append(injection) }
  }

  /// `instance` as the component's type: what it makes, or what `inject(into:)` was given.
  private static func target(_ instance: Any) throws(DIError) -> Impl {
    try UnsafeExactCast.cast(instance, to: Impl.self) {
      DIError(
        .wrongInjectionTarget(
          expected: String(describing: Impl.self),
          actual: String(describing: type(of: instance))))
    }
  }

  private func add(
    cycle: Bool, parameters: [DIRequest],
    _ run: @escaping @Sendable (Any, inout DIResolutionContext) throws(DIError) -> Void
  ) -> Self {
    edit {
      $0.injections.append(Injection(isCycleBreak: cycle, dependencies: parameters, run: run))
    }
  }
}
