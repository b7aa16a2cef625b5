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
  let request: DelayedRequest
  private let once = AsyncMadeOnce()

  init(request: DelayedRequest) {
    self.request = request
  }

  /// The value, made on the first read (a failed read leaves nothing: the next one tries
  /// again).
  ///
  /// ```swift
  /// let pool = try await lazyPool.value
  /// ```
  public var value: T {
    get async throws(DIError) {
      // `once` keeps only what `request` resolved as a `T`.
      let value = try await once.value(T.self) { () async throws(DIError) in
        try await request.resolveAsync(T.self, arguments: nil)
      }
      return UnsafeExactCast.known(value, as: T.self)
    }
  }

  /// Whether the value was made.
  ///
  /// ```swift
  /// if lazyPool.wasMade { try await lazyPool.value.close() }
  /// ```
  public var wasMade: Bool {
    once.wasMade
  }

  /// Forgets the kept value: the next read makes a new one (a component with a caching
  /// lifetime still answers with its cached instance).
  ///
  /// ```swift
  /// lazyPool.clear()
  /// ```
  public func clear() {
    once.clear()
  }

  /// The type and, once made, the value; describing it never makes the value.
  ///
  /// ```swift
  /// print(lazyPool)   // AsyncLazy<AsyncPool> (not made yet)
  /// ```
  public var description: String {
    once.describe(request.name)
  }
}

extension AsyncLazy: DIParameterModifier, DelayedModifier {
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
