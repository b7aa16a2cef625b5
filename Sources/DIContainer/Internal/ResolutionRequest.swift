import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// What one request is building: the components under construction, innermost last.
///
/// Every resolution on a thread belongs to the thread's request: a top-level `resolve()`
/// starts it, and a `resolve()` called from inside a factory (of this container or another
/// one), a `Lazy` or `Provider` read there, joins it. So the request knows exactly what it
/// is building: asking again for a component it is building is a cycle (see
/// ``DIResolutionContext``), never a stack overflow and never a depth limit; and its
/// identity, not the thread's, is what a cell records as the creator of an instance and
/// what a waiting request waits for (``CreateOnce``).
///
/// One object per thread, made on the thread's first request and reused by its later ones,
/// so a request allocates nothing of its own; only its own thread touches its mutable
/// state. Other threads read only ``hazard`` and ``objectHazard`` (see ``UnsafeSnapshotAccess``
/// and ``UnsafePublishedObject``).
final class ResolutionRequest: @unchecked Sendable {
  /// A component under construction.
  struct Frame {
    /// How asking again for a component under construction ends.
    enum Kind: Equatable {
      /// A new instance at every request: asked for again with only such frames
      /// between, it would be built forever.
      case prototype
      /// One instance per object graph, identified here.
      case objectGraph(GraphID)
      /// Kept by a lifetime or scope, which records its creator and what it made so far.
      case cached
      /// A `.prototype` taking runtime arguments: asked for again, it may be with other
      /// arguments (a recursion that ends), so it is never taken for a loop; a recursion
      /// that does not end is stopped by the stack check (`.tooDeep`).
      case withArguments

      /// Whether the instance is new at every request (`.prototype`): nothing finds it
      /// later, in this request or another.
      var isNew: Bool {
        switch self {
        case .prototype, .withArguments: true
        case .objectGraph, .cached: false
        }
      }
    }

    /// The component under construction. Unretained: the frame is pushed and popped by
    /// the call that builds it, which holds it (``DIResolutionContext/build(_:as:publish:)``).
    let owner: Unmanaged<Component>
    let kind: Kind
    /// ``ResolutionRequest/buildingBits`` before this frame was pushed.
    var outerBits: UInt64 = 0

    /// The identity of the component under construction.
    @inline(__always)
    var component: ObjectIdentifier { owner._withUnsafeGuaranteedRef(ObjectIdentifier.init) }

    /// The bit of the component under construction in ``ResolutionRequest/buildingBits``.
    @inline(__always)
    var bit: UInt64 { owner._withUnsafeGuaranteedRef(\.buildingBit) }
  }

  // Only the request's own thread touches these (see the type's documentation), so
  // dynamic exclusivity checks would cost without finding anything.

  /// The components under construction, outermost first.
  @exclusivity(unchecked) private var frames = UnsafeFrameStack()
  /// One bit per component under construction (a Bloom filter of one word): when a
  /// component's bit is clear, it is not under construction, and no frame is looked at.
  @exclusivity(unchecked) private var buildingBits: UInt64 = 0
  /// What to do with the makings left open (``OpenMaking``) by the resolutions running:
  /// keep their values once the postponed work on them is done (true), or abandon them.
  @exclusivity(unchecked) private var openMakings: [(_ keep: Bool) -> Void] = []
  /// Where a trapping `resolve` form that reaches the container through
  /// ``DIResolver/tryResolve(arguments:)`` was called: handed to the resolution it starts
  /// (see ``DIResolutionContext/site``).
  @exclusivity(unchecked) var pendingSite: CallSite?
  /// While an asynchronous request runs a synchronous attempt on this thread: the
  /// instances its async factories made (see ``PreparedInstances``).
  @exclusivity(unchecked) var prepared: PreparedInstances?

