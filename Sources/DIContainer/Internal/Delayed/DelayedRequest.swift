/// What a `Lazy` or `Provider` needs to make its value later: for one resolved from a
/// container, the container (held weakly), the framework that asked, the tag, the object
/// graph of the resolution that made it, its request scope (held weakly), if it was made
/// in one, and the runtime arguments of the request, if it was the one asked for; for one
/// made from a closure (`Lazy { Cat() }`, `AsyncLazy { try await Pool.connect() }`), the
/// closure.
///
/// Holds the graph strongly, so its `.objectGraph` objects are reused by later
/// resolutions; the graph holds them weakly once no resolution uses it (see
/// ``ObjectGraph``), so nothing here outlives the delayed value itself.
final class DelayedRequest: Sendable {
  private let source: Source
  /// `Lazy<Cat>`, for errors.
  let name: String
  /// Where the delayed value was made, for the message of a failed `value`.
  private let origin: Origin

  /// Where the value comes from.
  private enum Source {
    case container(Resolution)
    case closure(@Sendable () -> Any)
    /// The closure of `AsyncLazy { … }` or `AsyncProvider { … }`: awaited, and may throw.
    case asyncClosure(@Sendable () async throws -> Any)
  }

  /// What resolving the value in its container needs.
  fileprivate struct Resolution {
    let container: WeakReference
    let requester: DIModuleID?
    let tag: Any.Type?
    let graph: ObjectGraph
    /// The request scope the value was made in: it resolves there, and fails once the
    /// scope is closed or gone. Weak, so a delayed value kept by a `.scoped` instance
    /// makes no cycle with its scope.
    let requestScope: WeakReference?
    /// The component to use, for one element of `many`; nil to choose a candidate.
    let component: Component?
    /// The runtime arguments of `resolve(arg:)`/`resolve(args:)` when the delayed value was
    /// what the caller asked for: every value it makes gets them (an `[Any]`).
    let arguments: Instance?
  }

  /// Where a delayed value was made: for a component (injected into it, or resolved by
  /// its factory), by a request whose `file:line` is known or not, or from a closure.
  /// Names the component rather than holding it: a cached instance keeping the delayed
  /// value would otherwise keep its own component, and so itself.
  private enum Origin {
    case component(Component.Name)
    case site(CallSite)
    case closure(CallSite)
    case unknown
  }

  init(
    name: String, context: inout DIResolutionContext, tag: Any.Type?, component: Component? = nil
  ) {
    self.name = name
    source = .container(
      Resolution(
        container: WeakReference(context.container), requester: context.requester, tag: tag,
        graph: context.sharedGraph(),
        requestScope: context.requestScope.map { WeakReference($0) }, component: component,
        // Runtime arguments go to the component asked for: this delayed value's, when it
        // is what the request asked for.
        arguments: context.depth == 0 ? context.arguments.map { Instance(value: $0) } : nil))
    if let owner = context.request.innermostComponent {
      origin = .component(owner.identity)
    } else if let site = context.site {
      origin = .site(site)
    } else {
      origin = .unknown
    }
  }

  /// A delayed value whose value `make` makes, with no container; made at `site`.
  init(name: String, site: CallSite, make: @escaping @Sendable () -> Any) {
    self.name = name
    source = .closure(make)
    origin = .closure(site)
  }

  /// A delayed value whose value `make` makes, awaited, with no container; made at `site`.
  init(name: String, site: CallSite, make: @escaping @Sendable () async throws -> Any) {
    self.name = name
    source = .asyncClosure(make)
    origin = .closure(site)
  }

  /// Writes what `make` returns to `target`, or the error's text when it fails: what
  /// `print(lazy)` and `print(provider)` show (the value, as the seed's examples print it),
  /// without stopping the program.
  func write(
    _ make: () throws(DIError) -> Any, to target: inout some TextOutputStream
  ) {
    do throws(DIError) {
      target.write(String(describing: try make()))
    } catch {
      target.write("\(name) could not make its value: \(error)")
    }
  }

  /// Stops the program with `error`, naming where the delayed value was made: a property
  /// such as `Lazy.value` cannot receive its caller's `file:line`.
  func fail(_ error: DIError) -> Never {
    switch origin {
    case .component(let owner):
      failResolution(
        error, requestedAt: "\(name).value; the \(name) was made for \(owner)",
        file: owner.file, line: owner.line)
    case .site(let site):
      failResolution(
        error,
        requestedAt: "\(name).value; the \(name) was resolved at \(site)",
        file: site.file, line: site.line)
    case .closure(let site):
      failResolution(
        error, requestedAt: "\(name).value; the \(name) was made from a closure at \(site)",
        file: site.file, line: site.line)
    case .unknown:
      failResolution(
        error,
        requestedAt: "\(name).value; the \(name) was resolved by a form that does not know"
          + " its caller's line (tryResolve()); resolve() records it",
        file: "(unknown)", line: 0)
    }
  }

