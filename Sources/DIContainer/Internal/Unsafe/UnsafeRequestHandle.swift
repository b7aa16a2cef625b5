#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The raw references of one resolution, and the only holder of them: the container asked
/// (unretained), the snapshot it reads (see ``UnsafeSnapshotAccess``), the thread's request,
/// the request scope, and the runtime arguments' buffer. Ending the handle ends the
/// resolution: its `deinit` settles the makings the resolution left open, gives the snapshot
/// back and ends the object graph, on every path out, thrown errors included.
///
/// Non-copyable, so the references cannot outlive the resolution or be shared with
/// another one; every entry point makes one (``DIResolutionContext``) on its own stack and
/// keeps the container, the scope and the arguments alive for as long as it runs. In debug
/// builds each use checks that it happens on the thread that began the resolution.
@safe
struct RequestHandle: ~Copyable {
  /// The container asked, kept alive by the entry point (the receiver of `resolve`, or a
  /// local of a delayed value's or a scope's resolve).
  unowned(unsafe) private let _container: DIContainer
  private let access: UnsafeSnapshotAccess
  /// The slots of the snapshot's lookup table, which the snapshot keeps alive.
  let table: ServiceTable.Slots
  private let _request: Unretained<ResolutionRequest>
  /// The request scope resolving, if any; its caller keeps it alive for the request.
  let requestScope: Unretained<DIRequestScope>?
  /// The runtime arguments for the component asked for; owned by the request's caller.
  private let argumentBuffer: UnsafeBufferPointer<Any>?
  /// The request's open makings before this resolution: those after it are this
  /// resolution's to settle (see ``ResolutionRequest/settleOpenMakings(from:keep:)``).
  private let openMakingsMark: Int
  /// This resolution's object graph.
  var graph: RequestGraph
  #if DEBUG
    private let thread = pthread_self()
  #endif

  /// Begins a resolution of `container` without runtime arguments on `request`, the calling
  /// thread's, in `requestScope` when there is one.
  @inline(__always)
  init(
    container: DIContainer, request: Unretained<ResolutionRequest>,
    requestScope: DIRequestScope? = nil
  ) {
    unsafe self.init(
      container: container, request: request, arguments: nil, requestScope: requestScope)
  }

  /// Begins a resolution of `container` with `arguments` on the calling thread's request,
  /// in `requestScope` when there is one, and runs `body` with it; the buffer of the
  /// arguments lives as long as `body` runs.
  static func begin<Result>(
    container: DIContainer, arguments: [Any]?, requestScope: DIRequestScope?,
    _ body: (consuming RequestHandle) throws(DIError) -> Result
  ) throws(DIError) -> Result {
    let request = ResolutionRequest.currentReference
    guard let arguments else {
      return try body(
        RequestHandle(container: container, request: request, requestScope: requestScope))
    }
    return try unsafe arguments.withUnsafeBufferPointer { (buffer) throws(DIError) -> Result in
      try body(
        unsafe RequestHandle(
          container: container, request: request, arguments: buffer, requestScope: requestScope))
    }
  }

  @unsafe @inline(__always)
  private init(
    container: DIContainer, request: Unretained<ResolutionRequest>,
    arguments: UnsafeBufferPointer<Any>?, requestScope: DIRequestScope?
  ) {
    unsafe _container = container
    _request = request
    let (access, openMakingsMark, inlineGraphBase) = request.borrow { request in
      let access = UnsafeSnapshotAccess.begin(container, for: request)
      request.state.contexts += 1
      return (access, request.openMakingsMark, request.state.withInlineGraphs { $0.base })
    }
    self.access = access
    self.openMakingsMark = openMakingsMark
    graph = RequestGraph(base: inlineGraphBase)
    table = access.withSnapshot { $0.table.slots }
    unsafe argumentBuffer = arguments
    self.requestScope = requestScope.map(Unretained.init)
  }

  deinit {
    checkThread()
    let mark = openMakingsMark
    _request.borrow { request in
      // Still open only when the resolution failed before its postponed work was done.
      request.settleOpenMakings(from: mark, keep: false)
      request.state.contexts -= 1
    }
    access.end()
    graph.end(in: _request)
  }

  /// Stops the program when the handle is used on another thread than the one that began
  /// the resolution (debug builds only).
  @inline(__always)
  private func checkThread() {
    #if DEBUG
      precondition(
        pthread_equal(thread, pthread_self()) != 0,
        "a resolution was used on another thread than the one that began it")
    #endif
  }

  /// The container asked.
  var container: DIContainer {
    @inline(__always) get { unsafe _container }
  }

  /// The identity of the container asked.
  var containerID: ObjectIdentifier {
    @inline(__always) get { unsafe ObjectIdentifier(_container) }
  }

  /// Keeps (or abandons) the values of the makings this resolution left open.
  func settleOpenMakings(keep: Bool) {
    let mark = openMakingsMark
    request.borrow { $0.settleOpenMakings(from: mark, keep: keep) }
  }

  /// The calling thread's request, which this resolution belongs to.
  var request: Unretained<ResolutionRequest> {
    @inline(__always) get {
      checkThread()
      return _request
    }
  }

  /// The registrations this resolution reads.
  var snapshot: Snapshot { access.snapshot }

  /// Whether the snapshot is the one the thread had announced before the resolution began:
  /// what the thread looked up without a context (``PriorLookUp``) is still alive then.
  var continuesAnnouncement: Bool { access.continuesAnnouncement }

  /// How many runtime arguments the request carries; nil when it carries none.
  var argumentCount: Int? {
    @inline(__always) get { unsafe argumentBuffer?.count }
  }

  /// The runtime argument at `index`, which must be below ``argumentCount``.
  @inline(__always)
  func argument(at index: Int) -> Any {
    guard let buffer = unsafe argumentBuffer, index >= 0, index < buffer.count else {
      preconditionFailure("runtime argument \(index) out of range")
    }
    return unsafe buffer[index]
  }

  /// The runtime arguments of the request, copied.
  var arguments: [Any]? { unsafe argumentBuffer.map { unsafe Array($0) } }
}
