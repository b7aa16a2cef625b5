import Synchronization

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
final class ResolutionRequest: UnsafeRequestState, @unchecked Sendable {
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

    /// The component under construction, kept by the call that builds it, which pushes
    /// and pops the frame (``DIResolutionContext/build(_:as:publish:)``).
    let owner: Unretained<Component>
    let kind: Kind
    /// ``ResolutionRequest/buildingBits`` before this frame was pushed.
    var outerBits: UInt64 = 0

    /// The identity of the component under construction.
    @inline(__always)
    var component: ObjectIdentifier { owner.identity }

    /// The bit of the component under construction in ``ResolutionRequest/buildingBits``.
    @inline(__always)
    var bit: UInt64 { owner.borrow { $0.buildingBit } }
  }

  /// What only the request's own thread reads and writes (see the type's documentation):
  /// the inherited fields, named as such.
  var state: UnsafeRequestState {
    @inline(__always) get { self }
  }
  /// The snapshot the outermost context reads, published for containers that free old
  /// snapshots (hazard pointer).
  let hazard = Atomic<UInt>(0)
  /// The object this thread is retaining from a cell without the cell's lock, 0 when
  /// none (hazard pointer; see ``UnsafePublishedObject``).
  let objectHazard = Atomic<UInt>(0)
  /// Below this address, the thread's stack is too short for another component.
  private let stackLimit: UInt
  /// The wait loop the request backed off from, until its outermost resolution waits and
  /// starts again (see ``Backoff``).
  var backoff: Backoff?
  /// The tokens of the request's makings under way whose partial instance it was handed
  /// (see ``Making/servedPartial``): while there is one, it cannot back off.
  var servedPartials: [UInt64] = []

  override init() {
    stackLimit = StackBounds.limit()
  }

  /// The ``UnsafeRequestState/pendingSite``, which only the first resolution after it was
  /// left gets.
  @inline(__always)
  func takePendingSite() -> CallSite? {
    guard let site = state.pendingSite else { return nil }
    state.pendingSite = nil
    return site
  }

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
    if state.frameCount & 3 == 3, StackBounds.current() < stackLimit { return false }
    var frame = frame
    frame.outerBits = state.buildingBits
    state.buildingBits |= frame.bit
    state.pushFrame(frame)
    return true
  }

  /// The innermost component is built (or failed).
  @inline(__always)
  func pop() {
    state.buildingBits = state.popFrame().outerBits
  }

  /// How many makings are open: a resolution settles those opened after this mark.
  @inline(__always)
  var openMakingsMark: Int { state.withOpenMakings { $0.count } }

  /// Leaves a making open until the resolution that opened it settles it.
  func leaveOpen(_ settle: @escaping (_ keep: Bool) -> Void) {
    state.withOpenMakings { $0.append(settle) }
  }

  /// Keeps (or abandons) the values of the makings opened since `mark`, in order.
  @inline(__always)
  func settleOpenMakings(from mark: Int, keep: Bool) {
    if openMakingsMark > mark { settle(from: mark, keep: keep) }
  }

  @inline(never)
  private func settle(from mark: Int, keep: Bool) {
    let settling = state.withOpenMakings { makings in
      defer { makings.removeSubrange(mark...) }
      return Array(makings[mark...])
    }
    for settle in settling { settle(keep) }
  }

  /// Whether `component` may be under construction (false: it is not).
  @inline(__always)
  private func mayBeBuilding(_ component: Component) -> Bool {
    state.buildingBits & component.buildingBit != 0
  }

  /// How many components are under construction.
  var depth: Int { state.frameCount }

  /// The component whose construction is innermost, if any.
  var innermostComponent: Component? {
    depth > 0 ? state.frame(at: depth - 1).owner.object : nil
  }

  /// The path to the innermost component under construction, for work postponed on it:
  /// the components under construction, outermost first, after the path of the postponed
  /// work that is running, if any (whose frames came before it). So the postponed work of
  /// a postponed work's instance is reached by one path from what was asked.
  var postponementPath: PostponedPath {
    var path = state.postponedWork.path
    let base = state.postponedWork.frames
    path.append(count: depth - base) {
      state.frame(at: base + $0).owner.object.identity
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
    var index = depth - 1
    while index >= 0 {
      let frame = state.frame(at: index)
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
    var index = depth - 1
    while index >= 0 {
      let frame = state.frame(at: index)
      if frame.component == id && frame.kind == .objectGraph(graph) { return index }
      index -= 1
    }
    return nil
  }

  /// Whether `component` is under construction in this request.
  func isBuilding(_ component: Component) -> Bool {
    guard mayBeBuilding(component) else { return false }
    let id = ObjectIdentifier(component)
    for index in 0..<depth where state.frame(at: index).component == id { return true }
    return false
  }

  // MARK: - Threads

  /// Every thread's request state, for ``UnsafeSnapshotAccess`` to read their hazards.
  static let all = Locked<[ObjectIdentifier: ResolutionRequest]>([:])

  /// Whether a thread is retaining the object at `bits` without its cell's lock (see
  /// ``UnsafePublishedObject``).
  static func isAnnounced(_ bits: UInt) -> Bool {
    all.withLock { requests in
      requests.values.contains { $0.objectHazard.load(ordering: .sequentiallyConsistent) == bits }
    }
  }

  /// The calling thread's request state.
  static var current: ResolutionRequest { currentReference.object }
}
