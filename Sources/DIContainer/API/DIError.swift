/// A request the container could not satisfy, with what a person needs to fix it.
///
/// The ``description`` names what was asked, the path of the resolution
/// (`OrderService → PaymentGateway → HTTPClient`), why it failed, and the `file:line` of
/// every registration involved:
///
/// ```text
/// Cannot resolve OrderService: HTTPClient is not registered.
///   path: OrderService → PaymentGateway → HTTPClient
///   registrations involved:
///     OrderService: OrderService (Sources/App/Wiring.swift:12)
///     PaymentGateway: StripeGateway (Sources/App/Wiring.swift:13)
/// ```
///
/// ```swift
/// do {
///   let service: OrderService = try container.tryResolve()
/// } catch {
///   print(error)   // the text above
/// }
/// ```
public struct DIError: Error, Sendable, CustomStringConvertible, Equatable {
  /// Why a request failed.
  ///
  /// ```swift
  /// if case .ambiguous(let candidates) = error.reason { print(candidates) }
  /// ```
  public enum Reason: Sendable, Equatable {
    /// No component provides the service (under the tag, if one was asked for).
    case notRegistered
    /// Several components provide the service and none is preferred; their summaries
    /// (type, framework, part, `file:line`).
    case ambiguous(candidates: [String])
    /// The request needs itself before it exists; the path shows the loop.
    case cycle
    /// The graph is deeper than the thread's stack can hold; `depth` components were
    /// under construction, one inside the other.
    case tooDeep(depth: Int)
    /// Two requests (on two threads) each wait for an instance the other one is making;
    /// the path ends at the instance this request waited for.
    case waitLoop
    /// A runtime argument has another type than the `arg` parameter it goes to.
    case wrongArgument(position: Int, expected: String, actual: String)
    /// An `arg` parameter has no runtime argument left to take.
    case missingArgument(position: Int, expected: String)
    /// The component was registered without an initializer (`register(T.self)`), so only
    /// `inject(into:)` can serve it.
    case noInitializer
    /// The component was registered `as` a service its instances do not conform to.
    case notAService
    /// Any other misuse, described in words.
    case invalid(String)
  }

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
    let requesterFramework: String?
    let postponableBelow: Int?

    init(reason: Reason, path: [Step], requesterFramework: String?, postponableBelow: Int?) {
      self.reason = reason
      self.path = path
      self.requesterFramework = requesterFramework
      self.postponableBelow = postponableBelow
    }

    /// A copy with the changes `change` makes.
    func with(_ change: (inout Fields) -> Void) -> Contents {
      var fields = Fields(
        path: path, requesterFramework: requesterFramework, postponableBelow: postponableBelow)
      change(&fields)
      return Contents(
        reason: reason, path: fields.path, requesterFramework: fields.requesterFramework,
        postponableBelow: fields.postponableBelow)
    }