  /// Resolves a `T` now, in the captured graph, with `arguments` for the component asked
  /// for (those of the request that made this delayed value, if any, otherwise); or calls
  /// the closure.
  func resolve<T>(_ type: T.Type, arguments: [Any]?) throws(DIError) -> T {
    if case .closure(let make) = source {
      // `make` is the closure of a delayed value of `T`, which returns a `T`.
      return UnsafeExactCast.known(make(), as: T.self)
    }
    let target = try target(arguments: arguments)
    do throws(DIError) {
      return try DIResolutionContext.with(
        target.container, requester: target.resolution.requester, arguments: target.arguments,
        graph: target.resolution.graph, requestScope: target.scope
      ) { (context) throws(DIError) -> T in
        try target.resolution.value(T.self, in: &context)
      }
    } catch {
      throw named(error)
    }
  }

  /// Resolves a `T` now like ``resolve(_:arguments:)``, in the captured graph, awaiting
  /// the async factories of its graph.
  func resolveAsync<T>(_ type: T.Type, arguments: [Any]?) async throws(DIError) -> T {
    switch source {
    case .closure(let make):
      // `make` is the closure of a delayed value of `T`, which returns a `T`.
      return UnsafeExactCast.known(make(), as: T.self)
    case .asyncClosure(let make):
      return try await awaitClosure(make, as: T.self)
    case .container:
      break
    }
    let target = try target(arguments: arguments)
    do throws(DIError) {
      return try await target.container.resolvingAsync(
        requester: target.resolution.requester, arguments: target.arguments,
        requestScope: target.scope, graph: target.resolution.graph,
        root: target.container.mayAwaitComponents ? target.resolution.planRoot(for: T.self) : nil
      ) { (context) throws(DIError) -> T in
        try target.resolution.value(T.self, in: &context)
      }
    } catch {
      throw named(error)
    }
  }

  /// What the closure `make` of an async delayed value of `T` returns; an error it throws
  /// is a ``DIError`` (one it threw itself, or a ``DIError/Code/factoryFailed`` one carrying
  /// it) whose path names this delayed value and where it was made.
  private func awaitClosure<T>(
    _ make: @Sendable () async throws -> Any, as type: T.Type
  ) async throws(DIError) -> T {
    let value: Any
    do {
      value = try await make()
    } catch {
      var failure = DIError(thrownBy: T.self, error)
      let site: String? = if case .closure(let site) = origin { "\(site)" } else { nil }
      failure.enter(name, component: site.map { "a closure (\($0))" })
      throw failure
    }
    // `make` is the closure of a delayed value of `T`, which returns a `T`.
    return UnsafeExactCast.known(value, as: T.self)
  }

  /// What a resolution of the value runs on: the container, still alive, the request
  /// scope, still open, and the runtime arguments (`arguments`, or those of the request
  /// that made this delayed value: only one of them has any).
  private struct Target {
    let resolution: Resolution
    let container: DIContainer
    let scope: DIRequestScope?
    let arguments: [Any]?
  }

  private func target(arguments: [Any]?) throws(DIError) -> Target {
    guard case .container(let resolution) = source else {
      preconditionFailure("a delayed value made from a closure has no container")
    }
    guard let container = resolution.container.object as? DIContainer else {
      throw DIError(.containerReleased(owner: "this \(name)"), requestedName: name)
    }
    var scope: DIRequestScope?
    if let requestScope = resolution.requestScope {
      scope = requestScope.object as? DIRequestScope
      guard let scope, !scope.isClosed else {
        throw DIError(.scopeClosed(delayed: name), requestedName: name)
      }
    }
    return Target(
      resolution: resolution, container: container, scope: scope,
      arguments: arguments ?? resolution.arguments.map { $0.value as! [Any] })
  }

  /// `error`, as the failure of this delayed value.
  private func named(_ error: DIError) -> DIError {
    var error = error
    error.enter(name, component: nil)
    return error
  }
}

extension DelayedRequest.Resolution {
  /// The value of a `T`: the component's, for one element of `many`, or the candidate's.
  fileprivate func value<T>(_ type: T.Type, in context: inout DIResolutionContext)
    throws(DIError) -> T
  {
    if let component { return try context.instance(T.self, of: component) }
    return try context.valueWithArguments(T.self, tag: tag)
  }

