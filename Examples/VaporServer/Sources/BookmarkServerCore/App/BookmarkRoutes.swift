import DIContainer
import Vapor
import VaporDIContainer

/// The server's routes. Those under `group` resolve their handler in the request's scope;
/// `GET /by-hand/stats` builds its handler by hand, outside the scope middleware, to compare
/// the cost of the container (Scripts/load.sh).
enum BookmarkRoutes {
  /// Adds the routes.
  ///
  /// - Parameters:
  ///   - app: The application.
  ///   - group: The routes with the request-scope middleware.
  ///   - counters: The counters the by-hand route shares with the container's handler.
  static func add(to app: Application, scoped group: any RoutesBuilder, counters: ServerCounters) {
    group.post("bookmarks") { req async throws -> Response in
      let new = try req.content.decode(NewBookmark.self)
      let handler: BookmarkHandler = try await req.resolve()
      let bookmark = try await handler.create(new)
      return try await bookmark.encodeResponse(status: .created, for: req)
    }
    group.get("bookmarks") { req async throws -> [Bookmark] in
      let handler: BookmarkHandler = try await req.resolve()
      return try await handler.list(
        limit: req.query[String.self, at: "limit"], offset: req.query[String.self, at: "offset"])
    }
    group.get("bookmarks", ":id") { req async throws -> Bookmark in
      let handler: BookmarkHandler = try await req.resolve()
      return try await handler.find(id: req.parameters.get("id"))
    }
    group.delete("bookmarks", ":id") { req async throws -> HTTPStatus in
      let handler: BookmarkHandler = try await req.resolve()
      return try await handler.delete(id: req.parameters.get("id"))
    }
    group.get("stats") { req async throws -> Stats in
      let handler: StatsHandler = try await req.resolve()
      return handler.stats()
    }
    app.get("by-hand", "stats") { req async throws -> Stats in
      let log = RequestLog(logger: req.logger)
      defer { log.flush() }
      return StatsHandler(counters: counters, log: log).stats()
    }
  }
}
