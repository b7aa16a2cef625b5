import Synchronization

/// What a component learned about casting its objects into a protocol it was registered
/// `as`: the witness table of their class for that protocol, so later requests build the
/// existential without asking the runtime.
///
/// A request for a protocol-typed service gets the component's object as a class
/// instance, and casting it into `any P` looks the conformance up in the runtime's
/// process-wide cache at every request: about 600 instructions per protocol-typed
/// dependency (Benchmarks/PROFILE.md). For the common kind of service, an existential of
/// one class-bound protocol, a value is the reference followed by the conformance's
/// witness table (the Swift ABI's layout), and the table is the same for every object of
/// one class. So the first request casts as before and records the class and the table it
/// found; a later request with an object of exactly that class builds the value from the
/// two (``UnsafeExactCast/cast(_:to:through:else:)``). One class is recorded, the first:
/// a component whose objects are of several classes casts the others as before.
final class ServiceCast: Sendable {
  /// The service type: an existential of one class-bound protocol.
  let service: ObjectIdentifier
  /// The address of the ``Learned`` pair a request recorded, or 0: written once, read with
  /// no lock, freed with this object.
  private let learned = Atomic<UInt>(0)

  /// A class and its witness table for ``service``.
  @safe
  private struct Learned {
    let objectClass: ObjectIdentifier
    let witnessTable: ClassExistentialWitnessTable
  }

  /// The cast into `service`, or nil when a value of that type is not a reference and one
  /// witness table (a protocol that is not class-bound, several protocols, a superclass
  /// constraint, `any Error`, or no existential at all), which a request casts as before.
  init?(to service: Any.Type) {
    guard UnsafeRuntimeLayout.isClassExistentialOfOneProtocol(service) else { return nil }
    self.service = ObjectIdentifier(service)
  }

  deinit {
    guard
      let pair = unsafe UnsafeMutablePointer<Learned>(
        bitPattern: learned.load(ordering: .acquiring))
    else { return }
    unsafe pair.deinitialize(count: 1)
    unsafe pair.deallocate()
  }

  /// The witness table of `objectClass` for the service, when a request recorded it.
  @inline(__always) @safe
  func witnessTable(of objectClass: ObjectIdentifier) -> ClassExistentialWitnessTable? {
    guard let pair = unsafe UnsafePointer<Learned>(bitPattern: learned.load(ordering: .acquiring)),
      unsafe pair.pointee.objectClass == objectClass
    else { return nil }
    return unsafe pair.pointee.witnessTable
  }

  /// Records `witnessTable`, which the runtime found for an object of `objectClass`,
  /// unless a class is recorded already.
  func record(_ witnessTable: ClassExistentialWitnessTable, of objectClass: ObjectIdentifier) {
    guard learned.load(ordering: .relaxed) == 0 else { return }
    let pair = UnsafeMutablePointer<Learned>.allocate(capacity: 1)
    unsafe pair.initialize(to: Learned(objectClass: objectClass, witnessTable: witnessTable))
    let (recorded, _) = learned.compareExchange(
      expected: 0, desired: UInt(bitPattern: pair), ordering: .releasing)
    guard !recorded else { return }
    // Another request recorded first.
    unsafe pair.deinitialize(count: 1)
    unsafe pair.deallocate()
  }
}
