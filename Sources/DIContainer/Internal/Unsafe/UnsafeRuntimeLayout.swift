/// The one place the library reads Swift runtime layouts on its own: metadata kinds, a
/// class's descriptor, an existential's flags, a conformance descriptor's flags, the words
/// of an `Any` and of a class-bound existential. Swift promises none of these on Linux; the
/// Swift ABI documents them (swift/docs/ABI/TypeMetadata.rst), and they have held since
/// Swift 5.0.
///
/// The reads are compiled only with the package trait `RuntimeLayoutShortcuts`, on by
/// default, and used only once ``checked`` found them to agree with public Swift on known
/// types, at the first container's creation; when they disagree, the library logs one
/// warning and answers every question below with public Swift (`is`, `as?`, conformance
/// checks), as it does with the trait off (`swift build --disable-default-traits`). What the
/// shortcuts save is in Benchmarks/PROFILE.md: conformance scans at registration, the
/// runtime's conformance cache at each protocol-typed request.
@usableFromInline
enum UnsafeRuntimeLayout {
  /// Whether the layout reads are in use: the trait is on and the check passed. Read on
  /// hot paths with no synchronization: written once, by ``checked``, before the first
  /// container exists, so every resolution happens after it; false before then, which
  /// only means public Swift answers.
  @inlinable @inline(__always)
  static var isTrusted: Bool {
    #if RuntimeLayoutShortcuts
      unsafe layoutIsTrusted
    #else
      false
    #endif
  }

  /// Checks the layout reads against public Swift, once per process, and says whether they
  /// are in use. Every decision the library keeps (a registration's parameter
  /// classification, a component's service cast) reads this, not ``isTrusted``.
  static let checked: Bool = {
    #if RuntimeLayoutShortcuts
      let agrees = LayoutCheck.run()
      unsafe layoutIsTrusted = agrees
      if !agrees {
        DISetting.Log.log(
          .warning,
          "warning: this Swift runtime's type layouts differ from what DIContainer expects; "
            + "it uses public Swift casts instead (slower, same behaviour)")
      }
      return agrees
    #else
      return false
    #endif
  }()
}

#if RuntimeLayoutShortcuts
  /// Set by ``UnsafeRuntimeLayout/checked``; a constant-initialized global with no
  /// exclusivity check, so reading it costs one load (a checked read of a global variable
  /// costs two runtime calls: S4 +100 instructions).
  @usableFromInline @exclusivity(unchecked) nonisolated(unsafe) var layoutIsTrusted = false
#endif

// MARK: - Type metadata

/// What a type's runtime metadata says about its shape.
///
/// It lets the container classify a parameter type without asking the runtime whether the
/// type conforms to a protocol: a conformance lookup for a type not seen before scans
/// every conformance record of the process (about 75,000 instructions in a small program,
/// 286,000 in the benchmark's), once per type, which was 85% of registering a graph of
/// 10,000 components. Without the layout reads every type is ``other``.
@usableFromInline
enum TypeMetadataKind: Equatable {
  /// A class; `declaration` is the same for every specialization of a generic class.
  case classType(declaration: UInt)
  /// A tuple, a function, an existential (`any P`) or a metatype: never a nominal type.
  case structural
  /// A struct, an enum, a kind this reader does not tell apart, or any type when the
  /// layout reads are off.
  case other

  /// The kind of `type`'s metadata.
  @inlinable
  init(of type: Any.Type) {
    #if RuntimeLayoutShortcuts
      if UnsafeRuntimeLayout.isTrusted {
        self = unsafe Self(readingMetadataOf: type)
        return
      }
    #endif
    self = .other
  }

