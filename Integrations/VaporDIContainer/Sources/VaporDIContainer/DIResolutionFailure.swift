public import Vapor

/// A resolution that failed while a request was handled: a 500 whose reason names the
/// request id only; the error's whole text is in the request's log at `.error`.
///
/// ``Vapor/Request/resolve()`` throws it, and ``DIRequestScopeMiddleware`` turns a
/// `DIError` that a handler lets escape into one, so Vapor's `ErrorMiddleware` answers
/// `{"error":true,"reason":"Internal server error (request id …)"}` and no registration's
/// `file:line` reaches the client.
///
/// ```swift
/// do {
///   let store: NoteStore = try await req.resolve()
/// } catch {
///   print(error.requestID, error.message)   // the id, the DIError's text
/// }
/// ```
public struct DIResolutionFailure: AbortError, CustomStringConvertible {
  /// The id of the request (Vapor's `req.id`, the `request-id` of its logger).
  ///
  /// ```swift
  /// #expect(DIResolutionFailure(requestID: "r1", message: "…").requestID == "r1")
  /// ```
  public let requestID: String
  /// The whole text of the error: what was asked, the resolution's path, why it failed.
  ///
  /// ```swift
  /// req.logger.error("\(failure.message)")
  /// ```
  public let message: String

  /// Makes one for the request `requestID` that failed with `message`.
  ///
  /// - Parameters:
  ///   - requestID: The request's id.
  ///   - message: The error's whole text.
  ///
  /// ```swift
  /// throw DIResolutionFailure(requestID: req.id, message: error.description)
  /// ```
  public init(requestID: String, message: String) {
    self.requestID = requestID
    self.message = message
  }

  /// Always 500.
  ///
  /// ```swift
  /// #expect(failure.status == .internalServerError)
  /// ```
  public var status: HTTPResponseStatus { .internalServerError }

  /// What the client gets: the request id, to find the log line.
  ///
  /// ```swift
  /// print(failure.reason)   // Internal server error (request id 5F3…)
  /// ```
  public var reason: String { "Internal server error (request id \(requestID))" }

  /// The request id and the error's whole text, as logged.
  ///
  /// ```swift
  /// print(failure)   // request 5F3…: Unregistered is not registered …
  /// ```
  public var description: String { "request \(requestID): \(message)" }

  /// Logs `message` with `request`'s logger at `.error`, counts the failure, and returns
  /// the error to throw.
  static func report<T>(_ message: String, resolving type: T.Type, request: Request) -> Self {
    request.logger.error(
      "Resolving \(T.self) failed: \(message)",
      metadata: ["di.service": "\(T.self)"], source: "VaporDIContainer")
    DIMetrics.countFailure(service: type)
    return Self(requestID: request.id, message: message)
  }
}
