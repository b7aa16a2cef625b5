extension DIError {
  /// A kind of failure, for programs: an extensible set of static members, so a new kind
  /// does not break a `switch` (compare with `==`).
  ///
  /// ```swift
  /// do {
  ///   let cat: Cat = try container.tryResolve()
  /// } catch where error.code == .notRegistered {
  ///   print("register Cat first")
  /// }
  /// ```
  public struct Code: Hashable, Sendable, CustomStringConvertible {
    private enum Kind: String, Hashable, Sendable {
      case notRegistered, ambiguous, cycle, tooDeep, noInitializer, missingArgument
      case wrongArgument, extraArguments, argumentNotHashable, factoryFailed, asyncFactory
      case notAService, wrongInjectionTarget, outsideScope, scopeClosed, containerReleased
      case containerShutDown, storageMismatch, factoryReturnedNil, cancelled
    }

    private let kind: Kind

    private init(_ kind: Kind) {
      self.kind = kind
    }

    /// The name of the code.
    ///
    /// ```swift
    /// print(error.code)   // notRegistered
    /// ```
    public var description: String { kind.rawValue }

    /// No component provides the service (under the tag, if one was asked for); the
    /// error's ``DIError/hints`` say what the container knows that would fix it.
    public static let notRegistered = Code(.notRegistered)
    /// Several components provide the service and none is preferred
    /// (``DIError/candidates``).
    public static let ambiguous = Code(.ambiguous)
    /// The request needs itself before it exists, within one request or between two that
    /// wait for each other (``DIError/cycle``).
    public static let cycle = Code(.cycle)
    /// The graph is deeper than the thread's remaining stack can hold.
    public static let tooDeep = Code(.tooDeep)
    /// The component was registered without an initializer (`register(T.self)`), so only
    /// `inject(into:)` can serve it.
    public static let noInitializer = Code(.noInitializer)
    /// An `arg` parameter has no runtime argument left to take
    /// (``DIError/argumentPosition``).
    public static let missingArgument = Code(.missingArgument)
    /// A runtime argument has another type than its `arg` parameter
    /// (``DIError/argumentPosition``).
    public static let wrongArgument = Code(.wrongArgument)
    /// Runtime arguments were passed that no `arg` parameter takes.
    public static let extraArguments = Code(.extraArguments)
    /// A runtime argument of a `.multiton` component is not `Hashable`
    /// (``DIError/argumentPosition``).
    public static let argumentNotHashable = Code(.argumentNotHashable)
    /// A factory threw (``DIError/underlyingError``).
    public static let factoryFailed = Code(.factoryFailed)
    /// The request's task was cancelled while it waited for another request to make the
    /// component (``DIError/underlyingError`` is the `CancellationError`); that making goes
    /// on for the others.
    public static let cancelled = Code(.cancelled)
    /// A factory that returns an `Optional` (`register { () -> Cat? in … }`, which provides
    /// `Cat`) returned nil.
    public static let factoryReturnedNil = Code(.factoryReturnedNil)
    /// A synchronous request needs a component whose factory is `async`.
    public static let asyncFactory = Code(.asyncFactory)
    /// The component was registered `as` a service its instances are not.
    public static let notAService = Code(.notAService)
    /// `inject(into:)` was given an instance of another type than the component chosen
    /// for it makes.
    public static let wrongInjectionTarget = Code(.wrongInjectionTarget)
    /// A `.scoped` component was asked for outside every request scope.
    public static let outsideScope = Code(.outsideScope)
    /// A request scope (or a `Lazy`/`Provider` made in one) was used after it closed.
    public static let scopeClosed = Code(.scopeClosed)
    /// The container of a request scope, `Lazy` or `Provider` was released.
    public static let containerReleased = Code(.containerReleased)
    /// The container was shut down.
    public static let containerShutDown = Code(.containerShutDown)
    /// A custom scope's ``DIStorage`` returned the value of another component.
    public static let storageMismatch = Code(.storageMismatch)
  }
}