  #if RuntimeLayoutShortcuts
    /// The kind in the metadata's first word and, for a class, the address of its
    /// declaration's descriptor.
    @unsafe @inlinable @inline(__always)
    init(readingMetadataOf type: Any.Type) {
      // A metatype value is the address of the type's metadata.
      let metadata = unsafe unsafeBitCast(type, to: UnsafeRawPointer.self)
      switch unsafe metadata.load(as: UInt.self) {
      case 0x301...0x304, 0x306, 0x307:
        // Tuple, function, existential, metatype, existential metatype, extended existential.
        self = .structural
      case 0:
        #if _runtime(_ObjC)
          // The first word of a class's metadata is its isa pointer there, never 0.
          self = .other
        #else
          // After the kind and the superclass: flags, instance address point and size (4
          // bytes each), alignment mask and a reserved field (2 each), class size and class
          // address point (4 each), then the descriptor.
          let offset = 2 * MemoryLayout<UInt>.size + 24
          self = unsafe .classType(
            declaration: metadata.load(fromByteOffset: offset, as: UInt.self))
        #endif
      default:
        self = .other
      }
    }
  #endif
}

extension UnsafeRuntimeLayout {
  /// Whether a value of `type` is a class reference followed by one witness table: an
  /// existential of one class-bound protocol (`any P` where `P: AnyObject`), with no
  /// superclass constraint, and not `any Error` (whose values are boxed). Always false
  /// without the layout reads: then no ``ServiceCast`` exists.
  ///
  /// Read from the existential's metadata: after the kind word (0x303), its flags, whose
  /// low 24 bits count the witness tables, whose top bit is clear for a class-bound
  /// existential, and whose other bits mark a superclass constraint or a special protocol.
  /// Exactly 1 is one witness table and nothing else.
  static func isClassExistentialOfOneProtocol(_ type: Any.Type) -> Bool {
    #if RuntimeLayoutShortcuts
      return unsafe checked && readIsClassExistentialOfOneProtocol(type)
    #else
      return false
    #endif
  }

  #if RuntimeLayoutShortcuts
    @unsafe
    fileprivate static func readIsClassExistentialOfOneProtocol(_ type: Any.Type) -> Bool {
      let metadata = unsafe unsafeBitCast(type, to: UnsafeRawPointer.self)
      guard unsafe metadata.load(as: UInt.self) == 0x303 else { return false }
      return unsafe metadata.load(fromByteOffset: MemoryLayout<UInt>.size, as: UInt32.self) == 1
    }
  #endif

  /// Whether the conformance whose witness table is `witnessTable` is isolated to a global
  /// actor (`extension Cat: @MainActor Pet`): a cast through it succeeds only on that actor.
  ///
  /// Read from the conformance descriptor, which the witness table's first word points to:
  /// after three 32-bit relative pointers (the protocol, the type, the witness table
  /// pattern), its flags, whose bit 19 marks a global actor isolation.
  static func isIsolatedConformance(witnessTable: ClassExistentialWitnessTable) -> Bool {
    let descriptor = unsafe witnessTable.address.load(as: UnsafeRawPointer.self)
    let flags = unsafe descriptor.load(
      fromByteOffset: 3 * MemoryLayout<Int32>.size, as: UInt32.self)
    return flags & (1 << 19) != 0
  }
}

// MARK: - Class-bound existentials

/// The witness table of a class for a class-bound protocol, as a value of an existential of
/// that one protocol holds it after the reference.
@safe
struct ClassExistentialWitnessTable: @unchecked Sendable {
  fileprivate let address: UnsafeRawPointer
}

extension UnsafeRuntimeLayout {
  /// The layout of a value of an existential of one class-bound protocol.
  @safe
  private struct ClassExistential {
    let object: AnyObject
    let witnessTable: UnsafeRawPointer
  }

  /// The witness table in `value`, a value of `T`, an existential of one class-bound
  /// protocol (``isClassExistentialOfOneProtocol(_:)``). `T` is named: an existential
  /// passed alone would be opened, and `T` be the object's class.
  static func witnessTable<T>(in value: inout T, as type: T.Type) -> ClassExistentialWitnessTable {
    precondition(MemoryLayout<T>.size == MemoryLayout<ClassExistential>.size)
    return unsafe withUnsafeBytes(of: &value) {
      unsafe ClassExistentialWitnessTable(
        address: $0.load(fromByteOffset: MemoryLayout<UInt>.size, as: UnsafeRawPointer.self))
    }
  }

