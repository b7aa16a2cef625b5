/// What a request's look-up before its resolution context found, for the context to
/// reuse: the calling thread's request, and the only candidate (see
/// ``UnsafeSnapshotAccess/lookUpWithoutContext(_:in:for:)``).
@usableFromInline
struct PriorLookUp {
  /// The calling thread's request, once looked up.
  var request: Unretained<ResolutionRequest>?
  /// The only candidate: alive only while the thread's announcement has not moved since
  /// the look-up, so it is read through ``candidate(for:)`` only.
  private var single: Unretained<Component>?

  /// Nothing looked up yet.
  @usableFromInline
  init() {}

  /// The only candidate, if the look-up found one and `handle`'s snapshot access continues
  /// the announcement the look-up read it under (else it may have been freed since).
  @inline(__always)
  func candidate(for handle: borrowing RequestHandle) -> Unretained<Component>? {
    guard let single, handle.continuesAnnouncement else { return nil }
    return single
  }

  /// Whether the look-up found an only candidate (which may be gone by now).
  var foundCandidate: Bool { single != nil }

  /// Forgets the candidate: the announcement it was read under is over.
  mutating func forgetCandidate() {
    single = nil
  }

  /// Records the only candidate, read under the thread's current announcement.
  fileprivate mutating func record(_ candidate: Unretained<Component>) {
    single = candidate
  }
}

extension DIContainer {
  /// The object this container's only candidate for `type` keeps strongly, retained, read
  /// with no lock and no resolution context; nil when there is none or a context must
  /// decide (always while some task has an override level). What the look-up found goes to
  /// `found`, for that context.
  @usableFromInline
  func publishedObject(of type: Any.Type, found: inout PriorLookUp) -> AnyObject? {
    let request = ResolutionRequest.currentReference
    // The task may have an override level, which the generic path finds: nothing found here.
    guard !OverrideLevels.areInUse else {
      found.request = request
      return nil
    }
    let object = request.borrow { (request) -> AnyObject? in
      guard
        let single = UnsafeSnapshotAccess.lookUpWithoutContext(
          ServiceKey(type), in: self, for: request)
      else { return nil }
      if let cell = single.borrow({ $0.cell }),
        let object = cell.borrow({ $0.publishedObject(for: request) })
      {
        return object
      }
      found.record(single)
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
