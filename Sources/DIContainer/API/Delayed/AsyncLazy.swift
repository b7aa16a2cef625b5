/// A dependency made on first use and kept, awaiting the async factories of its graph:
/// `try await lazy.value` resolves `T` the first time and returns the same value afterwards.
///
/// Like ``Lazy``, it needs no registration of its own, is recognized as a parameter
/// wherever `T` could be injected (a synchronous component may take one of an async
/// component), composes with the modifiers, and holds its container weakly. Concurrent
/// first reads make one value; the others suspend until it is made.
///
/// ```swift
/// final class Reports {
///   let pool: AsyncLazy<AsyncPool>
///   init(pool: AsyncLazy<AsyncPool>) { self.pool = pool }
///   func run() async throws { try await pool.value.close() }
/// }
/// container.register(Reports.init)
/// ```
public final class AsyncLazy<T>: Sendable, CustomStringConvertible {
  let core: DelayedCore<AsyncMadeOnce>

  init(core: DelayedCore<AsyncMadeOnce>) {
    self.core = core
  }

  /// An `AsyncLazy` whose value `make` makes on the first read, with no container: for
  /// tests and for wiring by hand.
  ///
  /// `make` runs once: concurrent first reads suspend until it is made, and share it. One
  /// that throws keeps nothing, so the next read runs it again; ``clear()`` makes the
  /// next read run it again too. What `make` throws reaches ``value`` as a ``DIError``:
  /// a ``DIError`` it threw itself, otherwise one whose ``DIError/code`` is
  /// ``DIError/Code/factoryFailed`` and whose ``DIError/underlyingError`` is the error
  /// thrown; its path names this `AsyncLazy` and where it was made.
  ///
  /// - Parameters:
  ///   - file: Where the `AsyncLazy` is made, shown when `make` throws.
  ///   - line: The line.
  ///   - make: Makes the value; may suspend and throw.
  ///
  /// ```swift
  /// let pool = AsyncLazy { try await AsyncPool.connect() }   // nothing made yet
  /// try await pool.value.close()                             // made now, once
  /// ```
  public init(
    file: StaticString = #fileID, line: UInt = #line,
    _ make: @escaping @Sendable () async throws -> T
  ) {
    core = DelayedCore(name: Self.delayedName, file: file, line: line) { try await make() }
  }

  /// The value, made on the first read (a failed read leaves nothing: the next one tries
  /// again).
  ///
  /// ```swift
  /// let pool = try await lazyPool.value
  /// ```
  public var value: T {
    get async throws(DIError) {
      try await core.asyncValue(T.self, arguments: nil)
    }
  }

  /// Whether the value was made.
  ///
  /// ```swift
  /// if lazyPool.wasMade { try await lazyPool.value.close() }
  /// ```
  public var wasMade: Bool {
    core.kept.wasMade
  }

  /// Forgets the kept value: the next read makes a new one (a component with a caching
  /// lifetime still answers with its cached instance; the closure of
  /// ``init(file:line:_:)`` runs again).
  ///
  /// ```swift
  /// lazyPool.clear()
  /// ```
  public func clear() {
    core.kept.clear()
  }

  /// The type and, once made, the value; describing it never makes the value.
  ///
  /// ```swift
  /// print(lazyPool)   // AsyncLazy<AsyncPool> (not made yet)
  /// ```
  public var description: String {
    core.description
  }
}

extension AsyncLazy: DelayedModifier {
  typealias Wrapped = T
  static var isAwaiting: Bool { true }
}