  /// The value of `T`, an existential of one class-bound protocol, holding `object` and
  /// `witnessTable`, the table of `object`'s class for that protocol.
  @inline(__always)
  static func existential<T>(
    of object: AnyObject, witnessTable: ClassExistentialWitnessTable, as type: T.Type
  ) -> T {
    unsafe unsafeBitCast(
      ClassExistential(object: object, witnessTable: witnessTable.address), to: T.self)
  }
}

// MARK: - Any

extension UnsafeRuntimeLayout {
  /// The class instance `slot` holds, read in place: when the type the `Any` was made
  /// from (its last word) is a class, the first word is the reference, copied out (one
  /// reference counted); nil for any other value, which is left alone. Without the layout
  /// reads, asked of the value's dynamic type.
  static func object(in slot: UnsafePointer<Any>) -> AnyObject? {
    #if RuntimeLayoutShortcuts
      if isTrusted { return unsafe readObject(in: slot) }
    #endif
    let value = unsafe slot.pointee
    guard Swift.type(of: value) is AnyClass else { return nil }
    return value as AnyObject
  }

  /// Whether `slot` holds a class reference of type `T`: `T` is a class and the `Any` was
  /// made from a `T`. Always false without the layout reads, so the caller casts.
  @inlinable @inline(__always)
  static func holds<T>(_ slot: UnsafeMutablePointer<Any>, madeFrom type: T.Type) -> Bool {
    #if RuntimeLayoutShortcuts
      return unsafe isTrusted && readHolds(slot, madeFrom: T.self)
    #else
      return false
    #endif
  }

  /// The reference in `slot`, as a `T`, the type `slot` was made from (see
  /// ``holds(_:madeFrom:)``, which its one caller checks first); `slot` is left holding
  /// `()`. An `Any` keeps a class reference inline, in the first word of its value buffer.
  @inlinable @inline(__always)
  static func move<T>(_ slot: UnsafeMutablePointer<Any>, as type: T.Type) -> T {
    let raw = UnsafeMutableRawPointer(slot)
    let value = unsafe raw.bindMemory(to: T.self, capacity: 1).move()
    // What is left is the buffer's other words and the type: nothing to destroy.
    unsafe raw.bindMemory(to: Any.self, capacity: 1).initialize(to: ())
    return value
  }

  #if RuntimeLayoutShortcuts
    /// The type an `Any` was made from: the last word of the existential container.
    @unsafe @usableFromInline @inline(__always)
    static func storedType(of slot: UnsafePointer<Any>) -> UnsafeRawPointer {
      unsafe UnsafeRawPointer(slot).load(
        fromByteOffset: 3 * MemoryLayout<UInt>.size, as: UnsafeRawPointer.self)
    }

    /// ``object(in:)`` read from the layout.
    @unsafe
    fileprivate static func readObject(in slot: UnsafePointer<Any>) -> AnyObject? {
      let storedType = unsafe storedType(of: slot)
      guard
        case .classType = unsafe TypeMetadataKind(
          readingMetadataOf: unsafeBitCast(storedType, to: Any.Type.self))
      else { return nil }
      return unsafe UnsafeRawPointer(slot).load(as: AnyObject.self)
    }

    /// ``holds(_:madeFrom:)`` read from the layout.
    @unsafe @inlinable @inline(__always)
    static func readHolds<T>(_ slot: UnsafeMutablePointer<Any>, madeFrom type: T.Type) -> Bool {
      guard case .classType = unsafe TypeMetadataKind(readingMetadataOf: T.self) else {
        return false
      }
      return unsafe storedType(of: slot)
        == unsafeBitCast(T.self as Any.Type, to: UnsafeRawPointer.self)
    }
  #endif
}

// MARK: - The start-up check

