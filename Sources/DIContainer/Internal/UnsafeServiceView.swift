/// A cached object as one of its services that is not its class (a protocol existential,
/// a superclass): the value a checked cast made, kept in memory of its own so that the
/// next request for that service copies it instead of casting again. A cast to a protocol
/// existential looks the conformance up in the runtime's cache (~900 instructions), which
/// a server would otherwise pay for every protocol-typed dependency of every request.
///
/// The one place the library keeps a value of a type known only at run time: the memory
/// holds a value of ``type``, written by ``init(_:of:)`` and read by ``value(as:)``, which
/// checks the type asked for against it.
final class UnsafeServiceView: @unchecked Sendable {
  /// The service type of the value.
  private let type: Any.Type
  /// The object the value was cast from: a view serves requests for that object only.
  let object: ObjectIdentifier
  // Written once in `init`, then only read; freed in `deinit`.
  private let memory: UnsafeMutableRawPointer
  /// Deinitializes the value in `memory`, a `type`.
  private let deinitialize: @Sendable (UnsafeMutableRawPointer) -> Void

  /// Keeps `value`, the object with identity `object` cast to its service `Service`.
  init<Service>(_ value: Service, of object: ObjectIdentifier) {
    type = Service.self
    self.object = object
    memory = .allocate(
      byteCount: MemoryLayout<Service>.size, alignment: MemoryLayout<Service>.alignment)
    memory.initializeMemory(as: Service.self, to: value)
    deinitialize = { $0.assumingMemoryBound(to: Service.self).deinitialize(count: 1) }
  }

  deinit {
    deinitialize(memory)
    memory.deallocate()
  }

  /// Whether the value is of `service`.
  @inline(__always)
  func holds(_ service: Any.Type) -> Bool {
    ObjectIdentifier(type) == ObjectIdentifier(service)
  }

  /// A copy of the value, which must be of `Service` (see ``holds(_:)``).
  @inline(__always)
  func value<Service>(as service: Service.Type) -> Service {
    precondition(holds(Service.self), "a service view read as another type")
    return memory.load(as: Service.self)
  }
}