  /// Where the plan of an asynchronous request of the value, a `T`, starts.
  fileprivate func planRoot<T>(for type: T.Type) -> AsyncPlan.Root {
    if let component { return .component(component) }
    var request = DIRequest(for: T.self)
    if let tag { request.tag = tag }
    return .service(request)
  }
}

/// An element type of `many` that is not registered itself but stands for the components
/// of another service: a delayed value (one per component), an optional (the instances).
protocol ManyElement {
  /// The elements for every component of the service under `tag`, in registration order;
  /// only those of the requester's framework when `inFramework`.
  static func all(
    in context: inout DIResolutionContext, tag: Any.Type?, inFramework: Bool
  ) throws(DIError) -> [Self]
}

/// A delayed parameter type (`Lazy`, `Provider`, their async forms and the argument forms
/// of all four): made from a ``DelayedCore``; `many` gives one per component of the
/// wrapped service.
protocol DelayedModifier: DIParameterModifier, ManyElement {
  /// The type made later.
  associatedtype Wrapped
  /// What it keeps of what it resolves.
  associatedtype Kept: DelayedKeeping
  init(core: DelayedCore<Kept>)
  /// The name errors and descriptions use: `Lazy<Cat>`, `Provider1<Kitten, String>`.
  static var delayedName: String { get }
  /// The types of the runtime arguments its `value` passes, for the argument forms.
  static var argumentTypes: [ObjectIdentifier]? { get }
  /// Whether its value is awaited (the async forms).
  static var isAwaiting: Bool { get }
}

extension DelayedModifier {
  static var delayedName: String { "\(Self.self)" }
  static var argumentTypes: [ObjectIdentifier]? { nil }
  static var isAwaiting: Bool { false }

  package static func describe(_ request: inout DIRequest) {
    describeDelayed(&request)
  }

  package static func resolve(
    in context: inout DIResolutionContext, tag: Any.Type?
  ) throws(DIError) -> Self {
    try makeDelayed(in: &context, tag: tag)
  }
}

/// The identities of `types`, in order.
func identities<each Argument>(of types: repeat (each Argument).Type) -> [ObjectIdentifier] {
  var identities: [ObjectIdentifier] = []
  for type in repeat each types { identities.append(ObjectIdentifier(type)) }
  return identities
}

/// `Provider2<Cat, String, Int>`: the name of a delayed type made of `T` and `arguments`
/// by its users' spelling (`Self.self` would print the parameter pack).
func nameOfDelayed<T, each Argument>(
  _ family: String, _ type: T.Type, _ arguments: repeat (each Argument).Type
) -> String {
  var names = [String(describing: T.self)]
  for argument in repeat each arguments { names.append(String(describing: argument)) }
  return "\(family)\(names.count - 1)<\(names.joined(separator: ", "))>"
}

extension DelayedModifier {
  /// Records a delayed request of `Wrapped`.
  static func describeDelayed(_ request: inout DIRequest) {
    request.isDelayed = true
    request.describe(wrapped: Wrapped.self)
    if isAwaiting { request.isAwaiting = true }
  }

  /// Checks now that `Wrapped` has a single candidate, so an unresolvable one fails where
  /// it is injected (and an optional one is nil), and captures what resolving it later
  /// needs.
  static func makeDelayed(
    in context: inout DIResolutionContext, tag: Any.Type?
  ) throws(DIError) -> Self {
    try checkArguments(in: context)
    try context.checkCandidate(Wrapped.self, tag: tag, arguments: argumentTypes.map { .types($0) })
    return Self(
      core: DelayedCore(request: DelayedRequest(name: delayedName, context: &context, tag: tag)))
  }

  /// A delayed value that takes its runtime arguments at `value(…)` cannot also keep those
  /// of `resolve(args:)`: asked for with arguments, it is an error, not a silent drop.
  private static func checkArguments(in context: borrowing DIResolutionContext) throws(DIError) {
    guard argumentTypes != nil, context.depth == 0, context.arguments != nil else { return }
    throw DIError(.argumentsToDelayedValue(delayed: delayedName), requestedName: delayedName)
  }

  /// One delayed value per component of `Wrapped` under `tag`.
  static func all(
    in context: inout DIResolutionContext, tag: Any.Type?, inFramework: Bool
  ) throws(DIError) -> [Self] {
    try checkArguments(in: context)
    return context.components(of: Wrapped.self, tag: tag, inFramework: inFramework).map {
      component in
      Self(
        core: DelayedCore(
          request: DelayedRequest(
            name: delayedName, context: &context, tag: tag, component: component)))
    }
  }
}
