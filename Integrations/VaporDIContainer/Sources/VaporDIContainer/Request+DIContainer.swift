public import DIContainer
public import Vapor

extension Request {
  /// The storage key of the request's scope.
  struct ScopeKey: StorageKey {
    typealias Value = DIRequestScope
  }

  /// The request's scope, opened by ``DIRequestScopeMiddleware``; `nil` when the middleware
  /// does not run before the route.
  ///
  /// ```swift
  /// let unit: UnitOfWork? = try req.requestScope?.tryResolve()
  /// ```
  public var requestScope: DIRequestScope? {
    get { storage[ScopeKey.self] }
    set { storage[ScopeKey.self] = newValue }
  }

  /// Resolves a `T` in the request's scope, awaiting the async factories of its graph: its
  /// `.scoped` components are the request's own, every other lifetime is the container's.
  ///
  /// Never traps. A failure is logged with the request's logger at `.error`, with the
  /// error's whole text (the path of the resolution and the `file:line` of the
  /// registrations involved), counted in `di_resolution_failures_total` when a metrics
  /// backend is bootstrapped, and thrown as a ``DIResolutionFailure``: a 500 whose reason
  /// names the request id and nothing of the container.
  ///
  /// - Returns: The instance.
  /// - Throws: ``DIResolutionFailure`` when the resolution fails or no
  ///   ``DIRequestScopeMiddleware`` ran before the route.
  ///
  /// ```swift
  /// app.get("notes") { req async throws -> [Note] in
  ///   let store: NoteStore = try await req.resolve()
  ///   return try await store.all()
  /// }
  /// ```
  public func resolve<T>() async throws(DIResolutionFailure) -> T {
    guard let scope = requestScope else {
      throw DIResolutionFailure.report(
        "No request scope: install the container with app.use(container:), or add"
          + " DIRequestScopeMiddleware before the route.",
        resolving: T.self, request: self)
    }
    do {
      return try await scope.resolveAsync()
    } catch {
      throw DIResolutionFailure.report(error.description, resolving: T.self, request: self)
    }
  }
}
