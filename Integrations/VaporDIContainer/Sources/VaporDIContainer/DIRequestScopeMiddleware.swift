public import DIContainer
public import Vapor

/// Opens one request scope per request and closes it once the response body has been
/// written, streamed bodies included (`Response.Body(stream:)`, `(asyncStream:)`,
/// `(managedAsyncStream:)`: after their `.end` or error), and at once, awaiting its `onClean`
/// hooks, when the handler throws.
///
/// Vapor gives no public hook for "the body has been written", and its body storage is not
/// public, so the middleware ties the scope to the `Response` object: Vapor's HTTP/1 server
/// keeps the response until the write of its body has completed, then releases it, and the
/// scope closes as the response goes (its synchronous hooks at once, its async ones on a task
/// of their own, which `container.shutdown()` waits for). A response that code of yours keeps
/// alive keeps its scope open as long.
///
/// A `DIError` that the handler lets escape (from `req.requestScope?.tryResolve()`, say) is
/// logged and answered as ``Vapor/Request/resolve()`` does (``DIResolutionFailure``).
///
/// ```swift
/// app.middleware.use(DIRequestScopeMiddleware(container: container))
/// app.get("notes") { req async throws -> [Note] in
///   let store: NoteStore = try await req.resolve()
///   return try await store.all()
/// }
/// ```
public struct DIRequestScopeMiddleware: AsyncMiddleware {
  private let container: DIContainer

  /// Makes the middleware of `container`.
  ///
  /// - Parameter container: The container whose request scopes the requests get.
  ///
  /// ```swift
  /// let scoped = app.grouped(DIRequestScopeMiddleware(container: container))
  /// ```
  public init(container: DIContainer) {
    self.container = container
  }

  /// Runs the rest of the chain with a new scope in `request.requestScope`, and closes the
  /// scope after the response body has been written (at once, when the chain throws).
  ///
  /// - Parameters:
  ///   - request: The request, which gets the scope.
  ///   - next: The rest of the middleware chain and the route.
  /// - Returns: The response, which closes the scope once it has been written.
  /// - Throws: What `next` throws, after the scope is closed; a `DIError` as a
  ///   ``DIResolutionFailure``.
  ///
  /// ```swift
  /// app.middleware.use(DIRequestScopeMiddleware(container: container))   // Vapor calls it
  /// ```
  public func respond(to request: Request, chainingTo next: any AsyncResponder) async throws
    -> Response
  {
    let scope = container.makeScope()
    request.requestScope = scope
    let response: Response
    do {
      response = try await next.respond(to: request)
    } catch let error as DIError {
      await scope.closeAwaitingHooks()
      throw DIResolutionFailure.report(error.description, resolving: Any.self, request: request)
    } catch {
      await scope.closeAwaitingHooks()
      throw error
    }
    response.storage[ScopeCloser.self] = ScopeCloser(scope: scope)
    return response
  }
}

/// Closes a request's scope when the response that holds it is released, after Vapor has
/// written its body.
final class ScopeCloser: Sendable, StorageKey {
  typealias Value = ScopeCloser

  let scope: DIRequestScope

  init(scope: DIRequestScope) {
    self.scope = scope
  }

  deinit {
    scope.close()
  }
}
