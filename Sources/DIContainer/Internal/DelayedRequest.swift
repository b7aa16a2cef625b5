/// What a `Lazy` or `Provider` needs to resolve later: the container (held weakly), the
/// framework that asked, the tag, the object graph of the resolution that made it, and
/// its request scope (held weakly), if it was made in one.
///
/// Holds the graph strongly, so its `.objectGraph` objects are reused by later
/// resolutions; the graph holds them weakly once no resolution uses it (see
/// ``ObjectGraph``), so nothing here outlives the delayed value itself.
final class DelayedRequest: Sendable {
  private let container: WeakReference
  private let requester: DIModuleID?
  private let tag: Any.Type?
  private let graph: ObjectGraph
  /// The request scope the value was made in: it resolves there, and fails once the scope
  /// is closed or gone. Weak, so a delayed value kept by a `.scoped` instance makes no
  /// cycle with its scope.
  private let requestScope: WeakReference?
  /// The component to use, for one element of `many`; nil to choose a candidate.
  private let component: Component?
  /// `Lazy<Cat>`, for errors.
  let name: String
  /// Where the delayed value was made, for the message of a failed `value`.
  private let origin: Origin

  /// Where a delayed value was made: for a component (injected into it, or resolved by
  /// its factory), or by a request whose `file:line` is known or not. Names the component
  /// rather than holding it: a cached instance keeping the delayed value would otherwise
  /// keep its own component, and so itself.
  private enum Origin {
    case component(Component.Name)
    case site(CallSite)
    case unknown
  }

  init(
    name: String, context: inout DIResolutionContext, tag: Any.Type?, component: Component? = nil
  ) {
    self.name = name
    container = WeakReference(context.container)
    requester = context.requester
    self.tag = tag
    graph = context.sharedGraph()
    requestScope = context.requestScope.map { WeakReference($0) }
    self.component = component
    if let owner = context.request.innermostComponent {
      origin = .component(owner.identity)
    } else if let site = context.site {
      origin = .site(site)
    } else {
      origin = .unknown
    }
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
    case .unknown:
      failResolution(
        error,
        requestedAt: "\(name).value; the \(name) was resolved by a form that does not know"
          + " its caller's line (tryResolve()); resolve() records it",
        file: "(unknown)", line: 0)
    }
  }

  /// Resolves a `T` now, in the captured graph, with `arguments` for the component asked
  /// for.
  func resolve<T>(_ type: T.Type, arguments: [Any]?) throws(DIError) -> T {
    guard let container = container.object as? DIContainer else {
      throw DIError(
        .containerReleased(owner: "this \(name)"), requestedName: name)
    }
    var scope: DIRequestScope?
    if let requestScope {
      scope = requestScope.object as? DIRequestScope
      guard let scope, !scope.isClosed else {
        throw DIError(
          .scopeClosed(delayed: name),
          requestedName: name)
      }
    }
    do throws(DIError) {
      return try DIResolutionContext.with(
        container, requester: requester, arguments: arguments, graph: graph,
        requestScope: scope
      ) { (context) throws(DIError) -> T in
        if let component { return try context.instance(T.self, of: component) }
        return try context.valueWithArguments(T.self, tag: tag)
      }
    } catch {
      var error = error
      error.enter(name, component: nil)
      throw error
    }
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

/// A delayed parameter type (`Lazy`, `Provider` and their argument forms): made from a
/// ``DelayedRequest``; `many` gives one per component of the wrapped service.
protocol DelayedModifier: ManyElement {
  /// The type made later.
  associatedtype Wrapped
  init(request: DelayedRequest)
  /// The name errors and descriptions use: `Lazy<Cat>`, `Provider1<Kitten, String>`.
  static var delayedName: String { get }
  /// The types of the runtime arguments its `value` passes, for the argument forms.
  static var argumentTypes: [ObjectIdentifier]? { get }
}

extension DelayedModifier {
  static var argumentTypes: [ObjectIdentifier]? { nil }
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
  }

  /// Checks now that `Wrapped` has a single candidate, so an unresolvable one fails where
  /// it is injected (and an optional one is nil), and captures what resolving it later
  /// needs.
  static func makeDelayed(
    in context: inout DIResolutionContext, tag: Any.Type?
  ) throws(DIError) -> Self {
    try context.checkCandidate(Wrapped.self, tag: tag, arguments: argumentTypes)
    return Self(request: DelayedRequest(name: delayedName, context: &context, tag: tag))
  }

  /// One delayed value per component of `Wrapped` under `tag`.
  static func all(
    in context: inout DIResolutionContext, tag: Any.Type?, inFramework: Bool
  ) throws(DIError) -> [Self] {
    context.components(of: Wrapped.self, tag: tag, inFramework: inFramework).map { component in
      Self(
        request: DelayedRequest(
          name: delayedName, context: &context, tag: tag, component: component))
    }
  }
}
