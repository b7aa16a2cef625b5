extension DIGraph {
  /// What one initializer parameter or injection parameter of a component asks for, and
  /// the components that serve it.
  ///
  /// ```swift
  /// for edge in graph.edges where edge.modifiers.contains(.optional) {
  ///   print(graph.components[edge.from].name, "may do without", edge.requested)
  /// }
  /// ```
  public struct Edge: Sendable {
    /// Where in a component the request is made.
    ///
    /// ```swift
    /// if case .injection(let index, let parameter) = edge.site { print(index, parameter) }
    /// ```
    public enum Site: Sendable, Equatable, CustomStringConvertible {
      /// Parameter `parameter` (from 0) of the initializer.
      ///
      /// ```swift
      /// #expect(edge.site == .initializer(parameter: 0))
      /// ```
      case initializer(parameter: Int)
      /// Parameter `parameter` (from 0) of injection `injection` (from 0, in registration
      /// order).
      ///
      /// ```swift
      /// #expect(edge.site == .injection(0, parameter: 1))
      /// ```
      case injection(Int, parameter: Int)

      /// `parameter 1 of the initializer`, `parameter 1 of injection 2` (counting from 1).
      ///
      /// ```swift
      /// print(edge.site)
      /// ```
      public var description: String {
        switch self {
        case .initializer(let parameter):
          "parameter \(parameter + 1) of the initializer"
        case .injection(let injection, let parameter):
          "parameter \(parameter + 1) of injection \(injection + 1)"
        }
      }
    }

    /// How a request is made: the modifiers of the parameter.
    ///
    /// ```swift
    /// if edge.modifiers.contains(.delayed) { print("made on first use") }
    /// ```
    public struct Modifiers: OptionSet, Sendable, Hashable {
      ///
      /// ```swift
      /// let bits = edge.modifiers.rawValue
      /// ```
      public let rawValue: UInt8

      /// Makes a set from its raw bits.
      ///
      /// ```swift
      /// let modifiers = DIGraph.Edge.Modifiers(rawValue: 1)   // .optional
      /// ```
      public init(rawValue: UInt8) { self.rawValue = rawValue }

      /// `T?`: nil when there is no unambiguous candidate.
      ///
      /// ```swift
      /// #expect(edge.modifiers.contains(.optional))
      /// ```
      public static let optional = Self(rawValue: 1 << 0)
      /// `many($0)`: every candidate.
      ///
      /// ```swift
      /// #expect(edge.modifiers.contains(.many))
      /// ```
      public static let many = Self(rawValue: 1 << 1)
      /// Every candidate of the asking component's framework only.
      ///
      /// ```swift
      /// #expect(edge.modifiers.contains(.manyInFramework))
      /// ```
      public static let manyInFramework = Self(rawValue: 1 << 2)
      /// `by(tag:on:)`: a tagged service.
      ///
      /// ```swift
      /// #expect(edge.modifiers.contains(.tagged))
      /// ```
      public static let tagged = Self(rawValue: 1 << 3)
      /// `Lazy`/`Provider`: made later, so not part of a cycle.
      ///
      /// ```swift
      /// #expect(edge.modifiers.contains(.delayed))
      /// ```
      public static let delayed = Self(rawValue: 1 << 4)
      /// `arg($0)`: a runtime argument, not a dependency.
      ///
      /// ```swift
      /// #expect(edge.modifiers.contains(.argument))
      /// ```
      public static let argument = Self(rawValue: 1 << 5)
      /// In an `injection(cycle: true, …)`: done after the graph is built.
      ///
      /// ```swift
      /// #expect(edge.modifiers.contains(.cycle))
      /// ```
      public static let cycle = Self(rawValue: 1 << 6)
      /// `AsyncLazy`/`AsyncProvider`: a delayed value that awaits, so it may reach an async
      /// component.
      ///
      /// ```swift
      /// #expect(edge.modifiers.contains(.awaiting))
      /// ```
      public static let awaiting = Self(rawValue: 1 << 7)
    }

    /// The ``Component/id`` of the component that asks.
    ///
    /// ```swift
    /// let asker = graph.components[edge.from]
    /// ```
    public let from: Int
    /// Where in that component.
    ///
    /// ```swift
    /// print(edge.site)   // parameter 1 of the initializer
    /// ```
    public let site: Site
    /// The service type asked for (the wrapped type, without modifiers).
    ///
    /// ```swift
    /// if edge.type == Logger.self { print("asks for a Logger") }
    /// ```
    public let type: Any.Type
    /// The tag asked for, if any.
    ///
    /// ```swift
    /// if edge.tag == Indoor.self { print("asks for the Indoor one") }
    /// ```
    public let tag: Any.Type?
    /// How it is asked for.
    ///
    /// ```swift
    /// #expect(edge.modifiers == [.optional])
    /// ```
    public let modifiers: Modifiers
    /// Every component that provides the service (for `many`, those it collects).
    ///
    /// ```swift
    /// print(edge.candidates.map { graph.components[$0].summary })
    /// ```
    public let candidates: [Int]
    /// The components resolution uses: the chosen candidate, or every candidate for
    /// `many`; empty when there is none, when the choice is ambiguous, and for arguments.
    ///
    /// ```swift
    /// let used = edge.targets.map { graph.components[$0].name }
    /// ```
    public let targets: [Int]

    /// The service asked for: `Logger`, `Pet tagged Indoor`.
    ///
    /// ```swift
    /// print(edge.requested)
    /// ```
    public var requested: String { DIResolutionContext.name(of: type, tag: tag) }

    /// Whether it asks for every candidate (`many` or in-framework `many`).
    var isMany: Bool { !modifiers.isDisjoint(with: [.many, .manyInFramework]) }

    /// Whether it takes part in building the instance now: a dependency that is neither a
    /// runtime argument nor delayed.
    var isEager: Bool { modifiers.isDisjoint(with: [.argument, .delayed]) }
  }
}
