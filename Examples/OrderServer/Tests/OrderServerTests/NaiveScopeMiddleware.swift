import DIContainer
import Hummingbird
import HummingbirdDIContainer

/// The obvious 14-line middleware: it closes the scope when the route returns, before the
/// body is written. Kept to show that the tests catch that.
struct NaiveScopeMiddleware<Context: DIRequestContext>: RouterMiddleware {
  let container: DIContainer

  func handle(
    _ request: Request, context: Context, next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    try await container.withScope { scope in
      var context = context
      context.requestScope = scope
      return try await next(request, context)
    }
  }
}
