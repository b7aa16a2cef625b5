/// A resolved value carried through the library's locks.
///
/// Instances are user objects the library does not constrain to `Sendable`; a caching
/// lifetime shares one across threads, which is why the documentation asks that such
/// objects be thread-safe. `@unchecked Sendable` states that contract, as
/// ``UncheckedSendable`` does for the library's other such values: an `Instance` is not that
/// box around its `Any` because the box's outlined copies cost S4 +132 instructions (+3.6%,
/// callgrind at 06daa2d).
struct Instance: @unchecked Sendable {
  let value: Any
}

/// A weak reference to a class instance, for `.weak` lifetimes, child containers and
/// delayed values' origins.
final class WeakReference: Sendable {
  private struct Box {
    weak var object: AnyObject?
  }

  // Written once; a weak reference is read atomically by the runtime.
  private let box: UncheckedSendable<Box>

  init(_ object: AnyObject) {
    box = UncheckedSendable(Box(object: object))
  }

  /// The object, while it lives.
  var object: AnyObject? { box.wrapped.object }
}

/// Whether a value is a class instance, so a `.weak` lifetime can hold it weakly.
func classInstance(_ value: Any) -> AnyObject? {
  // A class's value is recognized from its metadata, with no dynamic cast (which looks
  // conformances up for each new type); the cast is left for what that cannot tell.
  if let object = UnsafeExactCast.object(of: value) { return object }
  guard type(of: value) is AnyClass else { return nil }
  return value as AnyObject
}
