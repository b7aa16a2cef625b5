/// A ``Provider`` whose component takes runtime arguments: `provider.value(42)` resolves
/// `T` with the arguments, as `container.resolve(args:)` would. Use it by the names
/// ``Provider1`` … ``Provider5``.
///
/// The arguments go, in order, to the `arg($0)` parameters of the component made; a
/// `.multiton` component keeps one instance per distinct set of them. Like ``Provider``,
/// it needs no registration of its own, keeps the object graph it was made in, and holds
/// its container weakly.
///
/// ```swift
/// container.register { Kitten(name: arg($0)) }
/// container.register { Shelter(kittens: $0) }   // kittens: Provider1<Kitten, String>
/// let mimi = shelter.kittens.value("Mimi")
/// ```
public struct ProviderWithArguments<T, each Argument>: Sendable, CustomStringConvertible {
  let core: DelayedCore<KeepsNothing>

  /// A new value made with `arguments`; stops the program with the ``DIError`` text when
  /// it cannot be made.
  ///
  /// - Parameters:
  ///   - arguments: The runtime arguments, for the component's `arg` parameters.
  ///   - file: The caller's file, shown when resolution fails.
  ///   - line: The caller's line.
  /// - Returns: The value.
  ///
  /// ```swift
  /// let mimi: Kitten = kittens.value("Mimi")
  /// ```
  @available(
    *, noasync,
    message: "stops the program on a DIError; in async code use resolveAsync() or tryResolve()"
  )
  public func value(
    _ arguments: repeat each Argument, file: StaticString = #fileID, line: UInt = #line
  ) -> T {
    trappingResolution(file: file, line: line) { () throws(DIError) in
      try tryValue(repeat each arguments)
    }
  }

  /// A new value made with `arguments`.
  ///
  /// - Parameter arguments: The runtime arguments, for the component's `arg` parameters.
  /// - Returns: The value.
  /// - Throws: ``DIError`` when it cannot be made.
  ///
  /// ```swift
  /// let mimi = try kittens.tryValue("Mimi")
  /// ```
  public func tryValue(_ arguments: repeat each Argument) throws(DIError) -> T {
    try core.value(T.self, arguments: argumentList(repeat each arguments))
  }
}

extension ProviderWithArguments {
  /// The provider's type; describing it never makes a value.
  ///
  /// ```swift
  /// print(kittens)   // the provider's type
  /// ```
  public var description: String {
    core.description
  }
}

/// A provider of `T` made with one runtime argument: `provider.value(a)`.
///
/// ```swift
/// let kittens: Provider1<Kitten, String> = container.resolve()
/// let mimi = kittens.value("Mimi")
/// ```
public typealias Provider1<T, A> = ProviderWithArguments<T, A>

/// A provider of `T` made with two runtime arguments: `provider.value(a, b)`.
///
/// ```swift
/// let cats: Provider2<Cat, String, Int> = container.resolve()
/// let mimi = cats.value("Mimi", 3)
/// ```
public typealias Provider2<T, A, B> = ProviderWithArguments<T, A, B>

/// A provider of `T` made with three runtime arguments.
///
/// ```swift
/// let points: Provider3<Point, Int, Int, Int> = container.resolve()
/// let origin = points.value(0, 0, 0)
/// ```
public typealias Provider3<T, A, B, C> = ProviderWithArguments<T, A, B, C>

/// A provider of `T` made with four runtime arguments.
///
/// ```swift
/// let rects: Provider4<Rect, Int, Int, Int, Int> = container.resolve()
/// let unit = rects.value(0, 0, 1, 1)
/// ```
public typealias Provider4<T, A, B, C, D> = ProviderWithArguments<T, A, B, C, D>

/// A provider of `T` made with five runtime arguments.
///
/// ```swift
/// let rows: Provider5<Row, Int, String, String, Bool, Double> = container.resolve()
/// let row = rows.value(1, "a", "b", true, 0.5)
/// ```
public typealias Provider5<T, A, B, C, D, E> = ProviderWithArguments<T, A, B, C, D, E>

extension ProviderWithArguments: DelayedModifier {
  typealias Wrapped = T
  static var delayedName: String {
    nameOfDelayed("Provider", T.self, repeat (each Argument).self)
  }
  static var argumentTypes: [ObjectIdentifier]? { identities(of: repeat (each Argument).self) }
}
