public import Vapor

/// `GET /stats` or `GET /by-hand/stats` through the application's responder (its middleware,
/// router and route) without HTTP, `requests` times: what `Scripts/load.sh` counts with
/// callgrind to tell what the container adds per request.
public enum CostLoop {
  /// Sends `requests` requests of `path` to `app`'s responder, one after another, and lets
  /// each response go before the next request (so a request scope closes in the loop). The
  /// requests log with `app.logger`, as the server's do.
  ///
  /// - Parameters:
  ///   - app: A booted application (``BookmarkServerApp/configure(_:container:options:metrics:)``,
  ///     then `asyncBoot()`); its server need not run.
  ///   - path: `/stats` (through the container) or `/by-hand/stats`.
  ///   - requests: How many requests.
  /// - Returns: The bytes of all the bodies, so the work is not optimized away.
  /// - Throws: What the responder throws.
  public static func run(_ app: Application, path: String, requests: Int) async throws -> Int {
    let eventLoop = app.eventLoopGroup.next()
    // Made once, as the server does when it starts: `current` builds a new router each time.
    let responder = app.responder.current
    var bytes = 0
    for _ in 0..<requests {
      let request = Request(
        application: app, method: .GET, url: URI(path: path), logger: app.logger, on: eventLoop)
      let response = try await responder.respond(to: request).get()
      bytes &+= response.body.count
    }
    return bytes
  }
}
