/// What a request's look-up before its resolution context found, for the context to
/// reuse: the calling thread's request, and the only candidate (see
/// ``UnsafeSnapshotAccess/lookUpWithoutContext(_:in:for:)``).
@usableFromInline
struct PriorLookUp {
  /// The calling thread's request, once looked up.
  var request: Unmanaged<ResolutionRequest>?
  /// The only candidate, valid for a context whose snapshot access
  /// ``UnsafeSnapshotAccess/continuesAnnouncement``.
  var single: Unmanaged<Component>?

  /// Nothing looked up yet.
  @usableFromInline
  init() {}
}

extension DIContainer {
  /// The object this container's only candidate for `type` keeps strongly, retained, read
  /// with no lock and no resolution context; nil when there is none or a context must
  /// decide. What the look-up found goes to `found`, for that context.
  @usableFromInline
  func publishedObject(of type: Any.Type, found: inout PriorLookUp) -> AnyObject? {
    let request = ResolutionRequest.currentReference
    let object = request._withUnsafeGuaranteedRef { (request) -> AnyObject? in
      guard
        let single = UnsafeSnapshotAccess.lookUpWithoutContext(
          ServiceKey(type), in: self, for: request)
      else { return nil }
      if let cell = single._withUnsafeGuaranteedRef({ $0.cell }),
        let object = cell._withUnsafeGuaranteedRef({ $0.publishedObject(for: request) })
      {
        return object
      }
      found.single = single
      return nil
    }
    if object == nil { found.request = request }
    return object
  }
}

extension DIContainer {
  /// The object this container's only candidate for `T` keeps, read with no resolution
  /// context and cast where `T` is known; else what `resolve` makes of `T` after the
  /// look-up (which it receives). Every entry point that resolves `T` with no arguments
  /// starts here.
  @inlinable @inline(__always)
  func publishedObject<T, Failure: Error>(
    or resolve: (PriorLookUp) throws(Failure) -> T
  ) throws(Failure) -> T {
    var found = PriorLookUp()
    guard let object = publishedObject(of: T.self, found: &found) else {
      return try resolve(found)
    }
    return try UnsafeExactCast.object(object, as: T.self) { (_) throws(Failure) in
      try resolve(found)
    }
  }
}
