public import DIContainer
public import Hummingbird
import Logging

/// Opens one request scope per request and closes it, awaiting its `onClean` hooks, only
/// after the response body has been written: streamed bodies included, and also when the
/// handler throws or the client goes away while the body is written.
///
/// The obvious middleware (`container.withScope { try await next(request, $0) }`) closes the
/// scope when the handler returns, which is before Hummingbird writes the body: a streamed
/// body would use `.scoped` instances that are already closed. This one wraps the body, so
/// the scope closes once the body's last byte is written or its writing fails. A response
/// that is dropped without its body being written (by a later middleware) leaves the scope
/// to close itself when it is released, its async hooks then run on a task of their own,
/// and `shutdown()` waits for them.
///
/// When `HTTPRequestInfo` is registered (`.scoped`), the middleware fills it in with the
/// request's id, method, path and logger.
///
/// An error that is not an HTTP response (a `DIError` of a failed resolution, or any other
/// error a handler throws) is logged with the request's logger at `.error` with its whole
/// text, counted (``DIMetrics/resolutionFailures``, for a `DIError`), and answered 500 with
/// the request's id; an `HTTPError` (a 400, a 404) goes on as it is. Once the body is being
/// written the status is sent: a `DIError` then is logged at `.error`, any other failure (most
/// often the client going away) at `.debug`.
///
/// ```swift
/// let router = Router(context: DIBasicRequestContext.self)
/// router.add(middleware: DIRequestScopeMiddleware(container: container))
/// router.get("stock") { _, context in
///   let handler: StockHandler = try await context.resolve()
///   return handler.list()
/// }
/// ```
public struct DIRequestScopeMiddleware<Context: DIRequestContext>: RouterMiddleware {
  private let container: DIContainer

  /// Makes the middleware of `container`.
  ///
  /// - Parameter container: The container whose request scopes the requests get.
  public init(container: DIContainer) {
    self.container = container
  }

  /// Runs the rest of the chain with a new scope in `context`, and closes the scope after
  /// the response body is written (or at once, when the chain throws).
  ///
  /// - Parameters:
  ///   - request: The request.
  ///   - context: The request's context, without a scope yet.
  ///   - next: The rest of the middleware chain and the route.
  /// - Returns: The response, whose body closes the scope once written.
  /// - Throws: What `next` throws, after the scope is closed: an HTTP error as it is, any
  ///   other error logged and replaced by a 500 naming the request's id.
  public func handle(
    _ request: Request, context: Context,
    next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    let scope = container.makeScope()
    // Optional: nil when HTTPRequestInfo is not registered; `try?`: no trap after shutdown().
    if let info = try? scope.tryResolve() as HTTPRequestInfo? {
      info.set(
        id: context.id, method: request.method, path: request.uri.path, logger: context.logger)
    }
    var context = context
    context.requestScope = scope
    var response: Response
    do {
      response = try await next(request, context)
    } catch {
      await scope.closeAwaitingHooks()
      throw Self.reported(error, context: context)
    }
    let body = response.body
    let logger = context.logger
    response.body = ResponseBody(contentLength: body.contentLength) { writer in
      do {
        try await body.write(writer)
      } catch {
        await scope.closeAwaitingHooks()
        // A DIError of a streamed body is the server's fault; anything else here is most
        // often the client going away.
        logger.log(
          level: error is DIError ? .error : .debug,
          "writing the response body failed: \(String(describing: error))")
        throw error
      }
      await scope.closeAwaitingHooks()
    }
    return response
  }

  /// The error to answer with: an HTTP error as it is; any other logged at `.error` with its
  /// whole text and replaced by a 500 that names the request's id.
  static func reported(_ error: any Error, context: Context) -> any Error {
    if error is any HTTPResponseError { return error }
    if let error = error as? DIError { DIMetrics.countFailure(error) }
    context.logger.error(
      "request failed: \(String(describing: error))", metadata: ["error.type": "\(type(of: error))"]
    )
    return HTTPError(
      .internalServerError, message: "Internal server error (request id \(context.id))")
  }
}
