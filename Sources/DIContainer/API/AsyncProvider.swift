/// A factory of `T` values that awaits the async factories of their graph:
/// `try await provider.value` resolves a new one at every use (or the cached one of a
/// caching lifetime).
///
/// Like ``Provider``, it needs no registration of its own, is recognized as a parameter
/// wherever `T` could be injected, composes with the modifiers, and holds its container
/// weakly.
///
/// ```swift
/// final class Jobs {
///   let connections: AsyncProvider<AsyncPool>
///   init(connections: AsyncProvider<AsyncPool>) { self.connections = connections }
///   func run() async throws { try await connections.value.close() }
/// }
/// container.register(Jobs.init)
/// ```
public struct AsyncProvider<T>: Sendable, CustomStringConvertible {
  let request: DelayedRequest

  /// A new value (or the cached one of a caching lifetime).
  ///
  /// ```swift
  /// let pool = try await connections.value
  /// ```
  public var value: T {
    get async throws(DIError) {
      try await request.resolveAsync(T.self, arguments: nil)
    }
  }

  /// The provider's type: describing it never makes a value.
  ///
  /// ```swift
  /// print(connections)   // AsyncProvider<AsyncPool>
  /// ```
  public var description: String {
    request.name
  }
}

extension AsyncProvider: DIParameterModifier, DelayedModifier {
  typealias Wrapped = T
  static var delayedName: String { "\(Self.self)" }

  package static func describe(_ request: inout DIRequest) {
    describeDelayed(&request)
    request.isAwaiting = true
  }

  package static func resolve(
    in context: inout DIResolutionContext, tag: Any.Type?
  ) throws(DIError) -> Self {
    try makeDelayed(in: &context, tag: tag)
  }
}
