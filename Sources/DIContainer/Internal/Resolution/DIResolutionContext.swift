/// The state of one resolution: the request handle (the container, the snapshot it reads,
/// the thread's request, the request scope and the runtime arguments, see
/// ``RequestHandle``), who is asking (for modularity), and how deep it is.
///
/// Lives on the stack of the resolution (see ``with(_:requester:arguments:graph:nested:requestScope:_:)``)
/// and is passed `inout` to every factory; non-copyable, so it ends exactly once, when its
/// handle goes. A resolution allocates nothing of its own unless its graph needs an
/// ``ObjectGraph``.
///
/// Its work is split by concern: looking a parameter up (`+Lookup`), the lifetimes'
/// storage (`+Lifetimes`), building an instance and its injections (`+Build`) and the
/// postponed work (`+Postponed`).
@usableFromInline
package struct DIResolutionContext: ~Copyable {
  /// The raw references of this resolution; ending it ends the resolution.
  var handle: RequestHandle
  /// The framework on whose behalf the current request is made.
  package var requester: DIModuleID?
  var nextArgument = 0
  /// How many components this resolution is building, one inside the other: runtime
  /// arguments go to the outermost one.
  var depth = 0
  /// Where the user's code made this request, when a trapping form knows it: a `Lazy` or
  /// `Provider` made here names it when its value later fails.
  private(set) var site: CallSite?

  @inline(__always)
  private init(handle: consuming RequestHandle, requester: DIModuleID?, site: CallSite?) {
    self.handle = handle
    self.requester = requester
    self.site = site
  }

  /// Resolves `T` as `requester` with no runtime arguments, in a new resolution: the
  /// common case of ``with(_:requester:arguments:graph:nested:requestScope:_:)``, without its
  /// closure.
  package static func resolve<T>(
    _ type: T.Type, in container: DIContainer, requester: DIModuleID?, site: CallSite? = nil
  ) throws(DIError) -> T {
    try container.publishedObject { (found) throws(DIError) in
      try resolve(T.self, in: container, requester: requester, site: site, after: found)
    }
  }

  /// ``resolve(_:in:requester:site:)`` on a new context, after `found` looked `T` up; a
  /// request that backed off from a wait loop starts again (see ``Backoff``).
  @inline(__always)
  static func resolve<T>(
    _ type: T.Type, in container: DIContainer, requester: DIModuleID?, site: CallSite?,
    after found: PriorLookUp
  ) throws(DIError) -> T {
    do throws(DIError) {
      return try resolveOnce(T.self, in: container, requester: requester, site: site, after: found)
    } catch {
      try backOff(after: error)
      return try resolveAgain(T.self, in: container, requester: requester, site: site)
    }
  }

  /// ``resolve(_:in:requester:site:)`` once more, after the request backed off.
  @inline(never)
  private static func resolveAgain<T>(
    _ type: T.Type, in container: DIContainer, requester: DIModuleID?, site: CallSite?
  ) throws(DIError) -> T {
    try resolve(T.self, in: container, requester: requester, site: site)
  }

  @inline(__always)
  private static func resolveOnce<T>(
    _ type: T.Type, in container: DIContainer, requester: DIModuleID?, site: CallSite?,
    after found: PriorLookUp
  ) throws(DIError) -> T {
    var context = DIResolutionContext(
      handle: RequestHandle(
        container: container, request: found.request ?? ResolutionRequest.currentReference),
      requester: requester, site: site)
    let value: T
    if let single = found.candidate(for: context.handle) {
      value = try single.borrowing { (component) throws(DIError) in
        try context.instance(T.self, of: component)
      }
    } else {
      value = try context.value(T.self, tag: nil)
    }
    try context.finish()
    return value
  }

  /// ``resolve(_:in:requester:site:after:)`` from outside every framework with `T` not
  /// known: the instance of the only candidate `found` found, as it was made (a class
  /// instance as its object), for the caller to cast where `T` is known. Nil, with
  /// nothing made, when the look-up found no only candidate or the snapshot moved since:
  /// the generic path decides then (as after the request backed off from a wait loop).
  @inline(__always)
  static func madeInstance(
    requested type: Any.Type, in container: DIContainer, site: CallSite?,
    after found: inout PriorLookUp
  ) throws(DIError) -> MadeInstance? {
    do throws(DIError) {
      return try madeInstanceOnce(requested: type, in: container, site: site, after: &found)
    } catch {
      try backOff(after: error)
      found.forgetCandidate()
      return nil
    }
  }

  @inline(__always)
  private static func madeInstanceOnce(
    requested type: Any.Type, in container: DIContainer, site: CallSite?,
    after found: inout PriorLookUp
  ) throws(DIError) -> MadeInstance? {
    guard found.foundCandidate else { return nil }
    var context = DIResolutionContext(
      handle: RequestHandle(
        container: container, request: found.request ?? ResolutionRequest.currentReference),
      requester: nil, site: site)
    guard let single = found.candidate(for: context.handle) else {
      // This context announced the new snapshot, so the generic path's context will
      // continue that announcement, not the look-up's: the candidate, maybe freed by
      // now, must not reach it.
      found.forgetCandidate()
      return nil
    }
    return try context.finishedInstance(of: single, requested: type)
  }

  /// ``madeInstance(requested:in:site:after:)`` in `requestScope`, which keeps the
  /// `.scoped` instances; when `type` has no only candidate, nil once `otherwise`
  /// resolved it on this context. A request that backed off from a wait loop starts
  /// again.
  static func madeInstance(
    requested type: Any.Type, in container: DIContainer, requestScope: DIRequestScope,
    site: CallSite?, otherwise: (inout DIResolutionContext) throws(DIError) -> Void
  ) throws(DIError) -> MadeInstance? {
    while true {
      do throws(DIError) {
        return try madeInstanceOnce(
          requested: type, in: container, requestScope: requestScope, site: site,
          otherwise: otherwise)
      } catch {
        try backOff(after: error)
      }
    }
  }

  @inline(__always)
  private static func madeInstanceOnce(
    requested type: Any.Type, in container: DIContainer, requestScope: DIRequestScope,
    site: CallSite?, otherwise: (inout DIResolutionContext) throws(DIError) -> Void
  ) throws(DIError) -> MadeInstance? {
    var context = DIResolutionContext(
      handle: RequestHandle(
        container: container, request: ResolutionRequest.currentReference,
        requestScope: requestScope),
      requester: nil, site: site)
    guard let index = context.handle.table.index(of: ServiceKey(type)),
      let single = context.handle.table.single(at: index)
    else {
      try otherwise(&context)
      try context.finish()
      return nil
    }
    return try context.finishedInstance(of: single, requested: type)
  }

  /// The instance `single` makes for a top-level request of `type`, once the
  /// resolution's postponed work is done.
  @inline(__always)
  private mutating func finishedInstance(
    of single: Unretained<Component>, requested type: Any.Type
  ) throws(DIError) -> MadeInstance {
    let made = try single.borrowing { (component) throws(DIError) in
      try madeInstance(of: component, requested: type)
    }
    try finish()
    return made
  }

  /// Runs one resolution of `container` on a new context: as `requester` (nil: from
  /// outside every framework), with runtime `arguments`, reusing `graph` when the request
  /// continues one (a `Provider` keeps the graph it was made in, and its reads may run at
  /// once: each sees what the graph had when it began, and gives it what it made once
  /// done; `nested` when the resolution runs inside the one building `graph`, on its
  /// thread, and shares all it has), in `requestScope` (which keeps the `.scoped`
  /// instances) when there is one. A request that backed off from a wait loop runs `body`
  /// again (see ``Backoff``).
  package static func with<Result>(
    _ container: DIContainer, requester: DIModuleID?, arguments: [Any]? = nil,
    graph: ObjectGraph? = nil, nested: Bool = false, requestScope: DIRequestScope? = nil,
    _ body: (inout DIResolutionContext) throws(DIError) -> Result
  ) throws(DIError) -> Result {
    while true {
      do throws(DIError) {
        return try once(
          container, requester: requester, arguments: arguments, graph: graph, nested: nested,
          requestScope: requestScope, body)
      } catch {
        try backOff(after: error)
      }
    }
  }

  @inline(__always)
  private static func once<Result>(
    _ container: DIContainer, requester: DIModuleID?, arguments: [Any]?,
    graph: ObjectGraph?, nested: Bool, requestScope: DIRequestScope?,
    _ body: (inout DIResolutionContext) throws(DIError) -> Result
  ) throws(DIError) -> Result {
    // `container` and `requestScope` are parameters: the caller keeps them alive.
    try RequestHandle.begin(container: container, arguments: arguments, requestScope: requestScope)
    { (handle) throws(DIError) -> Result in
      // A trapping form reaching the container through `tryResolve(arguments:)` left the
      // caller's place for the resolution it starts.
      let site = handle.request.borrow { $0.takePendingSite() }
      var context = DIResolutionContext(handle: handle, requester: requester, site: site)
      if let graph {
        context.handle.graph.enter(graph, reading: !nested, in: context.handle.request)
      }
      let result = try body(&context)
      try context.finish()
      return result
    }
  }

  /// The container asked.
  package var container: DIContainer { handle.container }

  /// The request this resolution belongs to.
  var request: ResolutionRequest { handle.request.object }

  typealias Frame = ResolutionRequest.Frame

  /// The registrations this resolution reads.
  var snapshot: Snapshot { handle.snapshot }

  /// The request scope of this request, if it runs in one.
  package var requestScope: DIRequestScope? { handle.requestScope?.object }

  /// The object graph of this request, if it has one.
  package var graph: ObjectGraph? { handle.graph.object }

  /// The runtime arguments of the request.
  package var arguments: [Any]? { handle.arguments }

  /// The object graph of this request, made on first need: it takes the `.objectGraph`
  /// instances made so far from the thread's request.
  package mutating func sharedGraph() -> ObjectGraph {
    handle.graph.shared(in: handle.request)
  }
}
