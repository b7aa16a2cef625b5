/// A value made on first need and kept: what `Lazy` and `Lazy1…5` share.
///
/// Concurrent first calls make one value; a failed attempt leaves nothing, so a later call
/// tries again.
final class MadeOnce: Sendable {
  private let made = Locked<Instance?>(nil)
  private let making = Lock()

  /// The kept value, or the one `make` makes now (and is kept).
  func value(_ make: () throws(DIError) -> Any) throws(DIError) -> Any {
    if let made = made.withLock({ $0 }) { return made.value }
    return try making.withLock { () throws(DIError) -> Instance in
      if let made = made.withLock({ $0 }) { return made }
      let instance = Instance(value: try make())
      made.withLock { $0 = instance }
      return instance
    }.value
  }

  /// Whether the value was made.
  var wasMade: Bool {
    made.withLock { $0 != nil }
  }
}
