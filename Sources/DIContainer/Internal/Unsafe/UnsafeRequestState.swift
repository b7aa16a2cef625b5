/// The mutable state of a thread's ``ResolutionRequest``, read and written with no
/// exclusivity checks: the only place the library turns them off.
///
/// ``ResolutionRequest`` inherits it, so reaching a field costs no more than reaching one
/// of its own (a separate object would add a load to every frame pushed and popped).
///
/// Only the request's own thread touches this state (a request is per thread, see
/// ``ResolutionRequest``), so a dynamic exclusivity check could never find a conflict, and
/// every component built would pay for several of them. Each field is reached through the
/// accessors below, so no other file opts out of the checks.
@safe
class UnsafeRequestState: @unchecked Sendable {
  @exclusivity(unchecked) private var _frames = UnsafeFrameStack()
  @exclusivity(unchecked) private var _buildingBits: UInt64 = 0
  @exclusivity(unchecked) private var _openMakings: [(_ keep: Bool) -> Void] = []
  @exclusivity(unchecked) private var _pendingSite: CallSite?
  @exclusivity(unchecked) private var _prepared: PreparedInstances?
  @exclusivity(unchecked) private var _contexts = 0
  @exclusivity(unchecked) private var _reusableBuilds = 0
  @exclusivity(unchecked) private var _postponedBy: [ObjectGraph.Postponement] = []
  @exclusivity(unchecked) private var _postponedWork: (path: PostponedPath, frames: Int) = (
    .init(), 0
  )
  @exclusivity(unchecked) private var _inlineGraphs = InlineGraphs()

  deinit {
    unsafe _frames.deallocate()
  }

  /// How many components are under construction.
  final var frameCount: Int {
    @inline(__always) get { unsafe _frames.count }
  }

  /// The frame at `index` (0: the outermost), which must be below ``frameCount``.
  @inline(__always)
  final func frame(at index: Int) -> ResolutionRequest.Frame { unsafe _frames[index] }

  /// Pushes the frame of a component whose construction begins.
  @inline(__always)
  final func pushFrame(_ frame: ResolutionRequest.Frame) { unsafe _frames.push(frame) }

  /// Pops the innermost frame.
  @inline(__always)
  final func popFrame() -> ResolutionRequest.Frame { unsafe _frames.pop() }

  /// One bit per component under construction (see ``ResolutionRequest``).
  final var buildingBits: UInt64 {
    @inline(__always) get { unsafe _buildingBits }
    @inline(__always) set { unsafe _buildingBits = newValue }
  }

  /// What to do with the makings left open by the resolutions running.
  @inline(__always)
  final func withOpenMakings<Result>(_ body: (inout [(_ keep: Bool) -> Void]) -> Result) -> Result {
    unsafe body(&_openMakings)
  }

  /// Where a trapping form reaching the container through `tryResolve` was called.
  final var pendingSite: CallSite? {
    @inline(__always) get { unsafe _pendingSite }
    @inline(__always) set { unsafe _pendingSite = newValue }
  }

  /// The instances an asynchronous request's async factories made (see
  /// ``PreparedInstances``).
  final var prepared: PreparedInstances? {
    @inline(__always) get { unsafe _prepared }
    @inline(__always) set { unsafe _prepared = newValue }
  }

  /// The runtime arguments addressed by type of the request running on the thread, if it
  /// has any (see ``AddressedArguments``).
  ///
  /// Exclusivity-checked, unlike the fields above: only requests with arguments read it,
  /// and its type has nothing unsafe for an `unsafe` access to mark.
  final var addressed: AddressedArguments?

  /// How many resolution contexts of the thread are running, one inside the other.
  final var contexts: Int {
    @inline(__always) get { unsafe _contexts }
    @inline(__always) set { unsafe _contexts = newValue }
  }

  /// How many reusable instances the thread has built.
  final var reusableBuilds: Int {
    @inline(__always) get { unsafe _reusableBuilds }
    @inline(__always) set { unsafe _reusableBuilds = newValue }
  }

  /// The `.prototype` postponements whose work led to the postponed work being done.
  final var postponedBy: [ObjectGraph.Postponement] {
    @inline(__always) get { unsafe _postponedBy }
    @inline(__always) set { unsafe _postponedBy = newValue }
  }

  /// While postponed work runs: its path, and the frames pushed before it began.
  final var postponedWork: (path: PostponedPath, frames: Int) {
    @inline(__always) get { unsafe _postponedWork }
    @inline(__always) set { unsafe _postponedWork = newValue }
  }

  /// The `.objectGraph` instances of the thread's resolutions whose graphs no object keeps.
  @inline(__always)
  final func withInlineGraphs<Result>(_ body: (inout InlineGraphs) -> Result) -> Result {
    unsafe body(&_inlineGraphs)
  }
}

/// The frames of a ``ResolutionRequest``: a growable stack of trivial values in a buffer
/// of its own, so a push or a pop is a store and a count, with none of an `Array`'s
/// uniqueness and capacity checks on the hot path. Owned by one request, used by its
/// thread only; ``deallocate()`` frees it.
@safe
struct UnsafeFrameStack {
  private var base: UnsafeMutablePointer<ResolutionRequest.Frame>
  private var capacity: Int
  private(set) var count = 0

  init() {
    capacity = 16
    unsafe base = .allocate(capacity: capacity)
  }

  /// The frame at `index`, which must be below ``count``.
  subscript(index: Int) -> ResolutionRequest.Frame {
    precondition(index >= 0 && index < count, "frame index out of range")
    return unsafe base[index]
  }

  @inline(__always)
  mutating func push(_ frame: ResolutionRequest.Frame) {
    if count == capacity { grow() }
    unsafe (base + count).initialize(to: frame)
    count += 1
  }

  @inline(__always)
  mutating func pop() -> ResolutionRequest.Frame {
    precondition(count > 0, "pop from an empty frame stack")
    count -= 1
    return unsafe base[count]
  }

  func deallocate() {
    unsafe base.deallocate()
  }

  private mutating func grow() {
    let larger = UnsafeMutablePointer<ResolutionRequest.Frame>.allocate(capacity: capacity * 2)
    unsafe larger.moveInitialize(from: base, count: count)
    unsafe base.deallocate()
    unsafe base = larger
    capacity *= 2
  }
}
