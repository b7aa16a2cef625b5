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

  /// Why the request failed.
  ///
  /// ```swift
  /// if error.reason == .notRegistered { registerDefaults(container) }
  /// ```
  public let reason: Reason
  /// The requests from the outermost to the one that failed.
  ///
  /// ```swift
  /// let steps = error.path.count   // 3 for OrderService → PaymentGateway → HTTPClient
  /// ```
  public internal(set) var path: [Step]
  /// The framework on whose behalf the failing request was made, if any.
  package var requesterFramework: String?

  /// Creates an error for a request of `requestedName` that failed for `reason`.
  package init(_ reason: Reason, requestedName: String, component: String? = nil) {
    self.reason = reason
    self.path = [Step(requested: requestedName, component: component)]
  }

  /// Creates an error whose path the enclosing requests fill in as it propagates.
  package init(_ reason: Reason) {
    self.reason = reason
    self.path = []
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
    let involved = path.compactMap { step in step.component.map { "\(step.requested): \($0)" } }
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

extension DIError.Reason {
  /// No component, or no single component, provides the service.
  var isNoUniqueCandidate: Bool {
    switch self {
    case .notRegistered, .ambiguous: true
    default: false
    }
  }
}
