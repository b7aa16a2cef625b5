/// A dependency made on first use and kept: `value` resolves `T` the first time it is
/// read and returns the same value afterwards.
///
/// Needs no registration of its own: a parameter or property of type `Lazy<T>` is
/// recognized wherever `T` could be injected, and composes with the modifiers:
/// `by(tag: Indoor.self, on: $0)` gives a `Lazy` of the tagged service, `many($0)` one
/// `Lazy` per component, `Lazy<T?>` a nil value when `T` has no candidate, `Lazy<T>?` nil
/// when `T` has none at injection time. An unresolvable `T` fails where the `Lazy` is
/// injected, not at its first use.
///
/// The value is made in the object graph the `Lazy` was made in: an `.objectGraph` object
/// reached through it is the one of the resolution that injected the `Lazy` (while that
/// object is alive). A `Lazy` holds its container weakly and keeps nothing alive beyond
/// itself; reading it after its container is gone stops the program with an error.
///
/// ```swift
/// final class Report {
///   let database: Lazy<Database>
///   init(database: Lazy<Database>) { self.database = database }
///   func run() { database.value.query("…") }   // Database is made here, once
/// }
/// container.register(Report.init)
/// ```
///
/// Thread-safe: concurrent first reads make one value.
public final class Lazy<T>: Sendable, CustomStringConvertible {
  let core: DelayedCore<MadeOnce>

  init(core: DelayedCore<MadeOnce>) {
    self.core = core
  }

  /// A `Lazy` whose value `make` makes on the first read, with no container: for tests
  /// and for wiring by hand.
  ///
  /// `make` runs once (concurrent first reads wait for it), and again after ``clear()``.
  ///
  /// - Parameters:
  ///   - file: Where the `Lazy` is made, shown if reading it fails (a read from inside
  ///     `make` is a cycle).
  ///   - line: The line.
  ///   - make: Makes the value.
  ///
  /// ```swift
  /// let database = Lazy { Database() }   // nothing made yet
  /// database.value.query("…")           // made now, once
  /// ```
  public init(
    file: StaticString = #fileID, line: UInt = #line, _ make: @escaping @Sendable () -> T
  ) {
    core = DelayedCore(name: Self.delayedName, file: file, line: line) { make() }
  }

  /// The value, made on the first read; stops the program with the ``DIError`` text
  /// when it cannot be made.
  ///
  /// ```swift
  /// let database: Database = lazyDatabase.value
  /// ```
  @available(
    *, noasync,
    message: "stops the program on a DIError; in async code use resolveAsync() or tryResolve()"
  )
  public var value: T {
    core.trapping { () throws(DIError) in try tryValue() }
  }

  /// The value, made on the first call.
  ///
  /// - Returns: The value.
  /// - Throws: ``DIError`` when it cannot be made (a later call tries again).
  ///
  /// ```swift
  /// let database = try lazyDatabase.tryValue()
  /// ```
  public func tryValue() throws(DIError) -> T {
    try core.value(T.self, arguments: nil)
  }

  /// Whether the value was made.
  ///
  /// ```swift
  /// if lazyDatabase.wasMade { lazyDatabase.value.close() }
  /// ```
  public var wasMade: Bool {
    core.kept.wasMade
  }

  /// Forgets the kept value: the next ``value`` makes a new one.
  ///
  /// The `Lazy` asks again: a component with a caching lifetime (`.perContainer(.single)`,
  /// …) still answers with its cached instance; a `.prototype` one, or the closure of
  /// ``init(file:line:_:)``, makes a new one. A value being made while `clear()` runs is
  /// kept once made.
  ///
  /// ```swift
  /// let first = lazyDatabase.value
  /// lazyDatabase.clear()
  /// let second = lazyDatabase.value   // a new Database, for a .prototype one
  /// ```
  public func clear() {
    core.kept.clear()
  }

  /// The type and, once made, the value; describing a `Lazy` never makes its value (it
  /// may be costly, or fail).
  ///
  /// ```swift
  /// let number: Lazy<Int> = container.resolve()
  /// print(number)   // Lazy<Int> (not made yet)
  /// _ = number.value
  /// print(number)   // Lazy<Int>: 1
  /// ```
  public var description: String {
    core.description
  }
}

extension Lazy: TextOutputStreamable, CustomDebugStringConvertible {
  /// Writes the value (made on the first use and kept): `print(value)` prints what the value
  /// prints, as in the delayed-injection examples. A value that cannot be made writes its
  /// error's text instead of stopping the program. ``description`` and
  /// ``debugDescription`` (what debuggers and the printing of an enclosing value use)
  /// never make one.
  ///
  /// ```swift
  /// let number: Lazy<Int> = container.resolve()
  /// print(number)                   // 1: the value, made now
  /// print(number.description)       // Lazy<Int>: 1
  /// ```
  public func write<Target: TextOutputStream>(to target: inout Target) {
    core.request.write({ () throws(DIError) in try tryValue() }, to: &target)
  }

  /// The same as ``description``: never makes a value.
  ///
  /// ```swift
  /// debugPrint(number)
  /// ```
  public var debugDescription: String { description }
}

extension Lazy: DelayedModifier {
  typealias Wrapped = T
}
