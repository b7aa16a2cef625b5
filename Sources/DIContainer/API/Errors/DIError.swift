/// A request the container could not satisfy, with what a person needs to fix it.
///
/// The ``description`` names what was asked, the path of the resolution
/// (`OrderService → PaymentGateway → HTTPClient`), why it failed, the `file:line` of every
/// registration involved, and what the container knows that would fix it:
///
/// ```text
/// Cannot resolve OrderService: HTTPClient is not registered.
///   path: OrderService → PaymentGateway → HTTPClient
///   registrations involved:
///     OrderService: OrderService (Sources/App/Wiring.swift:12)
///     PaymentGateway: StripeGateway (Sources/App/Wiring.swift:13)
///   hint: HTTPClient is registered only under the tag Internal; ask for it with by(tag: Internal.self, on: …), or register it .as(HTTPClient.self) without a tag.
/// ```
///
/// A program reads ``code`` (an extensible set, compared with `==`) and the fields that
/// go with it: ``candidates``, ``cycle``, ``argumentPosition``, ``underlyingError``.
///
/// ```swift
/// do {
///   let service: OrderService = try container.tryResolve()
/// } catch where error.code == .notRegistered {
///   print(error)   // the text above
/// }
/// ```
public struct DIError: Error, Sendable, CustomStringConvertible, Equatable {
  /// One request on the way to the failure.
  ///
  /// ```swift
  /// print(error.path.map(\.requested).joined(separator: " → "))
  /// ```
  public struct Step: Sendable, Equatable {
    /// The type asked for (`PaymentGateway`).
    public let requested: String
    /// The component chosen for it, with its framework, part and `file:line`, if one was.
    public let component: String?
  }

  /// What the error holds, in one allocation: an error is one reference wide, so the
  /// functions it passes through on its way out keep little room for it (deep graphs
  /// recurse through them), and copying it is cheap.
  private final class Contents: Sendable {
    let reason: Reason
    let path: [Step]
    let underlyingError: (any Error)?
    /// Works out the hints when they are read: a request that fails only to be caught
    /// (an optional one) pays nothing for them.
    let hints: (@Sendable () -> [String])?
    let requesterFramework: String?
    let postponableBelow: Int?
    /// For an async component a synchronous request met: what making it needs.
    let asyncNeed: AsyncNeed?

    init(
      reason: Reason, path: [Step], underlyingError: (any Error)? = nil,
      hints: (@Sendable () -> [String])? = nil,
      requesterFramework: String? = nil, postponableBelow: Int? = nil,
      asyncNeed: AsyncNeed? = nil
    ) {
      self.reason = reason
      self.path = path
      self.underlyingError = underlyingError
      self.hints = hints
      self.requesterFramework = requesterFramework
      self.postponableBelow = postponableBelow
      self.asyncNeed = asyncNeed
    }

    /// A copy with the changes `change` makes.
    func with(_ change: (inout Fields) -> Void) -> Contents {
      var fields = Fields(
        path: path, requesterFramework: requesterFramework, postponableBelow: postponableBelow)
      change(&fields)
      return Contents(
        reason: reason, path: fields.path, underlyingError: underlyingError, hints: hints,
        requesterFramework: fields.requesterFramework, postponableBelow: fields.postponableBelow,
        asyncNeed: asyncNeed)
    }

    struct Fields {
      var path: [Step]
      var requesterFramework: String?
      var postponableBelow: Int?
    }
  }

  private var contents: Contents

  /// Why the request failed, with its details (the library's own; programs read ``code``).
  package var reason: Reason { contents.reason }

  /// The requests from the outermost to the one that failed.
  ///
  /// ```swift
  /// let steps = error.path.count   // 3 for OrderService → PaymentGateway → HTTPClient
  /// ```
  public internal(set) var path: [Step] {
    get { contents.path }
    set { contents = contents.with { $0.path = newValue } }
  }

  /// What the container knows that would fix the failure (a tag the type is registered
  /// under, a registration missing `.as`, a framework not appended), one sentence each;
  /// empty when it knows nothing more. The ``description`` ends with them.
  ///
  /// ```swift
  /// for hint in error.hints { print("hint:", hint) }
  /// ```
  public var hints: [String] { contents.hints?() ?? [] }

  /// The framework on whose behalf the failing request was made, if any.
  package var requesterFramework: String? {
    get { contents.requesterFramework }
    set { contents = contents.with { $0.requesterFramework = newValue } }
  }

  /// For a cycle met at an `.objectGraph` component whose initializer is running: the
  /// request frame it is under construction in, so an injection of an instance published
  /// later in the request (a deeper frame) can wait for it instead.
  package var postponableBelow: Int? {
    get { contents.postponableBelow }
    set { contents = contents.with { $0.postponableBelow = newValue } }
  }

  /// Creates an error for a request of `requestedName` that failed for `reason`.
  package init(_ reason: Reason, requestedName: String, component: String? = nil) {
    contents = Contents(
      reason: reason, path: [Step(requested: requestedName, component: component)])
  }

