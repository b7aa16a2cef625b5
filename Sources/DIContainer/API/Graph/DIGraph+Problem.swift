extension DIGraph {
  /// Something that makes a graph fail at run time (an error), or that is likely a mistake
  /// (a warning), found by ``DIGraph/findProblems()``.
  ///
  /// ```swift
  /// for problem in graph.findProblems() where problem.severity == .error {
  ///   print(problem.message)
  /// }
  /// ```
  public struct Problem: Sendable, Equatable, CustomStringConvertible {
    /// How serious a problem is.
    ///
    /// ```swift
    /// let errors = problems.filter { $0.severity == .error }
    /// ```
    public enum Severity: Int, Sendable, Comparable, CustomStringConvertible {
      /// Likely a mistake, but every request can still succeed.
      ///
      /// ```swift
      /// let warnings = problems.filter { $0.severity == .warning }
      /// ```
      case warning
      /// Some request fails.
      ///
      /// ```swift
      /// let errors = problems.filter { $0.severity == .error }
      /// ```
      case error

      ///
      /// ```swift
      /// #expect(DIGraph.Problem.Severity.warning < .error)
      /// ```
      public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

      ///
      /// ```swift
      /// print(problem.severity)   // error
      /// ```
      public var description: String {
        switch self {
        case .warning: "warning"
        case .error: "error"
        }
      }
    }

    /// What kind of problem it is. An open set: new kinds may come in later versions, so a
    /// `switch` over kinds needs a `default`.
    ///
    /// ```swift
    /// let cycles = problems.filter { $0.kind == .cycle }
    /// ```
    public struct Kind: Hashable, Sendable, CustomStringConvertible {
      /// A short name: `notRegistered`.
      ///
      /// ```swift
      /// print(problem.kind.name)   // notRegistered
      /// ```
      public let name: String

      /// A needed component was registered without an initializer (`register(T.self)`).
      ///
      /// ```swift
      /// let found = problems.filter { $0.kind == .noInitializer }
      /// ```
      public static let noInitializer = Self(name: "noInitializer")
      /// A synchronous path reaches an async component: a `Lazy` or `Provider` of it (its
      /// `value` cannot await; use `AsyncLazy`/`AsyncProvider`), or, as a warning, an
      /// injection closure (it works only in requests made with `resolveAsync()`).
      ///
      /// ```swift
      /// let found = problems.filter { $0.kind == .synchronousPathToAsync }
      /// ```
      public static let synchronousPathToAsync = Self(name: "synchronousPathToAsync")
      /// No component provides a dependency that is not optional.
      ///
      /// ```swift
      /// let found = problems.filter { $0.kind == .notRegistered }
      /// ```
      public static let notRegistered = Self(name: "notRegistered")
      /// Several candidates and none is preferred for the asking framework (an error; a
      /// warning for an optional dependency, which silently gets nil).
      ///
      /// ```swift
      /// let found = problems.filter { $0.kind == .ambiguous }
      /// ```
      public static let ambiguous = Self(name: "ambiguous")
      /// A cycle that cannot be built.
      ///
      /// ```swift
      /// let found = problems.filter { $0.kind == .cycle }
      /// ```
      public static let cycle = Self(name: "cycle")
      /// A component with `arg` parameters is a dependency of another component, where no
      /// runtime argument reaches it.
      ///
      /// ```swift
      /// let found = problems.filter { $0.kind == .missingArgument }
      /// ```
      public static let missingArgument = Self(name: "missingArgument")
      /// A component no `.root()` component reaches, when there are roots (a warning).
      ///
      /// ```swift
      /// let found = problems.filter { $0.kind == .unreachable }
      /// ```
      public static let unreachable = Self(name: "unreachable")
      /// A longer-lived component needs a `.scoped` one other than through a `Lazy` or
      /// `Provider`, so it would keep one request's instance for every later request.
      ///
      /// ```swift
      /// let found = problems.filter { $0.kind == .captiveDependency }
      /// ```
      public static let captiveDependency = Self(name: "captiveDependency")

      ///
      /// ```swift
      /// print(problem.kind)   // cycle
      /// ```
      public var description: String { name }
    }

    /// What kind of problem it is.
    ///
    /// ```swift
    /// if problem.kind == .cycle { print(problem.message) }
    /// ```
    public let kind: Kind
    /// Whether it fails a request or is only suspicious.
    ///
    /// ```swift
    /// if problem.severity == .error { failed = true }
    /// ```
    public let severity: Severity
    /// The ``Component/id``s involved, the one the problem is about first.
    ///
    /// ```swift
    /// let about = graph.components[problem.components[0]]
    /// ```
    public let components: [Int]
    /// What is wrong and where, with the `file:line` of every registration involved.
    ///
    /// ```swift
    /// print(problem.message)
    /// ```
    public let message: String

    /// `error: <message>`.
    ///
    /// ```swift
    /// print(problem)   // error: Shelf (App.swift:3) needs Store …
    /// ```
    public var description: String { "\(severity): \(message)" }
  }
}
