import Synchronization

/// What lets an asynchronous request skip its plan with three atomic loads: a container
/// remembers that every async component its requests can meet keeps its instance, which
/// holds until an instance is dropped or a snapshot is replaced, anywhere in the process,
/// and while the container's snapshot is published (a registration withdraws it).
///
/// A server registers its async clients (a database pool, say) as singletons, made at
/// start-up or by the first requests: from then on, no request has anything to make before
/// its pass, and asking the plan so per component costs about 800 instructions a request
/// (Benchmarks/PROFILE.md, S13 against S11).
enum KeptAsyncInstances {
  /// Counts the changes that can unmake a verdict: a cell dropping its instance
  /// (``InstanceCell/clear()``, ``InstanceCell/retire()``) and a container publishing a
  /// new snapshot (counted before it is published). Rare next to requests; one counter for
  /// the process, so that a process-wide cell cleaned by another container counts too.
  private static let changes = Atomic<UInt>(0)

  /// Records a change: after a cell drops its instance, and before a container publishes a
  /// snapshot, so that a verdict found before the change no longer matches.
  static func changed() {
    changes.wrappingAdd(1, ordering: .sequentiallyConsistent)
  }

  /// The current count of changes.
  static var epoch: UInt {
    changes.load(ordering: .sequentiallyConsistent)
  }

  /// A verdict found at `epoch`: every instance kept, or not every one can be.
  static func verdict(_ allKept: Bool, at epoch: UInt) -> UInt {
    (epoch &+ 1) << 1 | (allKept ? 1 : 0)
  }
}

extension DIContainer {
  /// Whether every async component a request of this container can meet, in it and its
  /// parents, is cached in a cell of its own and keeps its instance now: then no
  /// asynchronous request has anything to make before its pass.
  ///
  /// Found once and remembered (``asyncInstancesVerdict``) until ``KeptAsyncInstances``
  /// counts a change; while one is not made yet, found again at each request (a lock per
  /// async component). A registration withdraws the published snapshot, so the next
  /// request finds out again on the one it publishes. One that a registration made during
  /// the request outdates costs a second pass: the pass makes what it meets unmade (see
  /// ``AsyncPlan``).
  func keepsEveryAsyncInstance() -> Bool {
    let epoch = KeptAsyncInstances.epoch
    if currentlyPublished != nil {
      switch asyncInstancesVerdict.load(ordering: .acquiring) {
      case KeptAsyncInstances.verdict(true, at: epoch): return true
      case KeptAsyncInstances.verdict(false, at: epoch): return false
      default: break
      }
    }
    let access = UnsafeSnapshotAccess.begin(self, for: ResolutionRequest.current)
    defer { access.end() }
    let cells = access.withSnapshot { $0.asyncCells }
    guard let cells else {
      asyncInstancesVerdict.store(
        KeptAsyncInstances.verdict(false, at: epoch), ordering: .releasing)
      return false
    }
    guard cells.allSatisfy({ $0.current != nil }) else { return false }
    asyncInstancesVerdict.store(KeptAsyncInstances.verdict(true, at: epoch), ordering: .releasing)
    return true
  }
}
