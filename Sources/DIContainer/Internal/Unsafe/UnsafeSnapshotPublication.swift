import Synchronization

/// The snapshot a container publishes for requests to read with no lock and no reference
/// count: an atomic word holding it unretained, while the container's registry keeps it
/// (and keeps a replaced one until no request reads it, see ``UnsafeSnapshotAccess``).
@safe
struct SnapshotPublication: ~Copyable {
  private let published = unsafe Atomic<Unmanaged<Snapshot>?>(nil)

  /// Nothing published yet.
  init() {}

  /// Publishes `snapshot`, which the registry keeps.
  func publish(_ snapshot: Snapshot) {
    unsafe published.store(.passUnretained(snapshot), ordering: .sequentiallyConsistent)
  }

  /// Withdraws the published snapshot: the registrations changed.
  func withdraw() {
    unsafe published.store(nil, ordering: .releasing)
  }

  /// Whether a snapshot is published.
  var isPublished: Bool { unsafe published.load(ordering: .acquiring) != nil }

  /// The published snapshot, if there is one now.
  @inline(__always)
  var current: Unretained<Snapshot>? {
    unsafe published.load(ordering: .sequentiallyConsistent).map { unsafe Unretained($0) }
  }

  /// The published snapshot, or what `publish` publishes when there is none.
  @inline(__always)
  func snapshot(orPublish publish: () -> Snapshot) -> Unretained<Snapshot> {
    if let published = unsafe published.load(ordering: .acquiring) {
      return unsafe Unretained(published)
    }
    return Unretained(publish())
  }
}
