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
  let core: DelayedCore<KeepsNothing>

  /// A new value (or the cached one of a caching lifetime).
  ///
  /// ```swift
  /// let pool = try await connections.value
  /// ```
  public var value: T {
    get async throws(DIError) {
      try await core.asyncValue(T.self, arguments: nil)
    }
  }

  /// The provider's type: describing it never makes a value.
  ///
  /// ```swift
  /// print(connections)   // AsyncProvider<AsyncPool>
  /// ```
  public var description: String {
    core.description
  }
}

extension AsyncProvider: DelayedModifier {
  typealias Wrapped = T
  static var isAwaiting: Bool { true }
}
