/// The one place the library reinterprets a value as a type the compiler cannot see it
/// has: only when the value's type is exactly that type.
///
/// Passing an `Any` to ``value(_:as:otherwise:)`` opens it to its dynamic type `Value`;
/// when `Value` is `T` (compared by metadata identity) the reinterpretation is the
/// identity, and costs no dynamic cast nor `T?` metadata. Otherwise `otherwise` decides,
/// with a checked cast. An object (``object(_:as:otherwise:)``) is compared by its
/// class, and an `Any` kept by a lifetime's storage (``cast(any:to:else:)``) by the type it
/// was made from, read from the existential's layout without opening it; the same word
/// tells a request scope whether the `Any` it keeps holds a class instance
/// (``object(in:)``).
@usableFromInline
enum UnsafeExactCast {
  /// `value` as a `T`: reinterpreted when its type is exactly `T`, else what `otherwise`
  /// makes of it.
  @inline(__always)
  static func value<Value, T, Failure: Error>(
    _ value: Value, as type: T.Type, otherwise: () throws(Failure) -> T
  ) throws(Failure) -> T {
    if Value.self == T.self { return unsafe unsafeBitCast(value, to: T.self) }
    return try otherwise()
  }

  /// `value` as a `T`: reinterpreted when its type is exactly `T`, else cast into one (a
  /// conforming type to a protocol, a subclass to its superclass, a value into an
  /// `Optional`); what `failure` makes when it is no `T`.
  @inline(__always)
  static func cast<Value, T, Failure: Error>(
    _ value: Value, to type: T.Type, else failure: () -> Failure
  ) throws(Failure) -> T {
    try Self.value(value, as: T.self) { () throws(Failure) -> T in
      try checkedCast(value, to: T.self, else: failure)
    }
  }

  /// `object` as a `T`: moved out when its class is exactly `T` (see
  /// ``object(_:as:otherwise:)``), else written by the cast `serviceCast` finds, else cast
  /// as ``cast(_:to:else:)`` casts. `serviceCast` runs only when the class is not `T`.
  @inline(__always)
  static func cast<T, Failure: Error>(
    object: consuming AnyObject, to type: T.Type, serviceCast: () -> ServiceCast?,
    else failure: () -> Failure
  ) throws(Failure) -> T {
    try Self.object(object, as: T.self) { (object) throws(Failure) -> T in
      try cast(object, to: T.self, through: serviceCast(), else: failure)
    }
  }

  /// `object` as a `T` through `serviceCast`, when that is the cast into `T` (compared by
  /// identity): built from the object and the witness table recorded for its class, or,
  /// when none is, cast as ``cast(_:to:else:)`` casts, and its table recorded. Else cast
  /// as ``cast(_:to:else:)`` casts.
  ///
  /// Sound because a ``ServiceCast`` exists only for an existential of one class-bound
  /// protocol, whose values are a reference and a witness table (the Swift ABI's layout,
  /// `MemoryLayout<T>.size` checked by the reinterpretation), and because the table the
  /// runtime found for an object's class serves every object of exactly that class, on
  /// any thread, unless the conformance is isolated to a global actor, which is never
  /// recorded.
  @inline(never)
  static func cast<T, Failure: Error>(
    _ object: AnyObject, to type: T.Type, through serviceCast: ServiceCast?,
    else failure: () -> Failure
  ) throws(Failure) -> T {
    guard let serviceCast, serviceCast.service == ObjectIdentifier(T.self) else {
      return try checkedCast(object, to: T.self, else: failure)
    }
    let objectClass = ObjectIdentifier(Swift.type(of: object))
    if let witnessTable = serviceCast.witnessTable(of: objectClass) {
      return UnsafeRuntimeLayout.existential(of: object, witnessTable: witnessTable, as: T.self)
    }
    var typed = try checkedCast(object, to: T.self, else: failure)
    let witnessTable = UnsafeRuntimeLayout.witnessTable(in: &typed, as: T.self)
    // A conformance isolated to a global actor casts only on that actor: each request asks
    // the runtime, which checks where it runs.
    if !UnsafeRuntimeLayout.isIsolatedConformance(witnessTable: witnessTable) {
      serviceCast.record(witnessTable, of: objectClass)
    }
    return typed
  }

  /// `slot` as a `T`: when `T` is a class and `slot` was made from a `T` (its stored
  /// type is `T`), the reference is moved out of the existential, which is not opened and
  /// counts no reference, and `slot` left holding `()`; else cast as ``cast(_:to:else:)``
  /// casts.
  ///
  /// An `Any` keeps a class reference inline, in the first word of its value buffer, and
  /// the type it was made from in its last word (the existential container's layout, part
  /// of the Swift ABI). The check reads that word: the stored type, not the object's class,
  /// which may be a subclass of it, and a reference to a subclass instance is a `T` too.
  @inlinable @inline(__always)
  static func cast<T, Failure: Error>(
    any slot: inout Any, to type: T.Type, else failure: () -> Failure
  ) throws(Failure) -> T {
    guard unsafe UnsafeRuntimeLayout.holds(&slot, madeFrom: T.self) else {
      return try checkedCast(slot, to: T.self, else: failure)
    }
    return unsafe UnsafeRuntimeLayout.move(&slot, as: T.self)
  }

