public import DIContainer
public import Hummingbird

/// A Hummingbird request context that carries the request scope ``DIRequestScopeMiddleware``
/// opened for the request, so handlers write `try await context.resolve()`.
///
/// Conform your own context by adding one stored property, or use ``DIBasicRequestContext``:
///
/// ```swift
/// struct AppRequestContext: DIRequestContext {
///   var coreContext: CoreRequestContextStorage
///   var requestScope: DIRequestScope?
///   init(source: ApplicationRequestContextSource) { coreContext = .init(source: source) }
/// }
/// ```
public protocol DIRequestContext: RequestContext {
  /// The request's scope: set by ``DIRequestScopeMiddleware``, `nil` before it runs.
  var requestScope: DIRequestScope? { get set }
}

extension DIRequestContext {
  /// Resolves a `T` in the request's scope, awaiting the async factories of its graph:
  /// its `.scoped` components are the request's own, every other lifetime is the container's.
  ///
  /// - Returns: The instance.
  /// - Throws: An `HTTPError` (500) when no ``DIRequestScopeMiddleware`` runs before the
  ///   route; the `DIError` of a failed resolution, which the middleware logs and answers
  ///   with a 500.
  ///
  /// ```swift
  /// router.get("stock") { _, context in
  ///   let handler: StockHandler = try await context.resolve()
  ///   return handler.list()
  /// }
  /// ```
  public func resolve<T>() async throws -> T {
    guard let requestScope else {
      throw HTTPError(
        .internalServerError,
        message: "No request scope: add DIRequestScopeMiddleware to the router before the route.")
    }
    return try await requestScope.resolveAsync()
  }
}