#if RuntimeLayoutShortcuts
  /// Known types, whose shape public Swift tells, asked of the layout reads: every answer
  /// must agree.
  private enum LayoutCheck {
    protocol ClassBound: AnyObject { func name() -> String }
    protocol Plain { func name() -> String }
    class Base: ClassBound, Plain { func name() -> String { "base" } }
    final class Derived: Base { override func name() -> String { "derived" } }
    final class Generic<Value> {}
    struct Value {}

    static func run() -> Bool {
      unsafe metadataAgrees() && existentialsAgree() && anyAgrees() && witnessTablesAgree()
    }

    @unsafe
    private static func metadataAgrees() -> Bool {
      func kind(_ type: Any.Type) -> TypeMetadataKind {
        unsafe TypeMetadataKind(readingMetadataOf: type)
      }
      guard case .classType(let base) = kind(Base.self),
        case .classType(let derived) = kind(Derived.self),
        case .classType(let ofInt) = kind(Generic<Int>.self),
        case .classType(let ofString) = kind(Generic<String>.self)
      else { return false }
      return base != derived && ofInt == ofString && ofInt != base
        && kind(Value.self) == .other && kind(Int.self) == .other
        && kind(Optional<Base>.self) == .other
        && kind((Int, String).self) == .structural
        && kind((@Sendable () -> Void).self) == .structural
        && kind((any Plain).self) == .structural && kind(Any.self) == .structural
        && kind(Base.Type.self) == .structural
    }

    private static func existentialsAgree() -> Bool {
      func isOne(_ type: Any.Type) -> Bool {
        unsafe UnsafeRuntimeLayout.readIsClassExistentialOfOneProtocol(type)
      }
      return isOne((any ClassBound).self) && !isOne((any Plain).self)
        && !isOne((any ClassBound & Plain).self) && !isOne((any Error).self)
        && !isOne(AnyObject.self) && !isOne(Base.self) && !isOne(Int.self)
        && MemoryLayout<any ClassBound>.size == 2 * MemoryLayout<UInt>.size
    }

    private static func anyAgrees() -> Bool {
      let object = Derived()
      var slots: [Any] = [object, Base() as Base, 7, Value(), "text"]
      return unsafe slots.withUnsafeMutableBufferPointer { slots in
        let first = slots.baseAddress!
        return unsafe UnsafeRuntimeLayout.readObject(in: first) === object
          && UnsafeRuntimeLayout.readObject(in: first + 1) is Base
          && UnsafeRuntimeLayout.readObject(in: first + 2) == nil
          && UnsafeRuntimeLayout.readObject(in: first + 3) == nil
          && UnsafeRuntimeLayout.readObject(in: first + 4) == nil
          && UnsafeRuntimeLayout.readHolds(first, madeFrom: Derived.self)
          && !UnsafeRuntimeLayout.readHolds(first, madeFrom: Base.self)
          && UnsafeRuntimeLayout.readHolds(first + 1, madeFrom: Base.self)
          && !UnsafeRuntimeLayout.readHolds(first + 2, madeFrom: Int.self)
      }
    }

    private static func witnessTablesAgree() -> Bool {
      let base = Base()
      let derived = Derived()
      var typed: any ClassBound = base
      let table = UnsafeRuntimeLayout.witnessTable(in: &typed, as: (any ClassBound).self)
      var typedDerived: any ClassBound = derived
      let derivedTable = UnsafeRuntimeLayout.witnessTable(
        in: &typedDerived, as: (any ClassBound).self)
      let rebuilt = UnsafeRuntimeLayout.existential(
        of: derived, witnessTable: derivedTable, as: (any ClassBound).self)
      return rebuilt === derived && rebuilt.name() == "derived"
        && UnsafeRuntimeLayout.existential(of: base, witnessTable: table, as: (any ClassBound).self)
          .name() == "base"
        && !UnsafeRuntimeLayout.isIsolatedConformance(witnessTable: table)
    }
  }
#endif