  /// The ``pendingSite``, which only the first resolution after it was left gets.
  @inline(__always)
  func takePendingSite() -> CallSite? {
    guard let site = pendingSite else { return nil }
    pendingSite = nil
    return site
  }
  /// How many resolution contexts of this thread are running, one inside the other.
  @exclusivity(unchecked) var contexts = 0
  /// How many instances that a later request finds (anything but `.prototype`) the
  /// thread has built: while it stays the same, the same request gives the same result.
  @exclusivity(unchecked) var reusableBuilds = 0
  /// The `.prototype` postponements whose work led to the postponed work being done: the
  /// same one again with no reusable instance built in between would never end.
  @exclusivity(unchecked) var postponedBy: [ObjectGraph.Postponement] = []
  /// While postponed work runs: the path of the instance it is about, and how many frames
  /// were pushed before it began (see ``postponementPath``).
  @exclusivity(unchecked) var postponedWork: (path: PostponedPath, frames: Int) = (.init(), 0)
  /// The `.objectGraph` instances of this thread's resolutions whose graphs no object
  /// keeps yet.
  @exclusivity(unchecked) var inlineGraphs = InlineGraphs()
  /// The snapshot the outermost context reads, published for containers that free old
  /// snapshots (hazard pointer).
  let hazard = Atomic<UInt>(0)
  /// The object this thread is retaining from a cell without the cell's lock, 0 when
  /// none (hazard pointer; see ``UnsafePublishedObject``).
  let objectHazard = Atomic<UInt>(0)
  /// Below this address, the thread's stack is too short for another component.
  private let stackLimit: UInt

  private init() {
    stackLimit = StackBounds.limit()
  }

  deinit {
    frames.deallocate()
  }

  /// The calling thread's request state.
  static var current: ResolutionRequest {
    currentReference.takeUnretainedValue()
  }

  /// The calling thread's request state, unretained: the thread keeps it (see ``key``)
  /// until it ends, so it outlives every resolution the thread runs.
  @inline(__always)
  static var currentReference: Unmanaged<ResolutionRequest> {
    // The key plus one, or 0 before the first request: read without `swift_once`.
    let stored = keyPlusOne.load(ordering: .acquiring)
    if stored != 0, let raw = pthread_getspecific(pthread_key_t(stored - 1)) {
      return .fromOpaque(raw)
    }
    return .passUnretained(makeCurrent())
  }

  /// ``key`` plus one, once it is made; a constant initial value, so reading it needs no
  /// lazy initialization.
  private static let keyPlusOne = Atomic<UInt32>(0)

  /// The request's identity: what a making records as its creator, and what waits name.
  var identity: ObjectIdentifier { ObjectIdentifier(self) }

  // MARK: - Frames

  /// Records that a component is under construction, unless the thread's stack has too
  /// little room left for it.
  ///
  /// - Returns: Whether there was room (false: the graph is too deep for this thread).
  @inline(__always)
  func push(_ frame: Frame) -> Bool {
    // Every fourth frame, from the fourth on: the reserve left below the limit holds a few
    // frames more, and shallow graphs, the common case, never look.
    if frames.count & 3 == 3, StackBounds.current() < stackLimit { return false }
    var frame = frame
    frame.outerBits = buildingBits
    buildingBits |= frame.bit
    frames.push(frame)
    return true
  }

  /// The innermost component is built (or failed).
  @inline(__always)
  func pop() {
    buildingBits = frames.pop().outerBits
  }

  /// How many makings are open: a resolution settles those opened after this mark.
  @inline(__always)
  var openMakingsMark: Int { openMakings.count }

  /// Leaves a making open until the resolution that opened it settles it.
  func leaveOpen(_ settle: @escaping (_ keep: Bool) -> Void) {
    openMakings.append(settle)
  }

  /// Keeps (or abandons) the values of the makings opened since `mark`, in order.
  @inline(__always)
  func settleOpenMakings(from mark: Int, keep: Bool) {
    if openMakings.count > mark { settle(from: mark, keep: keep) }
  }

