/// What a type's runtime metadata says about its shape, read where the Swift ABI fixes it
/// (swift/docs/ABI/TypeMetadata.rst): the kind in the metadata's first word and, for a
/// class, the address of its declaration's descriptor.
///
/// It lets the container classify a parameter type without asking the runtime whether the
/// type conforms to a protocol: a conformance lookup for a type not seen before scans
/// every conformance record of the process (about 75,000 instructions in a small program,
/// 286,000 in the benchmark's), once per type, which was 85% of registering a graph of
/// 10,000 components. The one place the container reads metadata.
@usableFromInline
enum TypeMetadataKind: Equatable {
  /// A class; `declaration` is the same for every specialization of a generic class.
  case classType(declaration: UInt)
  /// A tuple, a function, an existential (`any P`) or a metatype: never a nominal type.
  case structural
  /// A struct, an enum, or a kind this reader does not tell apart.
  case other

  /// The kind of `type`'s metadata.
  @inlinable
  init(of type: Any.Type) {
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
        self = unsafe .classType(declaration: metadata.load(fromByteOffset: offset, as: UInt.self))
      #endif
    default:
      self = .other
    }
  }
}

extension TypeMetadataKind {
  /// Whether a value of `type` is a class reference followed by one witness table: an
  /// existential of one class-bound protocol (`any P` where `P: AnyObject`), with no
  /// superclass constraint, and not `any Error` (whose values are boxed).
  ///
  /// Read from the existential's metadata: after the kind word (0x303), its flags, whose
  /// low 24 bits count the witness tables, whose top bit is clear for a class-bound
  /// existential, and whose other bits mark a superclass constraint or a special protocol.
  /// Exactly 1 is one witness table and nothing else.
  static func isClassExistentialOfOneProtocol(_ type: Any.Type) -> Bool {
    let metadata = unsafe unsafeBitCast(type, to: UnsafeRawPointer.self)
    guard unsafe metadata.load(as: UInt.self) == 0x303 else { return false }
    return unsafe metadata.load(fromByteOffset: MemoryLayout<UInt>.size, as: UInt32.self) == 1
  }

  /// Whether the conformance whose witness table is `witnessTable` is isolated to a global
  /// actor (`extension Cat: @MainActor Pet`): a cast through it succeeds only on that actor.
  ///
  /// Read from the conformance descriptor, which the witness table's first word points to:
  /// after three 32-bit relative pointers (the protocol, the type, the witness table
  /// pattern), its flags, whose bit 19 marks a global actor isolation.
  static func isIsolatedConformance(witnessTable: UnsafeRawPointer) -> Bool {
    let descriptor = unsafe witnessTable.load(as: UnsafeRawPointer.self)
    let flags = unsafe descriptor.load(
      fromByteOffset: 3 * MemoryLayout<Int32>.size, as: UInt32.self)
    return flags & (1 << 19) != 0
  }
}