  /// Creates an error whose path the enclosing requests fill in as it propagates.
  package init(_ reason: Reason) {
    contents = Contents(reason: reason, path: [])
  }

  /// The error of a request whose task was cancelled while it waited for another request's
  /// making of `implementation`.
  package init(waitCancelledFor implementation: Any.Type) {
    contents = Contents(
      reason: .waitCancelled(component: String(describing: implementation)), path: [],
      underlyingError: CancellationError())
  }

  /// Creates the error for a request of `requestedName` that no component provides, with
  /// `hints` to work out what would fix it when they are read.
  package init(notRegistered requestedName: String, hints: @escaping @Sendable () -> [String]) {
    contents = Contents(
      reason: .notRegistered, path: [Step(requested: requestedName, component: nil)],
      hints: hints)
  }

  /// Creates the error of a synchronous request that met the async component of `need`,
  /// whose instance is not made yet: an asynchronous request makes it and tries again.
  package init(asyncNeed need: AsyncNeed) {
    contents = Contents(
      reason: .asyncFactory, path: [], asyncNeed: need)
  }

  /// What making the async component this request met needs (see ``init(asyncNeed:)``).
  package var asyncNeed: AsyncNeed? { contents.asyncNeed }

  /// The error of a request whose factory for `implementation` threw `error`: the error
  /// itself when it is a ``DIError`` (a request the factory made failed, and says why),
  /// otherwise a ``Code/factoryFailed`` one carrying it.
  @usableFromInline
  package init(thrownBy implementation: Any.Type, _ error: any Error) {
    if let error = error as? DIError {
      self = error
      return
    }
    contents = Contents(
      reason: .factoryFailed(component: String(describing: implementation)), path: [],
      underlyingError: error)
  }

  /// Whether both errors report the same failure: the same reason, path and requester.
  ///
  /// ```swift
  /// #expect(error == expected)
  /// ```
  public static func == (lhs: DIError, rhs: DIError) -> Bool {
    lhs.reason == rhs.reason && lhs.path == rhs.path
      && lhs.requesterFramework == rhs.requesterFramework
  }

  /// The outermost type asked for.
  ///
  /// ```swift
  /// print(error.requested)   // OrderService
  /// ```
  public var requested: String { path.first?.requested ?? "?" }

  /// Records that the failing request was made while resolving `requested` with
  /// `component`.
  package mutating func enter(_ requested: String, component: String?) {
    path.insert(Step(requested: requested, component: component), at: 0)
  }
}

extension DIError {
  /// What kind of failure this is: compare it with the static members of
  /// ``DIError/Code``.
  ///
  /// ```swift
  /// if error.code == .cycle { print(error.cycle.map(\.requested)) }
  /// ```
  public var code: Code { reason.code }

  /// The candidates of an ambiguous service (``Code/ambiguous``), each with its
  /// implementation, framework, part and `file:line`; empty for other failures.
  ///
  /// ```swift
  /// if error.code == .ambiguous { print(error.candidates.joined(separator: "\n")) }
  /// ```
  public var candidates: [String] {
    guard case .ambiguous(let candidates) = reason else { return [] }
    return candidates
  }

  /// The loop of a cycle (``Code/cycle``), from the first request that comes back to its
  /// return: `A → B → A`; empty for other failures. For two requests that wait for each
  /// other, the path of this one up to the instance it waited for.
  ///
  /// ```swift
  /// print(error.cycle.map(\.requested).joined(separator: " → "))   // A → B → A
  /// ```
  public var cycle: [Step] {
    switch reason {
    case .cycle: Array(loop)
    case .waitLoop: path
    default: []
    }
  }

  /// The position (from 1) of the runtime argument that was missing, of another type, or
  /// left over (``Code/missingArgument``, ``Code/wrongArgument``, ``Code/extraArguments``,
  /// ``Code/argumentNotHashable``); nil for other failures.
  ///
  /// ```swift
  /// if let position = error.argumentPosition { print("argument \(position)") }
  /// ```
  public var argumentPosition: Int? {
    switch reason {
    case .missingArgument(let position, _, _), .wrongArgument(let position, _, _),
      .argumentNotHashable(let position, _):
      position
    case .extraArguments(_, let taken): taken + 1
    case .argumentsNotTaken: 1
    default: nil
    }
  }

  /// The error a factory, an injection or a storage threw, when that is why the request
  /// failed (``Code/factoryFailed``); nil otherwise.
  ///
  /// ```swift
  /// if let cause = error.underlyingError { print("because:", cause) }
  /// ```
  public var underlyingError: (any Error)? { contents.underlyingError }
}

extension DIError {
  /// A cycle met at an `.objectGraph` component whose initializer runs in request frame
  /// `frame` (see ``postponableBelow``).
  @inline(never)
  package static func underConstruction(at frame: Int) -> DIError {
    var error = DIError(.cycle)
    error.postponableBelow = frame
    return error
  }

  /// The graph is deeper than the thread's stack holds, `depth` components down.
  @inline(never)
  package static func tooDeep(_ depth: Int) -> DIError {
    DIError(.tooDeep(depth: depth))
  }
}