  @inline(never)
  private func settle(from mark: Int, keep: Bool) {
    let settling = openMakings[mark...]
    openMakings.removeSubrange(mark...)
    for settle in settling { settle(keep) }
  }

  /// Whether `component` may be under construction (false: it is not).
  @inline(__always)
  private func mayBeBuilding(_ component: Component) -> Bool {
    buildingBits & component.buildingBit != 0
  }

  /// How many components are under construction.
  var depth: Int { frames.count }

  /// The component whose construction is innermost, if any.
  var innermostComponent: Component? {
    frames.count > 0 ? frames[frames.count - 1].owner.takeUnretainedValue() : nil
  }

  /// The path to the innermost component under construction, for work postponed on it:
  /// the components under construction, outermost first, after the path of the postponed
  /// work that is running, if any (whose frames came before it). So the postponed work of
  /// a postponed work's instance is reached by one path from what was asked.
  var postponementPath: PostponedPath {
    var path = postponedWork.path
    let base = postponedWork.frames
    path.append(count: frames.count - base) {
      frames[base + $0].owner.takeUnretainedValue().identity
    }
    return path
  }

  /// Whether `component` is under construction in a loop that cannot end: asked for
  /// again with only `.prototype` frames (or `.objectGraph` frames of other graphs) above
  /// its last construction, it would be built forever. False when it is not under
  /// construction, or when a frame above it will answer differently the next time round.
  @inline(__always)
  func endlessLoop(at component: Component, graph: GraphID?) -> Bool {
    mayBeBuilding(component) && findEndlessLoop(at: ObjectIdentifier(component), graph: graph)
  }

  private func findEndlessLoop(at component: ObjectIdentifier, graph: GraphID?) -> Bool {
    var index = frames.count - 1
    while index >= 0 {
      let frame = frames[index]
      if frame.component == component { return true }
      switch frame.kind {
      case .prototype: break
      case .objectGraph(let own): if own == graph { return false }
      case .cached, .withArguments: return false
      }
      index -= 1
    }
    return false
  }

  /// Where `component` is under construction for `graph`, if it is.
  func frame(of component: Component, graph: GraphID) -> Int? {
    guard mayBeBuilding(component) else { return nil }
    let id = ObjectIdentifier(component)
    var index = frames.count - 1
    while index >= 0 {
      let frame = frames[index]
      if frame.component == id && frame.kind == .objectGraph(graph) { return index }
      index -= 1
    }
    return nil
  }

  /// Whether `component` is under construction in this request.
  func isBuilding(_ component: Component) -> Bool {
    guard mayBeBuilding(component) else { return false }
    let id = ObjectIdentifier(component)
    for index in 0..<frames.count where frames[index].component == id { return true }
    return false
  }

  // MARK: - Threads

  /// Every thread's request state, for ``UnsafeSnapshotAccess`` to read their hazards.
  static let all = Locked<[ObjectIdentifier: ResolutionRequest]>([:])

  private static let key: pthread_key_t = {
    var key = pthread_key_t()
    let status = pthread_key_create(&key) { raw in
      // The thread ends: forget its request state.
      #if canImport(Darwin)
        let request = Unmanaged<ResolutionRequest>.fromOpaque(raw).takeRetainedValue()
      #else
        guard let raw else { return }
        let request = Unmanaged<ResolutionRequest>.fromOpaque(raw).takeRetainedValue()
      #endif
      _ = ResolutionRequest.all.withLock { $0.removeValue(forKey: request.identity) }
    }
    precondition(status == 0, "pthread_key_create failed: \(status)")
    return key
  }()

  /// Whether a thread is retaining the object at `bits` without its cell's lock (see
  /// ``UnsafePublishedObject``).
  static func isAnnounced(_ bits: UInt) -> Bool {
    all.withLock { requests in
      requests.values.contains { $0.objectHazard.load(ordering: .sequentiallyConsistent) == bits }
    }
  }

