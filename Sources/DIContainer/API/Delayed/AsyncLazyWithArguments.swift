/// An ``AsyncLazy`` whose component takes runtime arguments: the first
/// `try await lazy.value(42)` resolves `T` with the arguments, awaiting the async
/// factories of its graph, and keeps it; later calls return the kept value, whatever
/// their arguments. Use it by the names ``AsyncLazy1`` … ``AsyncLazy5``.
///
/// Like ``AsyncLazy`` it needs no registration of its own, holds its container weakly,
/// and makes one value under concurrent first calls (the others suspend).
///
/// ```swift
/// container.register { Connection(url: arg($0)) }
/// let connection: AsyncLazy1<Connection, String> = try container.tryResolve()
/// let db = try await connection.value("postgres://db")
/// ```
public final class AsyncLazyWithArguments<T, each Argument>: Sendable, CustomStringConvertible {
  let core: DelayedCore<AsyncMadeOnce>

  init(core: DelayedCore<AsyncMadeOnce>) {
    self.core = core
  }

  /// The value, made with `arguments` on the first call (a failed call leaves nothing:
  /// the next one tries again, with its own arguments).
  ///
  /// - Parameter arguments: The runtime arguments, used by the call that makes the value.
  /// - Returns: The value.
  /// - Throws: ``DIError`` when it cannot be made.
  ///
  /// ```swift
  /// let db = try await asyncConnection.value("postgres://db")
  /// ```
  public func value(_ arguments: repeat each Argument) async throws(DIError) -> T {
    try await core.asyncValue(T.self, arguments: argumentList(repeat each arguments))
  }

  /// Whether the value was made.
  ///
  /// ```swift
  /// if asyncConnection.wasMade { print("connected") }
  /// ```
  public var wasMade: Bool {
    core.kept.wasMade
  }

  /// Forgets the kept value: the next `value(…)` makes a new one with its arguments (a
  /// component with a caching lifetime still answers with its cached instance).
  ///
  /// ```swift
  /// asyncConnection.clear()
  /// ```
  public func clear() {
    core.kept.clear()
  }

  /// The type and, once made, the value; describing it never makes the value.
  ///
  /// ```swift
  /// print(asyncConnection)   // the type, then its value once made
  /// ```
  public var description: String {
    core.description
  }
}

extension AsyncLazyWithArguments: DelayedModifier {
  typealias Wrapped = T
  static var isAwaiting: Bool { true }
  static var delayedName: String {
    nameOfDelayed("AsyncLazy", T.self, repeat (each Argument).self)
  }
  static var argumentTypes: [ObjectIdentifier]? { identities(of: repeat (each Argument).self) }
}

/// An async lazy `T` made with one runtime argument by its first `value(a)`.
///
/// ```swift
/// let connection: AsyncLazy1<Connection, String> = container.resolve()
/// ```
public typealias AsyncLazy1<T, A> = AsyncLazyWithArguments<T, A>

/// An async lazy `T` made with two runtime arguments by its first `value(a, b)`.
///
/// ```swift
/// let cat: AsyncLazy2<Cat, String, Int> = container.resolve()
/// ```
public typealias AsyncLazy2<T, A, B> = AsyncLazyWithArguments<T, A, B>

/// An async lazy `T` made with three runtime arguments.
///
/// ```swift
/// let cat: AsyncLazy3<Cat, String, Int, Bool> = container.resolve()
/// ```
public typealias AsyncLazy3<T, A, B, C> = AsyncLazyWithArguments<T, A, B, C>

/// An async lazy `T` made with four runtime arguments.
///
/// ```swift
/// let cat: AsyncLazy4<Cat, String, Int, Bool, Double> = container.resolve()
/// ```
public typealias AsyncLazy4<T, A, B, C, D> = AsyncLazyWithArguments<T, A, B, C, D>

/// An async lazy `T` made with five runtime arguments.
///
/// ```swift
/// let cat: AsyncLazy5<Cat, String, Int, Bool, Double, Float> = container.resolve()
/// ```
public typealias AsyncLazy5<T, A, B, C, D, E> = AsyncLazyWithArguments<T, A, B, C, D, E>
