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
  }

  /// Resolves a `T` now, in the captured graph, with `arguments` for the component asked
  /// for.
  func resolve<T>(_ type: T.Type, arguments: [Any]?) throws(DIError) -> T {
    guard let container = container.object as? DIContainer else {
      throw DIError(
        .invalid("the container that made this \(name) is gone."), requestedName: name)
    }
    var scope: DIRequestScope?
    if let requestScope {
      scope = requestScope.object as? DIRequestScope
      guard let scope, !scope.isClosed else {
        throw DIError(
          .invalid(
            "the request scope this \(name) was made in is closed; a Lazy or Provider made"
              + " in a scope resolves in that scope only while it is open."),
          requestedName: name)
      }
    }
    do throws(DIError) {
      return try DIResolutionContext.with(
        container, requester: requester, arguments: arguments, graph: graph,
        requestScope: scope
      ) { (context) throws(DIError) -> T in
        if let component { return try context.instance(T.self, of: component) }
        return try context.value(T.self, tag: tag)
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
    try context.checkCandidate(Wrapped.self, tag: tag)
    return Self(request: DelayedRequest(name: "\(Self.self)", context: &context, tag: tag))
  }

  /// One delayed value per component of `Wrapped` under `tag`.
  static func all(
    in context: inout DIResolutionContext, tag: Any.Type?, inFramework: Bool
  ) throws(DIError) -> [Self] {
    context.components(of: Wrapped.self, tag: tag, inFramework: inFramework).map { component in
      Self(
        request: DelayedRequest(
          name: "\(Self.self)", context: &context, tag: tag, component: component))
    }
  }
}
