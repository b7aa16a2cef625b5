/// A dependency made anew at every use: each read of `value` resolves `T` again.
///
/// Needs no registration of its own and composes with the modifiers like ``Lazy``:
/// `by(tag:on:)`, `many($0)` (one `Provider` per component), `Provider<T?>`,
/// `Provider<T>?`. With a `.prototype` `T` every read makes a new object; with a caching
/// lifetime it returns the cached one.
///
/// Values are made in the object graph the provider was made in: an `.objectGraph` object
/// reached through a provider is the one of the resolution that injected the provider
/// (while that object is alive). Reads on several threads at once each see one instance of
/// every `.objectGraph` component: what the graph had when the read began, or what the read
/// made, which the graph keeps for later reads once the read is done (the first complete
/// one). A provider holds its container weakly and keeps nothing alive beyond itself; using
/// it after its container is gone stops the program.
///
/// ```swift
/// final class Server {
///   let handlers: Provider<Handler>
///   init(handlers: Provider<Handler>) { self.handlers = handlers }
///   func accept() { handlers.value.handle() }   // a new Handler per request
/// }
/// container.register(Server.init)
/// ```
public struct Provider<T>: Sendable, CustomStringConvertible {
  let core: DelayedCore<KeepsNothing>

  init(core: DelayedCore<KeepsNothing>) {
    self.core = core
  }

  /// A `Provider` that calls `make` at every read of ``value``, with no container: for
  /// tests and for wiring by hand.
  ///
  /// - Parameters:
  ///   - file: Where the `Provider` is made.
  ///   - line: The line.
  ///   - make: Makes a value, at every read.
  ///
  /// ```swift
  /// let handlers = Provider { Handler(log: RequestLog()) }
  /// handlers.value.handle()   // a new Handler at every read
  /// ```
  public init(
    file: StaticString = #fileID, line: UInt = #line, _ make: @escaping @Sendable () -> T
  ) {
    core = DelayedCore(name: Self.delayedName, file: file, line: line) { make() }
  }

  /// A new value (or the cached one of a caching lifetime); stops the program with the
  /// ``DIError`` text when it cannot be made.
  ///
  /// ```swift
  /// let handler: Handler = handlers.value
  /// ```
  @available(
    *, noasync,
    message: "stops the program on a DIError; in async code use resolveAsync() or tryResolve()"
  )
  public var value: T {
    core.trapping { () throws(DIError) in try tryValue() }
  }

  /// A new value (or the cached one of a caching lifetime).
  ///
  /// - Returns: The value.
  /// - Throws: ``DIError`` when it cannot be made.
  ///
  /// ```swift
  /// let handler = try handlers.tryValue()
  /// ```
  public func tryValue() throws(DIError) -> T {
    try core.value(T.self, arguments: nil)
  }

  /// The provider's type: describing a `Provider` never makes a value (it may be costly,
  /// or fail).
  ///
  /// ```swift
  /// let number: Provider<Int> = container.resolve()
  /// print(number)   // Provider<Int>
  /// ```
  public var description: String {
    core.description
  }
}

extension Provider: TextOutputStreamable, CustomDebugStringConvertible {
  /// Writes the value (a new one at every print): `print(value)` prints what the value
  /// prints, as in the delayed-injection examples. A value that cannot be made writes its
  /// error's text instead of stopping the program. ``description`` and
  /// ``debugDescription`` (what debuggers and the printing of an enclosing value use)
  /// never make one.
  ///
  /// ```swift
  /// let number: Provider<Int> = container.resolve()
  /// print(number)                   // 1, then 2 on the next print
  /// print(number.description)       // Provider<Int>
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

extension Provider: DelayedModifier {
  typealias Wrapped = T
}
