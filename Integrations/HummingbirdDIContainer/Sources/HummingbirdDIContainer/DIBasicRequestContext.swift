public import DIContainer
public import Hummingbird

/// Hummingbird's `BasicRequestContext` with a request scope: the context to use when the
/// application needs nothing else per request.
///
/// ```swift
/// let router = Router(context: DIBasicRequestContext.self)
/// router.add(middleware: DIRequestScopeMiddleware(container: container))
/// ```
public struct DIBasicRequestContext: DIRequestContext {
  /// Hummingbird's per-request storage (logger, parameters, endpoint path).
  public var coreContext: CoreRequestContextStorage
  /// The request's scope, set by ``DIRequestScopeMiddleware``.
  public var requestScope: DIRequestScope?

  /// Makes the context of a new request; the middleware sets its scope.
  ///
  /// - Parameter source: What the server knows of the request's channel and logger.
  public init(source: ApplicationRequestContextSource) {
    coreContext = .init(source: source)
  }
}
