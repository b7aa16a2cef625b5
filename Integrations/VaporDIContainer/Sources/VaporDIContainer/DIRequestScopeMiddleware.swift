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
  /// scope after the response body has been written (at once, when the chain fails).
  ///
  /// Vapor's responder chain calls this form. It starts no task of its own, where an
  /// `AsyncMiddleware`'s default form runs each request on a new task and waits there for the
  /// rest of the chain (`Examples/VaporServer/Scripts/load.sh` measures what that costs). Only
  /// a failed request starts one, to await the scope's async `onClean` hooks.
  ///
  /// - Parameters:
  ///   - request: The request, which gets the scope.
  ///   - next: The rest of the middleware chain and the route.
  /// - Returns: The response, which closes the scope once it has been written; or the chain's
  ///   error, after the scope is closed (a `DIError` as a ``DIResolutionFailure``).
  ///
  /// ```swift
  /// app.middleware.use(DIRequestScopeMiddleware(container: container))   // Vapor calls it
  /// ```
  public func respond(to request: Request, chainingTo next: any Responder)
    -> EventLoopFuture<Response>
  {
    let scope = open(for: request)
    let promise = request.eventLoop.makePromise(of: Response.self)
    next.respond(to: request).whenComplete { result in
      switch result {
      case .success(let response):
        promise.succeed(Self.keep(scope, until: response))
      case .failure(let error):
        promise.completeWithTask {
          throw await Self.close(scope, failedWith: error, request: request)
        }
      }
    }
    return promise.futureResult
  }

  /// Runs the rest of the chain with a new scope in `request.requestScope`, and closes the
  /// scope after the response body has been written (at once, when the chain throws): the
  /// same as the form that returns a future, for a caller in async code.
  ///
  /// - Parameters:
  ///   - request: The request, which gets the scope.
  ///   - next: The rest of the middleware chain and the route.
  /// - Returns: The response, which closes the scope once it has been written.
  /// - Throws: What `next` throws, after the scope is closed; a `DIError` as a
  ///   ``DIResolutionFailure``.
  ///
  /// ```swift
  /// let response = try await middleware.respond(to: request, chainingTo: responder)
  /// ```
  public func respond(to request: Request, chainingTo next: any AsyncResponder) async throws
    -> Response
  {
    let scope = open(for: request)
    do {
      return Self.keep(scope, until: try await next.respond(to: request))
    } catch {
      throw await Self.close(scope, failedWith: error, request: request)
    }
  }

  /// Makes the request's scope and stores it in `request.requestScope`.
  private func open(for request: Request) -> DIRequestScope {
    let scope = container.makeScope()
    request.requestScope = scope
    return scope
  }

  /// Ties `scope` to `response`: it closes when Vapor releases the written response.
  private static func keep(_ scope: DIRequestScope, until response: Response) -> Response {
    response.storage[ScopeCloser.self] = ScopeCloser(scope: scope)
    return response
  }

  /// Closes `scope`, awaiting its hooks, and returns the error to throw for `error`: a
  /// `DIError` reported as a ``DIResolutionFailure``, any other error as it is.
  private static func close(
    _ scope: DIRequestScope, failedWith error: any Error, request: Request
  ) async -> any Error {
    await scope.closeAwaitingHooks()
    guard let error = error as? DIError else { return error }
    return DIResolutionFailure.report(error.description, resolving: Any.self, request: request)
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