    struct Fields {
      var path: [Step]
      var requesterFramework: String?
      var postponableBelow: Int?
    }
  }

  private var contents: Contents

  /// Why the request failed.
  ///
  /// ```swift
  /// if error.reason == .notRegistered { registerDefaults(container) }
  /// ```
  public var reason: Reason { contents.reason }
  /// The requests from the outermost to the one that failed.
  ///
  /// ```swift
  /// let steps = error.path.count   // 3 for OrderService → PaymentGateway → HTTPClient
  /// ```
  public internal(set) var path: [Step] {
    get { contents.path }
    set { contents = contents.with { $0.path = newValue } }
  }
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

  /// Whether both errors report the same failure: the same reason, path and requester.
  ///
  /// ```swift
  /// #expect(error == expected)
  /// ```
  public static func == (lhs: DIError, rhs: DIError) -> Bool {
    lhs.reason == rhs.reason && lhs.path == rhs.path
      && lhs.requesterFramework == rhs.requesterFramework
  }

  /// What kind of failure this is: compare it with the static members of
  /// ``DIError/Code``.
  ///
  /// ```swift
  /// if error.code == .cycle { print(error) }
  /// ```
  public var code: Code {
    switch reason {
    case .notRegistered: .notRegistered
    case .ambiguous: .ambiguous
    case .cycle, .waitLoop: .cycle
    case .tooDeep: .tooDeep
    case .wrongArgument: .wrongArgument
    case .missingArgument: .missingArgument
    case .noInitializer: .noInitializer
    case .notAService: .notAService
    case .invalid: .invalid
    }
  }

  /// Creates an error for a request of `requestedName` that failed for `reason`.
  package init(_ reason: Reason, requestedName: String, component: String? = nil) {
    contents = Contents(
      reason: reason, path: [Step(requested: requestedName, component: component)],
      requesterFramework: nil, postponableBelow: nil)
  }

  /// Creates an error whose path the enclosing requests fill in as it propagates.
  package init(_ reason: Reason) {
    contents = Contents(reason: reason, path: [], requesterFramework: nil, postponableBelow: nil)
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

  /// The text a person acts on: what was asked, why it failed, the path and the
  /// registrations involved (see the type's documentation for an example).
  ///
  /// ```swift
  /// print(error.description)
  /// ```
  public var description: String {
    let failing = path.last?.requested ?? "?"
    var text = "Cannot resolve \(requested): \(explanation(failing: failing))"
    text += "\n  path: " + shownPath.map(\.requested).joined(separator: " → ")
    // Each registration once, however often the path (a cycle's) comes back to it.
    var seen: Set<String> = []
    let involved = shownPath.compactMap { step -> String? in
      guard let component = step.component, seen.insert(component).inserted else { return nil }
      return "\(step.requested): \(component)"
    }
    if !involved.isEmpty {
      text += "\n  registrations involved:" + involved.map { "\n    " + $0 }.joined()
    }
    return text
  }

  private func explanation(failing: String) -> String {
    switch reason {
    case .notRegistered:
      return "\(failing) is not registered."
    case .ambiguous(let candidates):
      return "\(failing) is ambiguous\(asker): \(candidates.joined(separator: ", "));"
        + " none is preferred (mark one .default(), or use a tag)."
    case .cycle:
      return "the cycle " + loop.map(\.requested).joined(separator: " → ")
        + " cannot be built (use .objectGraph or a cached lifetime with"
        + " injection(cycle: true), or a Lazy/Provider)."
    case .tooDeep(let depth):
      return "the graph is deeper than this thread's stack can hold at \(failing)"
        + " (\(depth) components under construction, one inside the other); resolve it on a"
        + " thread with a larger stack, or break the chain with a Lazy/Provider."
    case .waitLoop:
      return "\(failing) is being made by another thread's request, which waits (directly or"
        + " through others) for an instance this request is making; building both would"
        + " deadlock (break the loop with injection(cycle: true, …) or a Lazy/Provider, or"
        + " create these instances ahead, e.g. with initializeSingletonObjects())."
    case .wrongArgument(let position, let expected, let actual):
      return "argument \(position) for \(failing) is \(actual), expected \(expected)."
    case .missingArgument(let position, let expected):
      return "argument \(position) (\(expected)) for \(failing) was not passed"
        + " (runtime arguments go to the component asked for)."
    case .noInitializer:
      return "\(failing) was registered without an initializer; use inject(into:)."
    case .notAService:
      return "the component registered for \(failing) does not conform to it."
    case .invalid(let message):
      return message
    }
  }

  /// ` for CheckoutService (CheckoutFramework)`: who made the failing request.
  private var asker: String {
    switch (path.count > 1 ? path[path.count - 2].requested : nil, requesterFramework) {
    case (let component?, let framework?): " for \(component) (\(framework))"
    case (let component?, nil): " for \(component)"
    case (nil, let framework?): " for \(framework)"
    case (nil, nil): ""
    }
  }

  /// The path as shown: a cycle is cut where it first comes back to a request.
  private var shownPath: ArraySlice<Step> {
    guard reason == .cycle else { return path[...] }
    let names = path.map { $0.component ?? $0.requested }
    for end in names.indices where names[..<end].contains(names[end]) {
      return path[...end]
    }
    return path[...]
  }

  /// The loop of a cycle: from the first repeated request to its repetition.
  private var loop: ArraySlice<Step> {
    let shown = shownPath
    guard let last = shown.last,
      let start = shown.dropLast().firstIndex(where: {
        ($0.component ?? $0.requested) == (last.component ?? last.requested)
      })
    else { return shown }
    return path[start...shown.endIndex - 1]
  }
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
      case wrongArgument, notAService, invalid
    }

    private let kind: Kind

    private init(_ kind: Kind) {
      self.kind = kind
    }

    /// The name of the code: `cycle`.
    ///
    /// ```swift
    /// print(error.code)   // notRegistered
    /// ```
    public var description: String { kind.rawValue }

    /// No component provides the service.
    public static let notRegistered = Code(.notRegistered)
    /// Several components provide the service and none is preferred.
    public static let ambiguous = Code(.ambiguous)
    /// The request needs itself before it exists, within one request or between two.
    public static let cycle = Code(.cycle)
    /// The graph is deeper than the thread's remaining stack can hold.
    public static let tooDeep = Code(.tooDeep)
    /// The component was registered without an initializer.
    public static let noInitializer = Code(.noInitializer)
    /// An `arg` parameter has no runtime argument left to take.
    public static let missingArgument = Code(.missingArgument)
    /// A runtime argument has another type than its `arg` parameter.
    public static let wrongArgument = Code(.wrongArgument)
    /// The component was registered `as` a service its instances are not.
    public static let notAService = Code(.notAService)
    /// Any other misuse, described in the error's text.
    public static let invalid = Code(.invalid)
  }
}

extension DIError.Reason {
  /// No component, or no single component, provides the service.
  var isNoUniqueCandidate: Bool {
    switch self {
    case .notRegistered, .ambiguous: true
    default: false
    }
  }
}
