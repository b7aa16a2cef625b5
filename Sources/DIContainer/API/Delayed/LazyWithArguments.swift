/// A ``Lazy`` whose component takes runtime arguments: the first `lazy.value(42)` resolves
/// `T` with the arguments and keeps it; later calls return the kept value, whatever their
/// arguments. Use it by the names ``Lazy1`` … ``Lazy5``.
///
/// Like ``Lazy`` it needs no registration of its own, keeps the object graph it was made
/// in, holds its container weakly, and makes one value under concurrent first calls.
///
/// ```swift
/// container.register { Connection(url: arg($0)) }
/// container.register { Repository(connection: $0) }   // connection: Lazy1<Connection, String>
/// let connection = repository.connection.value("postgres://db")
/// ```
public final class LazyWithArguments<T, each Argument>: Sendable, CustomStringConvertible {
  let core: DelayedCore<MadeOnce>

  init(core: DelayedCore<MadeOnce>) {
    self.core = core
  }

  /// The value, made with `arguments` on the first call; stops the program with the
  /// ``DIError`` text when it cannot be made.
  ///
  /// - Parameters:
  ///   - arguments: The runtime arguments, used by the first call only.
  ///   - file: The caller's file, shown when resolution fails.
  ///   - line: The caller's line.
  /// - Returns: The value.
  ///
  /// ```swift
  /// let connection: Connection = lazyConnection.value("postgres://db")
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

  /// The value, made with `arguments` on the first call.
  ///
  /// - Parameter arguments: The runtime arguments, used by the first call only.
  /// - Returns: The value.
  /// - Throws: ``DIError`` when it cannot be made (a later call tries again).
  ///
  /// ```swift
  /// let connection = try lazyConnection.tryValue("postgres://db")
  /// ```
  public func tryValue(_ arguments: repeat each Argument) throws(DIError) -> T {
    try core.value(T.self, arguments: argumentList(repeat each arguments))
  }

  /// Whether the value was made.
  ///
  /// ```swift
  /// if lazyConnection.wasMade { lazyConnection.value("").close() }
  /// ```
  public var wasMade: Bool {
    core.kept.wasMade
  }

  /// Forgets the kept value: the next `value(…)` makes a new one with its arguments (a
  /// component with a caching lifetime still answers with its cached instance).
  ///
  /// ```swift
  /// lazyConnection.clear()
  /// let other = lazyConnection.value("postgres://replica")
  /// ```
  public func clear() {
    core.kept.clear()
  }
}

extension LazyWithArguments {
  /// The type and, once made, the value; describing it never makes the value.
  ///
  /// ```swift
  /// print(lazyConnection)   // the type, then its value once made
  /// ```
  public var description: String {
    core.description
  }
}

/// A lazy `T` made with one runtime argument by its first `value(a)`.
///
/// ```swift
/// let connection: Lazy1<Connection, String> = container.resolve()
/// let db = connection.value("postgres://db")
/// ```
public typealias Lazy1<T, A> = LazyWithArguments<T, A>

/// A lazy `T` made with two runtime arguments by its first `value(a, b)`.
///
/// ```swift
/// let cat: Lazy2<Cat, String, Int> = container.resolve()
/// let mimi = cat.value("Mimi", 3)
/// ```
public typealias Lazy2<T, A, B> = LazyWithArguments<T, A, B>

/// A lazy `T` made with three runtime arguments.
///
/// ```swift
/// let origin: Lazy3<Point, Int, Int, Int> = container.resolve()
/// let point = origin.value(0, 0, 0)
/// ```
public typealias Lazy3<T, A, B, C> = LazyWithArguments<T, A, B, C>

/// A lazy `T` made with four runtime arguments.
///
/// ```swift
/// let unit: Lazy4<Rect, Int, Int, Int, Int> = container.resolve()
/// let rect = unit.value(0, 0, 1, 1)
/// ```
public typealias Lazy4<T, A, B, C, D> = LazyWithArguments<T, A, B, C, D>

/// A lazy `T` made with five runtime arguments.
///
/// ```swift
/// let first: Lazy5<Row, Int, String, String, Bool, Double> = container.resolve()
/// let row = first.value(1, "a", "b", true, 0.5)
/// ```
public typealias Lazy5<T, A, B, C, D, E> = LazyWithArguments<T, A, B, C, D, E>

extension LazyWithArguments: DelayedModifier {
  typealias Wrapped = T
  static var delayedName: String {
    nameOfDelayed("Lazy", T.self, repeat (each Argument).self)
  }
  static var argumentTypes: [ObjectIdentifier]? { identities(of: repeat (each Argument).self) }
}