  @inline(never)
  private static func makeCurrent() -> ResolutionRequest {
    keyPlusOne.store(UInt32(key) + 1, ordering: .releasing)
    let request = ResolutionRequest()
    all.withLock { $0[request.identity] = request }
    pthread_setspecific(key, Unmanaged.passRetained(request).toOpaque())
    return request
  }
}

/// The frames of a ``ResolutionRequest``: a growable stack of trivial values in a buffer
/// of its own, so a push or a pop is a store and a count, with none of an `Array`'s
/// uniqueness and capacity checks on the hot path. Owned by one request, used by its
/// thread only; ``deallocate()`` frees it.
struct UnsafeFrameStack {
  private var base: UnsafeMutablePointer<ResolutionRequest.Frame>
  private var capacity: Int
  private(set) var count = 0

  init() {
    capacity = 16
    base = .allocate(capacity: capacity)
  }

  /// The frame at `index`, which must be below ``count``.
  subscript(index: Int) -> ResolutionRequest.Frame {
    precondition(index >= 0 && index < count, "frame index out of range")
    return base[index]
  }

  @inline(__always)
  mutating func push(_ frame: ResolutionRequest.Frame) {
    if count == capacity { grow() }
    (base + count).initialize(to: frame)
    count += 1
  }

  @inline(__always)
  mutating func pop() -> ResolutionRequest.Frame {
    precondition(count > 0, "pop from an empty frame stack")
    count -= 1
    return base[count]
  }

  func deallocate() {
    base.deallocate()
  }

  private mutating func grow() {
    let larger = UnsafeMutablePointer<ResolutionRequest.Frame>.allocate(capacity: capacity * 2)
    larger.moveInitialize(from: base, count: count)
    base.deallocate()
    base = larger
    capacity *= 2
  }
}

/// The calling thread's stack: where it ends, and how far the caller has gone.
enum StackBounds {
  /// What a request leaves free for the factories it calls and for the error it may
  /// report: a quarter of the stack, at least 64 KiB, at most 256 KiB.
  static func reserve(size: UInt) -> UInt {
    min(max(size / 4, 64 * 1024), 256 * 1024)
  }

  /// The lowest address a request may reach on the calling thread.
  static func limit() -> UInt {
    #if canImport(Darwin)
      let top = UInt(bitPattern: pthread_get_stackaddr_np(pthread_self()))
      let size = UInt(pthread_get_stacksize_np(pthread_self()))
      return top - size + reserve(size: size)
    #else
      var attributes = pthread_attr_t()
      guard let getAttributes, getAttributes(pthread_self(), &attributes) == 0 else {
        return assumedLimit()
      }
      defer { pthread_attr_destroy(&attributes) }
      var low: UnsafeMutableRawPointer?
      var size = 0
      guard pthread_attr_getstack(&attributes, &low, &size) == 0, let low else {
        return assumedLimit()
      }
      return UInt(bitPattern: low) + reserve(size: UInt(size))
    #endif
  }

  /// The limit when the stack's bounds cannot be read: as if 512 KiB (macOS's secondary
  /// threads) were left where the thread's first request runs.
  private static func assumedLimit() -> UInt {
    let size: UInt = 512 * 1024
    return current() - size + reserve(size: size)
  }

  #if !canImport(Darwin)
    /// glibc's and musl's `pthread_getattr_np`, which the C module does not export (it
    /// needs `_GNU_SOURCE`); looked up once, called with the C convention.
    private typealias GetAttributes =
      @convention(c) (
        pthread_t, UnsafeMutablePointer<pthread_attr_t>
      ) -> Int32
    private static let getAttributes: GetAttributes? = {
      guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "pthread_getattr_np")
      else { return nil }
      return unsafeBitCast(symbol, to: GetAttributes.self)
    }()
  #endif

  /// About where the caller's stack frame is.
  @inline(never)
  static func current() -> UInt {
    var marker: UInt8 = 0
    return withUnsafeMutablePointer(to: &marker) { UInt(bitPattern: $0) }
  }
}
