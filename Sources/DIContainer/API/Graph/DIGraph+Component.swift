extension DIGraph {
  /// One registration in a ``DIGraph``: its type, where it was registered, its lifetime
  /// and the services it provides.
  ///
  /// ```swift
  /// for component in graph.components {
  ///   print(component.name, component.lifetime, component.location)
  /// }
  /// ```
  public struct Component: Sendable {
    /// The position of the component in ``DIGraph/components`` (its registration order).
    ///
    /// ```swift
    /// #expect(graph.components[component.id].name == component.name)
    /// ```
    public let id: Int
    /// The registration as the container compiled it.
    let registered: RegisteredComponent
    /// For a child container's graph: whether this node is a parent's `.prototype` or
    /// `.objectGraph` component as the parent makes it (below a parent's cached one), not
    /// as the child's requests do; such a node is never an entry point.
    let isMadeByParent: Bool

    init(id: Int, registered: RegisteredComponent, isMadeByParent: Bool = false) {
      self.id = id
      self.registered = registered
      self.isMadeByParent = isMadeByParent
    }

    /// The type the component makes.
    ///
    /// ```swift
    /// if component.type == Cat.self { print("a Cat") }
    /// ```
    public var type: Any.Type { registered.implementation }

    /// The type's name: `Cat`.
    ///
    /// ```swift
    /// print(component.name)   // Cat
    /// ```
    public var name: String { registered.name }

    /// How long its instances live.
    ///
    /// ```swift
    /// if case .prototype = component.lifetime { print("a new one every time") }
    /// ```
    public var lifetime: DILifetime { registered.lifetime }

    /// The name of the framework whose `load` registered it, if any.
    ///
    /// ```swift
    /// print(component.framework ?? "no framework")
    /// ```
    public var framework: String? { registered.framework?.name }

    /// The name of the part whose `load` registered it, if any.
    ///
    /// ```swift
    /// print(component.part ?? "no part")
    /// ```
    public var part: String? { registered.part?.name }

    /// What it can be resolved as: its own type first, then every `as(_:)` and
    /// `as(_:tag:)`, in order.
    ///
    /// ```swift
    /// print(component.services.map(\.description))   // ["Cat", "Animal", "Pet tagged Indoor"]
    /// ```
    public var services: [Service] {
      registered.services.map { Service(type: $0.type, tag: $0.tag) }
    }

    /// The tags of its tagged services, in order, without repeats.
    ///
    /// ```swift
    /// #expect(component.tags.contains { $0 == Indoor.self })
    /// ```
    public var tags: [Any.Type] {
      var tags: [Any.Type] = []
      for service in registered.services {
        if let tag = service.tag, !tags.contains(where: { $0 == tag }) { tags.append(tag) }
      }
      return tags
    }

    /// The file of the registration (`#fileID`).
    ///
    /// ```swift
    /// print(component.file)   // App/Wiring.swift
    /// ```
    public var file: String { "\(registered.file)" }

    /// The line of the registration.
    ///
    /// ```swift
    /// print(component.line)   // 12
    /// ```
    public var line: UInt { registered.line }

    /// `file:line` of the registration.
    ///
    /// ```swift
    /// print(component.location)   // App/Wiring.swift:12
    /// ```
    public var location: String { registered.location }

    /// Whether it was registered with an initializer (not `register(T.self)`).
    ///
    /// ```swift
    /// if !component.hasInitializer { print("only inject(into:) serves it") }
    /// ```
    public var hasInitializer: Bool { registered.canMake }

    /// Whether its initializer is `async`: only an asynchronous request
    /// (`resolveAsync()`, `AsyncLazy`, `AsyncProvider`, `initializeSingletonObjectsAsync()`)
    /// makes it.
    ///
    /// ```swift
    /// let asyncOnes = graph.components.filter(\.isAsync)
    /// ```
    public var isAsync: Bool { registered.asyncFactory != nil }

    /// Whether it is marked ``DIComponentBuilder/root()``.
    ///
    /// ```swift
    /// let roots = graph.components.filter(\.isRoot)
    /// ```
    public var isRoot: Bool { registered.isRoot && !isMadeByParent }

    /// Whether it is marked ``DIComponentBuilder/default()``.
    ///
    /// ```swift
    /// let preferred = graph.components.filter(\.isDefault)
    /// ```
    public var isDefault: Bool { registered.isDefault }

    /// Whether it is marked ``DIComponentBuilder/test()``.
    ///
    /// ```swift
    /// let doubles = graph.components.filter(\.isTest)
    /// ```
    public var isTest: Bool { registered.isTest }

    /// `Cat (BillingFramework, App/Wiring.swift:12)`: the name, framework, part and
    /// location, as problems show it.
    ///
    /// ```swift
    /// print(component.summary)
    /// ```
    public var summary: String { registered.summary }
  }

  /// A service a component provides: a type, optionally under a tag.
  ///
  /// ```swift
  /// let service = component.services[1]
  /// print(service)   // Pet tagged Indoor
  /// ```
  public struct Service: Sendable, CustomStringConvertible {
    /// The type it is resolved as.
    ///
    /// ```swift
    /// if service.type == Pet.self { print("resolvable as a Pet") }
    /// ```
    public let type: Any.Type
    /// The tag of `as(_:tag:)`, if any.
    ///
    /// ```swift
    /// if service.tag == Indoor.self { print("under the Indoor tag") }
    /// ```
    public let tag: Any.Type?

    /// `Pet`, or `Pet tagged Indoor`.
    ///
    /// ```swift
    /// print(service)   // Pet tagged Indoor
    /// ```
    public var description: String { DIResolutionContext.name(of: type, tag: tag) }
  }
}
