/// What a synchronous factory made: a class instance as its object, any other value as
/// `Any`.
///
/// A request for the class itself takes the object as it is (``UnsafeExactCast`` compares
/// its class), where an `Any` would be opened, copied and destroyed: one reference count
/// pair and four value-witness calls per object built.
@usableFromInline
enum MadeInstance {
  case object(AnyObject)
  case value(Any)

  /// `instance`, as its object when its type is a class. Inlined into each factory, where
  /// the type is known.
  @inlinable @inline(__always)
  init<Impl>(_ instance: consuming Impl) {
    if let object = UnsafeExactCast.object(of: instance) {
      self = .object(object)
    } else {
      self = .value(instance)
    }
  }

  /// The instance, as the lifetimes and injections keep it.
  consuming func erased() -> Any {
    switch consume self {
    case .object(let object): object
    case .value(let value): value
    }
  }
}
