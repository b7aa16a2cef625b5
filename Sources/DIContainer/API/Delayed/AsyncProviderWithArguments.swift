/// An ``AsyncProvider`` whose component takes runtime arguments:
/// `try await provider.value(42)` resolves `T` with them, awaiting the async factories of
/// its graph. Use it by the names ``AsyncProvider1`` … ``AsyncProvider5``.
///
/// ```swift
/// container.register { Kitten(name: arg($0)) }
/// let kittens: AsyncProvider1<Kitten, String> = try container.tryResolve()
/// let mimi = try await kittens.value("Mimi")
/// ```
public struct AsyncProviderWithArguments<T, each Argument>: Sendable, CustomStringConvertible {
  let core: DelayedCore<KeepsNothing>

  /// A new value made with `arguments`.
  ///
  /// - Parameter arguments: The runtime arguments, for the component's `arg` parameters.
  /// - Returns: The value.
  /// - Throws: ``DIError`` when it cannot be made.
  ///
  /// ```swift
  /// let mimi = try await asyncKittens.value("Mimi")
  /// ```
  public func value(_ arguments: repeat each Argument) async throws(DIError) -> T {
    try await core.asyncValue(T.self, arguments: argumentList(repeat each arguments))
  }

  /// The provider's type; describing it never makes a value.
  ///
  /// ```swift
  /// print(asyncKittens)   // AsyncProvider1<Kitten, String>
  /// ```
  public var description: String {
    core.description
  }
}

extension AsyncProviderWithArguments: DelayedModifier {
  typealias Wrapped = T
  static var isAwaiting: Bool { true }
  static var delayedName: String {
    nameOfDelayed("AsyncProvider", T.self, repeat (each Argument).self)
  }
  static var argumentTypes: [ObjectIdentifier]? { identities(of: repeat (each Argument).self) }
}

/// An async provider of `T` values made with one runtime argument.
///
/// ```swift
/// let kittens: AsyncProvider1<Kitten, String> = container.resolve()
/// ```
public typealias AsyncProvider1<T, A> = AsyncProviderWithArguments<T, A>

/// An async provider of `T` values made with two runtime arguments.
///
/// ```swift
/// let cats: AsyncProvider2<Cat, String, Int> = container.resolve()
/// ```
public typealias AsyncProvider2<T, A, B> = AsyncProviderWithArguments<T, A, B>

/// An async provider of `T` values made with three runtime arguments.
///
/// ```swift
/// let cats: AsyncProvider3<Cat, String, Int, Bool> = container.resolve()
/// ```
public typealias AsyncProvider3<T, A, B, C> = AsyncProviderWithArguments<T, A, B, C>

/// An async provider of `T` values made with four runtime arguments.
///
/// ```swift
/// let cats: AsyncProvider4<Cat, String, Int, Bool, Double> = container.resolve()
/// ```
public typealias AsyncProvider4<T, A, B, C, D> = AsyncProviderWithArguments<T, A, B, C, D>

/// An async provider of `T` values made with five runtime arguments.
///
/// ```swift
/// let cats: AsyncProvider5<Cat, String, Int, Bool, Double, Float> = container.resolve()
/// ```
public typealias AsyncProvider5<T, A, B, C, D, E> = AsyncProviderWithArguments<T, A, B, C, D, E>
