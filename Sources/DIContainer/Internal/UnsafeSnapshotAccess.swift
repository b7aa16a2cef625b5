import Synchronization

/// A request's read access to a container's snapshot without reference counting: the one
/// place where the library reads an object it does not retain.
///
/// A container frees a snapshot it replaced once no request reads it. A thread's outermost
/// request announces the snapshot it reads in its ``ResolutionRequest/hazard`` slot (a
/// hazard pointer) and checks that the snapshot is still the published one; a container
/// frees a replaced snapshot only when no thread's slot names it
/// (``DIContainer/reclaimSnapshots(_:)``). So between ``begin(_:for:)`` and ``end(for:)``
/// the snapshot stays alive, and reading it costs no atomic reference count (which would
/// make threads contend on one cache line). A request nested in another one on the same
/// thread (a `resolve()` from inside a factory) retains its snapshot instead: the slot is
/// taken.
struct UnsafeSnapshotAccess {
  private let reference: Unmanaged<Snapshot>
  private let isRetained: Bool

  /// Starts reading the current snapshot of `container` for `request`, the calling
  /// thread's request.
  @inline(__always)
  static func begin(_ container: DIContainer, for request: ResolutionRequest) -> Self {
    guard request.contexts == 0 else {
      return Self(reference: .passRetained(container.snapshot), isRetained: true)
    }
    while true {
      let candidate = container.publishedSnapshot
      let bits = UInt(bitPattern: candidate.toOpaque())
      request.hazard.store(bits, ordering: .sequentiallyConsistent)
      // Still published after the announcement: a container that replaces it from now on
      // sees the slot and keeps it.
      if container.isPublished(candidate) {
        return Self(reference: candidate, isRetained: false)
      }
    }
  }

  /// Stops reading the snapshot.
  @inline(__always)
  func end(for request: ResolutionRequest) {
    if isRetained {
      reference.release()
    } else {
      request.hazard.store(0, ordering: .releasing)
    }
  }

  /// Runs `body` with the snapshot.
  @inline(__always)
  func withSnapshot<Result>(_ body: (Snapshot) -> Result) -> Result {
    reference._withUnsafeGuaranteedRef(body)
  }

  /// The snapshot, retained by the caller.
  var snapshot: Snapshot { reference.takeUnretainedValue() }
}
