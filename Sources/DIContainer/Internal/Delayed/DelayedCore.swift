/// What every delayed value (`Lazy`, `Provider`, their async forms and the argument forms
/// of all four) is made of: its ``DelayedRequest`` (where it was made, its name, how it
/// resolves) and what it keeps of what it resolves, `Kept`.
///
/// The families differ only in `Kept` (nothing for a provider, which resolves at every
/// use; the first value for a lazy one, ``MadeOnce`` or ``AsyncMadeOnce``) and in whether
/// they resolve synchronously or awaiting; each public type wraps one core and forwards
/// to it.
struct DelayedCore<Kept: DelayedKeeping>: Sendable {
  let request: DelayedRequest
  let kept: Kept

  init(request: DelayedRequest) {
    self.request = request
    kept = Kept()
  }

  /// A core whose value `make` makes, with no container: `Lazy { Cat() }`; `file:line`
  /// is where it is made, named when reading it fails.
  init(
    name: String, file: StaticString, line: UInt, make: @escaping @Sendable () -> Any
  ) {
    self.init(
      request: DelayedRequest(name: name, site: CallSite(file: file, line: line), make: make))
  }

  /// A core whose value `make` makes, awaited, with no container:
  /// `AsyncLazy { try await Pool.connect() }`; `file:line` is where it is made, named when
  /// the closure throws.
  init(
    name: String, file: StaticString, line: UInt,
    make: @escaping @Sendable () async throws -> Any
  ) {
    self.init(
      request: DelayedRequest(name: name, site: CallSite(file: file, line: line), make: make))
  }

  /// The type and, for a lazy value once made, the value: never makes it (it may be
  /// costly, or fail).
  var description: String {
    kept.describe(request.name)
  }

  /// What `value` returns, or stops the program with the ``DIError`` text, naming where
  /// the delayed value was made: a property such as `Lazy.value` cannot receive its
  /// caller's `file:line`.
  func trapping<T>(_ value: () throws(DIError) -> T) -> T {
    do throws(DIError) {
      return try value()
    } catch {
      request.fail(error)
    }
  }
}

/// What a delayed value keeps of what it resolves: what tells a lazy value (kept) from a
/// provider (nothing kept).
protocol DelayedKeeping: Sendable {
  init()
  /// How a delayed value named `name` describes itself; never makes its value.
  func describe(_ name: String) -> String
}

/// A provider's: nothing, every use resolves again.
struct KeepsNothing: DelayedKeeping {
  func describe(_ name: String) -> String {
    name
  }
}

extension MadeOnce: DelayedKeeping {}

extension AsyncMadeOnce: DelayedKeeping {}

extension DelayedCore where Kept == KeepsNothing {
  /// A value resolved now, with `arguments` for the component's `arg` parameters.
  func value<T>(_ type: T.Type, arguments: [Any]?) throws(DIError) -> T {
    try request.resolve(T.self, arguments: arguments)
  }

  /// A value resolved now like ``value(_:arguments:)``, awaiting the async factories of
  /// its graph.
  func asyncValue<T>(_ type: T.Type, arguments: [Any]?) async throws(DIError) -> T {
    try await request.resolveAsync(T.self, arguments: arguments)
  }
}

extension DelayedCore where Kept == MadeOnce {
  /// The kept value, or one resolved now with `arguments` (and kept).
  func value<T>(_ type: T.Type, arguments: [Any]?) throws(DIError) -> T {
    // `kept` keeps only what `request` resolved as a `T`.
    UnsafeExactCast.known(
      try kept.value { () throws(DIError) in try request.resolve(T.self, arguments: arguments) },
      as: T.self)
  }
}

extension DelayedCore where Kept == AsyncMadeOnce {
  /// The kept value, or one resolved now with `arguments` (and kept), awaiting the async
  /// factories of its graph.
  func asyncValue<T>(_ type: T.Type, arguments: [Any]?) async throws(DIError) -> T {
    // `kept` keeps only what `request` resolved as a `T`.
    let value = try await kept.value(T.self) { () async throws(DIError) in
      try await request.resolveAsync(T.self, arguments: arguments)
    }
    return UnsafeExactCast.known(value, as: T.self)
  }
}

/// `arguments` as the list a resolution gives to the `arg` parameters, in order.
func argumentList<each Argument>(_ arguments: repeat each Argument) -> [Any] {
  var list: [Any] = []
  for argument in repeat each arguments { list.append(argument) }
  return list
}
