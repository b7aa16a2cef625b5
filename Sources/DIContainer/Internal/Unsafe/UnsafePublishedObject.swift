import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A cell's strongly kept object, published in one atomic word so that a request reads it
/// without the cell's lock: the one place the library retains an object through a pointer
/// that another thread may be releasing.
///
/// The cell's owner publishes the object under its lock, after keeping it, and withdraws
/// it under the same lock when it drops it; the cell keeps its own strong reference all
/// along, so a published object is alive. A reader announces the object it is about to
/// retain in its thread's ``ResolutionRequest/objectHazard`` slot (a hazard pointer),
/// checks that the object is still published, retains it and clears the slot. The owner,
/// after withdrawing, waits until no thread's slot names the object before it lets its
/// reference go (``Withdrawn/awaitReaders()``). Sequentially consistent ordering on both
/// sides means either the reader sees the withdrawal and retains nothing, or the owner sees the
/// announcement and waits: a reader never retains a released object. The wait is short: a
/// reader's announcement spans a load and a retain, with no lock and no user code.
struct UnsafePublishedObject: ~Copyable {
  /// The object's address, 0 when none is published.
  private let bits = Atomic<UInt>(0)

  init() {}

  /// Publishes `object`, which the caller keeps alive until it withdraws it. Called under
  /// the owner's lock.
  func publish(_ object: AnyObject) {
    unsafe bits.store(
      UInt(bitPattern: Unmanaged.passUnretained(object).toOpaque()), ordering: .releasing)
  }

  /// Withdraws the published object, if any, for the caller to
  /// ``Withdrawn/awaitReaders()`` before it lets the object go. Called under the owner's lock.
  func withdraw() -> Withdrawn {
    Withdrawn(bits: bits.exchange(0, ordering: .sequentiallyConsistent))
  }

  /// The published object, retained, or nil when none is published; `request` is the
  /// calling thread's.
  @inline(__always)
  func read(for request: ResolutionRequest) -> AnyObject? {
    let candidate = bits.load(ordering: .acquiring)
    guard candidate != 0 else { return nil }
    request.objectHazard.store(candidate, ordering: .sequentiallyConsistent)
    // Still published after the announcement: the owner that withdraws it from now on
    // sees the slot and waits for this read.
    guard bits.load(ordering: .sequentiallyConsistent) == candidate,
      let pointer = unsafe UnsafeRawPointer(bitPattern: candidate)
    else {
      request.objectHazard.store(0, ordering: .releasing)
      return nil
    }
    let object = unsafe Unmanaged<AnyObject>.fromOpaque(pointer).retain()
    // Retained before the slot is cleared (a releasing store: the retain happens before).
    request.objectHazard.store(0, ordering: .releasing)
    return unsafe object.takeRetainedValue()
  }

  /// An object withdrawn from publication, which readers may still be retaining.
  struct Withdrawn {
    fileprivate let bits: UInt

    /// Waits until no thread is retaining the withdrawn object (each reader is a few
    /// instructions from done); returns at once when none was published. Call it after
    /// the owner's lock, before the owner's reference goes.
    func awaitReaders() {
      guard bits != 0 else { return }
      while ResolutionRequest.isAnnounced(bits) { sched_yield() }
    }
  }
}
