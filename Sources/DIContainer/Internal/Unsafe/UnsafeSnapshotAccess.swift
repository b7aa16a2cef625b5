import Synchronization

/// A request's read access to a container's snapshot without reference counting: the one
/// place where the library reads an object it does not retain.
///
/// A container frees a snapshot it replaced once no request reads it. A thread's outermost
/// request announces the snapshot it reads in its ``ResolutionRequest/hazard`` slot (a
/// hazard pointer) and checks that the snapshot is still the published one; a container
/// frees a replaced snapshot only when no thread's slot names it
/// (``DIContainer/reclaimSnapshots(_:)``). So between ``begin(_:for:)`` and the end of the
/// request the snapshot stays alive, and reading it costs no atomic reference count (which
/// would make threads contend on one cache line).
///
/// The announcement stays after the request: the next request of the thread that finds
/// the same snapshot published needs no new one (two loads). So each thread keeps at most
/// one replaced snapshot from being freed, until its next request. A request nested in
/// another one on the same thread (a `resolve()` from inside a factory) retains its
/// snapshot instead: the slot is taken.
@safe
struct UnsafeSnapshotAccess {
  private let reference: Unretained<Snapshot>
  private let isRetained: Bool
  /// Whether this access reads the snapshot the thread had announced before it began,
  /// with no new announcement: what the thread looked up in that snapshot before (see
  /// ``lookUpWithoutContext(_:in:for:)``) is still alive and still the snapshot's.
  let continuesAnnouncement: Bool

  /// Starts reading the current snapshot of `container` for `request`, the calling
  /// thread's request.
  @inline(__always)
  static func begin(_ container: DIContainer, for request: ResolutionRequest) -> Self {
    guard request.state.contexts == 0 else {
      return Self(
        reference: unsafe Unretained(Unmanaged.passRetained(container.snapshot)),
        isRetained: true,
        continuesAnnouncement: false)
    }
    if let announced = announcedSnapshot(of: container, for: request) {
      return Self(reference: announced, isRetained: false, continuesAnnouncement: true)
    }
    return announce(container, for: request)
  }

  /// The published snapshot of `container` when `request` announced it in an earlier
  /// request of its thread and never withdrew it since: alive until the thread announces
  /// another.
  @inline(__always)
  private static func announcedSnapshot(
    of container: DIContainer, for request: ResolutionRequest
  ) -> Unretained<Snapshot>? {
    guard let published = container.currentlyPublished,
      request.hazard.load(ordering: .relaxed) == published.address
    else { return nil }
    return published
  }

  @inline(never)
  private static func announce(_ container: DIContainer, for request: ResolutionRequest) -> Self {
    while true {
      let candidate = container.publishedSnapshot
      let bits = candidate.address
      request.hazard.store(bits, ordering: .sequentiallyConsistent)
      // Still published after the announcement: a container that replaces it from now on
      // sees the slot and keeps it.
      if container.currentlyPublished?.address == candidate.address {
        return Self(reference: candidate, isRetained: false, continuesAnnouncement: false)
      }
    }
  }

  /// The only candidate for `key` in `container`, looked up without reference counting
  /// and without a lock: when `request` (the calling thread's) runs no resolution and the
  /// snapshot it announced is still the published one. The candidate is alive until the
  /// thread announces another snapshot; a resolution begun next may use it only if its
  /// access ``continuesAnnouncement`` (a comparison of addresses would not do: once the
  /// thread announces another snapshot, this one may be freed and a later one made at its
  /// address).
  @inline(__always)
  static func lookUpWithoutContext(
    _ key: ServiceKey, in container: DIContainer, for request: ResolutionRequest
  ) -> Unretained<Component>? {
    guard request.state.contexts == 0,
      let announced = announcedSnapshot(of: container, for: request)
    else { return nil }
    return announced.borrow { snapshot -> Unretained<Component>? in
      let table = snapshot.table.slots
      guard let index = table.index(of: key) else { return nil }
      return table.single(at: index)
    }
  }

  /// Stops reading the snapshot (an announced one stays announced; see the type's
  /// documentation).
  @inline(__always)
  func end() {
    if isRetained { unsafe reference.unmanaged.release() }
  }

  /// Runs `body` with the snapshot.
  @inline(__always)
  func withSnapshot<Result>(_ body: (Snapshot) -> Result) -> Result {
    reference.borrow(body)
  }

  /// The snapshot, retained by the caller.
  var snapshot: Snapshot { reference.object }
}
