/// A resolved value carried through the library's locks.
///
/// Instances are user objects the library does not constrain to `Sendable`; a caching
/// lifetime shares one across threads, which is why the documentation asks that such
/// objects be thread-safe. This box states that contract to the compiler.
struct Instance: @unchecked Sendable {
  let value: Any
}

/// A weak reference to a class instance, for `.weak` lifetimes.
final class WeakReference: @unchecked Sendable {
  // Written once, read under the owner's lock.
  weak var object: AnyObject?

  init(_ object: AnyObject) {
    self.object = object
  }
}

/// Whether a value is a class instance, so a `.weak` lifetime can hold it weakly.
func classInstance(_ value: Any) -> AnyObject? {
  // A class's value is recognized from its metadata, with no dynamic cast (which looks
  // conformances up for each new type); the cast is left for what that cannot tell.
  if let object = UnsafeExactCast.object(of: value) { return object }
  guard type(of: value) is AnyClass else { return nil }
  return value as AnyObject
}