  /// `slot` as a `T`, as ``cast(any:to:else:)`` casts it, except that an object of
  /// another class is written by the cast `serviceCast` finds, as
  /// ``cast(_:to:through:else:)`` writes it.
  @inline(__always)
  static func cast<T, Failure: Error>(
    any slot: inout Any, to type: T.Type, serviceCast: () -> ServiceCast?,
    else failure: () -> Failure
  ) throws(Failure) -> T {
    guard unsafe !UnsafeRuntimeLayout.holds(&slot, madeFrom: T.self),
      let object = unsafe UnsafeRuntimeLayout.object(in: &slot)
    else {
      return try cast(any: &slot, to: T.self, else: failure)
    }
    return try cast(object, to: T.self, through: serviceCast(), else: failure)
  }

  /// What a top-level request's core made (see ``MadeInstance``), as a `T`: its object
  /// moved out when its class is exactly `T`, its `Any` as ``cast(any:to:else:)`` casts
  /// it; what `notAService` makes when it is no `T` (it traps for a trapping `resolve()`),
  /// and `otherwise` when nothing was made. Inlined into the `resolve()` and
  /// `resolveAsync()` of a container or a scope, where `T` is known and the checks are
  /// comparisons.
  @inlinable @inline(__always)
  static func service<T, Failure: Error>(
    _ made: consuming MadeInstance?, as type: T.Type, notAService: () -> Failure,
    otherwise: () throws(Failure) -> T
  ) throws(Failure) -> T {
    // Matched as it is: bound to a name first (`case let made?`, or a non-optional
    // parameter), the made instance is copied.
    switch consume made {
    case .object(let object)?:
      return try Self.object(object, as: T.self) { (object) throws(Failure) in
        try checkedCast(object, to: T.self, else: notAService)
      }
    case .value(var value)?:
      return try cast(any: &value, to: T.self, else: notAService)
    case nil:
      return try otherwise()
    }
  }

  /// The checked cast of ``cast(_:to:else:)``, out of line. A cast pattern casts into a
  /// `T`: `as? T` would make a `T?`, whose metadata, with `T` not known here, is looked up
  /// at each call.
  @usableFromInline @inline(never)
  static func checkedCast<Value, T, Failure: Error>(
    _ value: Value, to type: T.Type, else failure: () -> Failure
  ) throws(Failure) -> T {
    switch value {
    case let typed as T: return typed
    default: throw failure()
    }
  }

  /// `value`, which is known to be a `T` (what a request of `T` returned, kept as `Any`):
  /// reinterpreted when its type is exactly `T`, else force-cast (an instance of a
  /// protocol `T` is kept as its concrete type).
  @inline(__always)
  static func known<T>(_ value: Any, as type: T.Type) -> T {
    Self.value(value, as: T.self) { value as! T }
  }

  /// `value` as an object, when its type is a class (read from the type's metadata: no
  /// dynamic cast, which would look protocol conformances up for each new type); else nil.
  @inlinable @inline(__always)
  static func object<Value>(of value: Value) -> AnyObject? {
    switch TypeMetadataKind(of: Value.self) {
    case .classType: return unsafe unsafeBitCast(value, to: AnyObject.self)
    case .structural: return nil
    case .other:
      // Without the layout reads, every type is `.other`: asked of public Swift.
      guard !UnsafeRuntimeLayout.isTrusted, Value.self is AnyClass else { return nil }
      return value as AnyObject
    }
  }

  /// `object` as a `T`: reinterpreted when its class is exactly `T` (a class reference is
  /// one pointer, whatever its static type), else what `otherwise` makes of it. Inlined
  /// where it is called, so that with `T` known there the check is one comparison and the
  /// reinterpretation free.
  @inlinable @inline(__always)
  static func object<T, Failure: Error>(
    _ object: consuming AnyObject, as type: T.Type, otherwise: (AnyObject) throws(Failure) -> T
  ) throws(Failure) -> T {
    guard ObjectIdentifier(Swift.type(of: object)) == ObjectIdentifier(T.self) else {
      return try otherwise(object)
    }
    // Moved, not copied: where `T` is not known (unspecialized code) a copy would go
    // through `T`'s value witnesses and count a reference, and the original would count
    // it back. `T` is the object's class: its values are one reference, as `AnyObject?`'s.
    var slot: AnyObject? = consume object
    return unsafe move(&slot, as: T.self)
  }

  /// The reference in `slot`, as a `T`, which is its class; `slot` is left nil.
  ///
  /// Sound only when the object's class is exactly `T`, which the guard of
  /// ``object(_:as:otherwise:)``, its one caller, checks: for a protocol or a superclass
  /// `T` (what `object is T` would let through) a value of `T` is not one reference, and
  /// the move would read and write the wrong layout.
  @usableFromInline @inline(__always)
  static func move<T>(_ slot: UnsafeMutablePointer<AnyObject?>, as type: T.Type) -> T {
    let raw = UnsafeMutableRawPointer(slot)
    let value = unsafe raw.bindMemory(to: T.self, capacity: 1).move()
    unsafe raw.bindMemory(to: AnyObject?.self, capacity: 1).initialize(to: nil)
    return value
  }
}

extension SmallIdentityMap where Slot == Instance {
  /// The class instance the slot of `key` keeps, read in place with nothing copied but the
  /// reference; `.some(nil)` when its value is no class instance, nil when `key` has none.
  @inline(__always)
  func keptObject(for key: ObjectIdentifier) -> AnyObject?? {
    guard let position = position(of: key) else { return nil }
    return unsafe entries.withUnsafeBufferPointer { entries in
      unsafe UnsafeRuntimeLayout.object(
        in: (entries.baseAddress! + position).pointer(to: \.slot)!.pointer(to: \.value)!)
    }
  }
}
