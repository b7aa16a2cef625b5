/// A client of a backend HTTP API; each feature framework brings its own.
public protocol APIClient: AnyObject, Sendable {
  /// The host the client talks to.
  var host: String { get }
}

/// The time, as the application sees it.
public protocol Clock: Sendable {
  /// Seconds since some start.
  var now: Int { get }
}

/// An HTTP route a feature framework serves.
public protocol Route: Sendable {
  /// The route's path.
  var path: String { get }
}
