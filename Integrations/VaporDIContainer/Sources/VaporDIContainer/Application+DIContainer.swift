public import DIContainer
public import Vapor

extension Application {
  /// The storage key of the application's container.
  private struct ContainerKey: StorageKey {
    typealias Value = DIContainer
  }

  /// The application's container: the one ``use(container:)`` installed, or a new empty one
  /// made (and kept) on first use.
  ///
  /// ```swift
  /// app.use(container: container)
  /// let settings: Settings = try app.container.tryResolve()
  /// ```
  public var container: DIContainer {
    get {
      if let container = storage[ContainerKey.self] { return container }
      let container = DIContainer()
      storage[ContainerKey.self] = container
      return container
    }
    set { storage[ContainerKey.self] = newValue }
  }

  /// Installs `container`: sets ``container``, adds ``DIRequestScopeMiddleware`` (each request
  /// gets a scope of its own, closed after its response body has been written) and
  /// ``DIContainerLifecycleHandler`` (runs the `Service` components during the application's
  /// life, then shuts the container down after them).
  ///
  /// The middleware goes after the ones already installed (Vapor's `ErrorMiddleware` among
  /// them), so a resolution failure it turns into a 500 still gets Vapor's error body. Pass
  /// `addingMiddleware: false` to put it on a route group instead
  /// (`app.grouped(DIRequestScopeMiddleware(container: container))`), so the routes outside
  /// the group pay nothing for scopes.
  ///
  /// - Parameters:
  ///   - container: The application's container.
  ///   - addingMiddleware: Whether every route gets a request scope.
  ///
  /// ```swift
  /// let app = try await Application.make(.detect())
  /// app.use(container: container)
  /// app.get("notes") { req async throws -> [Note] in
  ///   let store: NoteStore = try await req.resolve()
  ///   return try await store.all()
  /// }
  /// try await app.execute()
  /// try await app.asyncShutdown()   // the services stop, then container.shutdown()
  /// ```
  public func use(container: DIContainer, addingMiddleware: Bool = true) {
    self.container = container
    if addingMiddleware { middleware.use(DIRequestScopeMiddleware(container: container)) }
    lifecycle.use(DIContainerLifecycleHandler(container: container))
  }
}
