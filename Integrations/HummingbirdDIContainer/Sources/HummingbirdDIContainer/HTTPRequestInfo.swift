public import HTTPTypes
public import Logging
import Synchronization

/// The HTTP request a request scope serves, for `.scoped` components that need its id
/// (a request log, a unit of work): register it `.scoped`, and ``DIRequestScopeMiddleware``
/// fills it in as it opens each request's scope.
///
/// ```swift
/// container.register { HTTPRequestInfo() }.lifetime(.scoped)
/// container.register(RequestLog.init).lifetime(.scoped)   // init(request: HTTPRequestInfo)
/// ```
public final class HTTPRequestInfo: Sendable {
  /// The request's fields.
  struct Fields: Sendable {
    var id: String
    var method: HTTPRequest.Method
    var path: String
    var logger: Logger
  }

  /// The logger of an info not filled in yet: made once, so `init()` costs no logger.
  private static let placeholder = Logger(label: "HTTPRequestInfo")

  private let fields: Mutex<Fields>

  /// Makes an empty one (id `""`, `GET /`), for the container to fill in per request.
  public convenience init() {
    self.init(id: "", method: .get, path: "/", logger: Self.placeholder)
  }

  /// Makes one for a request wired by hand.
  ///
  /// - Parameters:
  ///   - id: The request's id (Hummingbird's `context.id`).
  ///   - method: The request's method.
  ///   - path: The request's path.
  ///   - logger: The request's logger, with its `hb.request.id` metadata.
  public init(id: String, method: HTTPRequest.Method, path: String, logger: Logger) {
    fields = Mutex(Fields(id: id, method: method, path: path, logger: logger))
  }

  /// The request's id, as Hummingbird's `context.id` and the logger's `hb.request.id` say.
  public var id: String { fields.withLock { $0.id } }
  /// The request's method.
  public var method: HTTPRequest.Method { fields.withLock { $0.method } }
  /// The request's path.
  public var path: String { fields.withLock { $0.path } }
  /// The request's logger (its metadata names the request).
  public var logger: Logger { fields.withLock { $0.logger } }

  /// Sets the request's fields: what the middleware does once per scope.
  ///
  /// - Parameters:
  ///   - id: The request's id.
  ///   - method: The request's method.
  ///   - path: The request's path.
  ///   - logger: The request's logger.
  public func set(id: String, method: HTTPRequest.Method, path: String, logger: Logger) {
    fields.withLock { $0 = Fields(id: id, method: method, path: path, logger: logger) }
  }
}
