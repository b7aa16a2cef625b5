/// Declares what a registered component provides and how: returned by every
/// `container.register(…)` form; every call returns the builder so calls chain.
///
/// ```swift
/// container.register(Cat.init)
///   .as(Animal.self)
///   .lifetime(.perContainer(.single))
///   .injection(\.owner)
///   .default()
/// ```
public struct DIComponentBuilder<Impl>: Sendable {
  let container: DIContainer
  let index: Int

  /// Applies `change` to the draft of this component.
  func edit(_ change: (inout ComponentDraft) -> Void) -> Self {
    container.edit { registry in registry.edit(at: index, change) }
    return self
  }

  /// Applies `change`, which makes this component async (an async injection or
  /// `postInit`), to its draft.
  func editMakingAsync(_ change: (inout ComponentDraft) -> Void) -> Self {
    container.edit { registry in registry.editMakingAsync(at: index, change) }
    return self
  }

  /// `instance`, which this component made, as its `Impl`: with no dynamic cast when it is
  /// exactly one (a hook runs for every instance dropped, `postInit` for every one made).
  static func made(_ instance: Any) -> Impl {
    UnsafeExactCast.known(instance, as: Impl.self)
  }

  /// Makes the component resolvable as `service` too.
  ///
  /// One component keeps one instance across its services: a `.perContainer(.single)`
  /// `Cat` resolved as `Cat`, `Animal` and `Pet` is the same object. The instances must
  /// conform to `service`; a request that finds one that does not is a ``DIError``.
  ///
  /// - Parameter service: A protocol or superclass of the instances.
  /// - Returns: This builder.
  ///
  /// ```swift
  /// container.register(Cat.init).as(Animal.self).as(Pet.self)
  /// ```
  @discardableResult
  public func `as`<Service>(_ service: Service.Type) -> Self {
    provide(ServiceKey(Service.self), cast: ServiceCast(to: Service.self))
  }

  /// Makes the component resolvable as `service` under `tag` (any type is a tag).
  ///
  /// A tagged service is found by `by(tag:on:)` and by `many`, not by a plain request:
  /// a component registered under a tag only is not a candidate for an untagged request
  /// of that type. That holds for the implementation type too: `register(Dog.init)`
  /// provides `Dog`, but `register(Dog.init).as(Dog.self, tag: Big.self)` provides only the
  /// tagged `Dog`, unless `.as(Dog.self)` is written as well. A tag marks a special
  /// component; a plain request should find the plain one, not become ambiguous between
  /// it and every tagged variant, nor pick a tagged one when no plain one is registered.
  ///
  /// Several tags on one service combine with "and": a component registered under
  /// `Indoor` and `Small` is found by `by(tags: Indoor.self, Small.self, on: $0)` (or the
  /// two `by(tag:on:)` nested, in either order), and by each tag alone.
  ///
  /// - Parameters:
  ///   - service: A protocol or superclass of the instances, or their type itself.
  ///   - tag: The tag type.
  /// - Returns: This builder.
  ///
  /// ```swift
  /// container.register(Cat.init).as(Pet.self, tag: Indoor.self).as(Pet.self, tag: Small.self)
  /// let indoor: Pet = by(tag: Indoor.self, on: container.resolve())
  /// let both: Pet = by(tags: Indoor.self, Small.self, on: container.resolve())
  /// ```
  @discardableResult
  public func `as`<Service, Tag>(_ service: Service.Type, tag: Tag.Type) -> Self {
    provide(ServiceKey(Service.self, tag: Tag.self), cast: ServiceCast(to: Service.self))
  }

  /// Adds `service`, whose instances `cast` makes from the component's objects.
  private func provide(_ service: ServiceKey, cast: ServiceCast?) -> Self {
    edit { $0.services.provide(service, cast: cast) }
  }

  /// Sets how long instances live; the default is the container's
  /// ``DIContainer/defaultLifetime`` (``DILifetime/prototype`` unless the container was made
  /// with another, see ``DIContainer/init(defaultLifetime:)``).
  ///
  /// - Parameter lifetime: The lifetime.
  /// - Returns: This builder.
  ///
  /// ```swift
  /// container.register(Cat.init).lifetime(.perContainer(.weak))
  /// ```
  @discardableResult
  public func lifetime(_ lifetime: DILifetime) -> Self {
    let (warning, type, file, line, set) = container.edit { registry in
      let warning = registry.setLifetime(lifetime, at: index)
      return registry.withDraft(at: index) { draft in
        (warning, draft.implementation, draft.file, draft.line, draft.lifetime)
      }
    }
    // The registration's line named the default lifetime; this one names the lifetime set.
    DISetting.Log.log(.verbose, "lifetime of \(type) at \(file):\(line): \(set)")
    if let warning { DISetting.Log.log(.warning, warning) }
    return self
  }

  /// Runs `action` after every injection of a new instance, cycle-breaking ones
  /// included.
  ///
  /// An error `action` throws fails the request with a ``DIError`` whose
  /// ``DIError/code`` is ``DIError/Code/factoryFailed``, as a throwing factory's does.
  ///
  /// - Parameter action: Receives the instance; may throw.
  /// - Returns: This builder.
  ///
  /// ```swift
  /// container.register(Presenter.init)
  ///   .injection(\.interactor)
  ///   .postInit { presenter in presenter.interactor.delegate = presenter }
  /// ```
  @discardableResult
  public func postInit(_ action: @escaping @Sendable (Impl) throws -> Void) -> Self {
    // The component makes only `Impl` instances.
    edit { $0.postInit.append(.sync { instance in try action(Self.made(instance)) }) }
  }

  /// Runs the `async` `action` after every injection of a new instance: a cache that
  /// warms up, a consumer that subscribes.
  ///
  /// The component is then made asynchronously, like one with an async factory: by
  /// ``DIResolver/resolveAsync()`` and the other async forms (a synchronous request fails
  /// with ``DIError/Code/asyncFactory`` until a caching lifetime keeps an instance). Its
  /// initializer, injections (cycle-breaking ones last) and `postInit` steps run in order;
  /// a cycle through it cannot be broken. An error `action` throws fails the request with
  /// ``DIError/Code/factoryFailed``, and nothing is cached.
  ///
  /// - Parameter action: Receives the instance; may suspend and throw.
  /// - Returns: This builder.
  ///
  /// ```swift
  /// container.register(MailQueue.init)
  ///   .postInit { queue in await queue.flush() }
  /// ```
  @discardableResult
  public func postInit(_ action: @escaping @Sendable (Impl) async throws -> Void) -> Self {
    // The component makes only `Impl` instances.
    editMakingAsync {
      $0.postInit.append(.async { instance in try await action(Self.made(instance)) })
    }
  }

  /// Prefers this component among several candidates of a service.
  ///
  /// - Returns: This builder.
  ///
  /// ```swift
  /// container.register { MainLogger(loggers: many($0)) }.as(Logger.self).default()
  /// ```
  @discardableResult
  public func `default`() -> Self {
    edit { $0.isDefault = true }
  }

  /// Makes this component beat every other candidate of its services, modularity
  /// included: a test double on an existing graph.
  ///
  /// - Returns: This builder.
  ///
  /// ```swift
  /// container.register(FakeClock.init).as(Clock.self).test()
  /// ```
  @discardableResult
  public func test() -> Self {
    edit { $0.isTest = true }
  }

  /// Marks an entry point of the graph, where validation starts.
  ///
  /// - Returns: This builder.
  ///
  /// ```swift
  /// container.register(Server.init).root()
  /// ```
  @discardableResult
  public func root() -> Self {
    edit { $0.isRoot = true }
  }
}
