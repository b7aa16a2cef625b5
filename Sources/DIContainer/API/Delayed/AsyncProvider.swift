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

  init(core: DelayedCore<KeepsNothing>) {
    self.core = core
  }

  /// An `AsyncProvider` that runs `make` at every read of ``value``, with no container: for
  /// tests and for wiring by hand.
  ///
  /// What `make` throws reaches ``value`` as a ``DIError``: a ``DIError`` it threw itself,
  /// otherwise one whose ``DIError/code`` is ``DIError/Code/factoryFailed`` and whose
  /// ``DIError/underlyingError`` is the error thrown; its path names this `AsyncProvider`
  /// and where it was made.
  ///
  /// - Parameters:
  ///   - file: Where the `AsyncProvider` is made, shown when `make` throws.
  ///   - line: The line.
  ///   - make: Makes a value, at every read; may suspend and throw.
  ///
  /// ```swift
  /// let pools = AsyncProvider { try await AsyncPool.connect() }
  /// try await pools.value.close()   // a new AsyncPool at every read
  /// ```
  public init(
    file: StaticString = #fileID, line: UInt = #line,
    _ make: @escaping @Sendable () async throws -> T
  ) {
    core = DelayedCore(name: Self.delayedName, file: file, line: line) { try await make() }
  }

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
