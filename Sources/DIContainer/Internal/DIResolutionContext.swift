/// The state of one resolution: the snapshot it reads, the object graph, who is asking (for
/// modularity), the runtime arguments, and the request it belongs to (what is under
/// construction, see ``ResolutionRequest``).
///
/// Lives on the stack of the resolution (see ``with(_:requester:arguments:graph:requestScope:_:)``)
/// and is passed `inout` to every factory. A resolution allocates nothing of its own
/// unless its graph needs an ``ObjectGraph``.
@usableFromInline
package struct DIResolutionContext {
  /// The container asked. Every entry point holds a strong reference to it for the whole
  /// resolution (it is the receiver of `resolve`, or a local of a delayed value's or a
  /// scope's resolve), so the context does not count one more.
  unowned(unsafe) package let container: DIContainer
  /// The snapshot, kept alive for this resolution without reference counting.
  private let access: UnsafeSnapshotAccess
  /// The slots of the snapshot's lookup table, which the snapshot keeps alive.
  private let table: ServiceTable.Slots
  /// The request this resolution belongs to: the calling thread's, which the thread
  /// keeps alive.
  private let requestReference: Unmanaged<ResolutionRequest>
  /// The `.objectGraph` instances and postponed injections, once a `Lazy`, a `Provider`
  /// or postponed work needs an object for them; retained by the context and released
  /// when the resolution ends.
  private var graphReference: Unmanaged<ObjectGraph>?
  /// This resolution's graph, once it has `.objectGraph` instances or an object: until it
  /// has an object, the thread's request keeps its instances (``InlineGraphs``), from
  /// ``inlineGraphBase`` on.
  private var inlineGraph: GraphID?
  /// Where this resolution's graph's instances start in the request's ``InlineGraphs``.
  private let inlineGraphBase: Int
  /// The framework on whose behalf the current request is made.
  package var requester: DIModuleID?
  /// The request scope resolving, if any; its caller keeps it alive for the request.
  private var requestScopeReference: Unmanaged<DIRequestScope>?
  /// The runtime arguments for the component asked for; owned by the request's caller.
  private let argumentBuffer: UnsafeBufferPointer<Any>?
  var nextArgument = 0
  /// The request's open makings before this resolution: those after it are this
  /// resolution's to settle (see ``ResolutionRequest/settleOpenMakings(from:keep:)``).
  private let openMakingsMark: Int
  /// How many components this resolution is building, one inside the other: runtime
  /// arguments go to the outermost one.
  var depth = 0
  /// Where the user's code made this request, when a trapping form knows it: a `Lazy` or
  /// `Provider` made here names it when its value later fails.
  private(set) var site: CallSite?

  /// Resolves `T` as `requester` with no runtime arguments, in a new resolution: the
  /// common case of ``with(_:requester:arguments:graph:requestScope:_:)``, without its
  /// closure.
  package static func resolve<T>(
    _ type: T.Type, in container: DIContainer, requester: DIModuleID?, site: CallSite? = nil
  ) throws(DIError) -> T {
    try container.publishedObject { (found) throws(DIError) in
      try resolve(T.self, in: container, requester: requester, site: site, after: found)
    }
  }

  /// ``resolve(_:in:requester:site:)`` on a new context, after `found` looked `T` up.
  @inline(__always)
  static func resolve<T>(
    _ type: T.Type, in container: DIContainer, requester: DIModuleID?, site: CallSite?,
    after found: PriorLookUp
  ) throws(DIError) -> T {
    let request = found.request ?? ResolutionRequest.currentReference
    var context = DIResolutionContext(
      container: container, requester: requester, arguments: nil, site: site, request: request)
    defer { context.end() }
    let value: T
    // The component is alive, and the snapshot's, only while the thread's announcement
    // has not moved since the look-up.
    if let single = found.single, context.access.continuesAnnouncement {
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
  /// the generic path decides then.
  @inline(__always)
  static func madeInstance(
    requested type: Any.Type, in container: DIContainer, site: CallSite?,
    after found: inout PriorLookUp
  ) throws(DIError) -> MadeInstance? {
    guard let single = found.single else { return nil }
    let request = found.request ?? ResolutionRequest.currentReference
    var context = DIResolutionContext(
      container: container, requester: nil, arguments: nil, site: site, request: request)
    defer { context.end() }
    // The component is alive, and the snapshot's, only while the thread's announcement
    // has not moved since the look-up.
    guard context.access.continuesAnnouncement else {
      // This context announced the new snapshot, so the generic path's context will
      // continue that announcement, not the look-up's: the candidate, maybe freed by
      // now, must not reach it.
      found.single = nil
      return nil
    }
    return try context.finishedInstance(of: single, requested: type)
  }

  /// ``madeInstance(requested:in:site:after:)`` in `requestScope`, which keeps the
  /// `.scoped` instances; when `type` has no only candidate, nil once `otherwise`
  /// resolved it on this context.
  static func madeInstance(
    requested type: Any.Type, in container: DIContainer, requestScope: DIRequestScope,
    site: CallSite?, otherwise: (inout DIResolutionContext) throws(DIError) -> Void
  ) throws(DIError) -> MadeInstance? {
    var context = DIResolutionContext(
      container: container, requester: nil, arguments: nil, site: site)
    context.requestScopeReference = .passUnretained(requestScope)
    defer { context.end() }
    guard let index = context.table.index(of: ServiceKey(type)),
      let single = context.table.single(at: index)
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
    of single: Unmanaged<Component>, requested type: Any.Type
  ) throws(DIError) -> MadeInstance {
    let made = try single.borrowing { (component) throws(DIError) in
      try madeInstance(of: component, requested: type)
    }
    try finish()
    return made
  }

  @inline(__always)
  private init(
    container: DIContainer, requester: DIModuleID?, arguments: UnsafeBufferPointer<Any>?,
    site: CallSite?,
    request requestReference: Unmanaged<ResolutionRequest> = ResolutionRequest.currentReference
  ) {
    self.container = container
    self.requestReference = requestReference
    let (access, openMakingsMark, inlineGraphBase) = requestReference._withUnsafeGuaranteedRef {
      request in
      let access = UnsafeSnapshotAccess.begin(container, for: request)
      request.contexts += 1
      return (access, request.openMakingsMark, request.inlineGraphs.base)
    }
    self.access = access
    self.openMakingsMark = openMakingsMark
    self.inlineGraphBase = inlineGraphBase
    self.site = site
    table = access.withSnapshot { $0.table.slots }
    self.requester = requester
    self.argumentBuffer = arguments
  }

  /// Runs one resolution of `container` on a new context: as `requester` (nil: from
  /// outside every framework), with runtime `arguments`, reusing `graph` when the request
  /// continues one (a `Provider` keeps the graph it was made in), in `requestScope` (which
  /// keeps the `.scoped` instances) when there is one.
  package static func with<Result>(
    _ container: DIContainer, requester: DIModuleID?, arguments: [Any]? = nil,
    graph: ObjectGraph? = nil, requestScope: DIRequestScope? = nil,
    _ body: (inout DIResolutionContext) throws(DIError) -> Result
  ) throws(DIError) -> Result {
    guard let arguments else {
      return try run(
        container, requester: requester, arguments: nil, graph: graph,
        requestScope: requestScope, body)
    }
    return try arguments.withUnsafeBufferPointer { (buffer) throws(DIError) -> Result in
      try run(
        container, requester: requester, arguments: buffer, graph: graph,
        requestScope: requestScope, body)
    }
  }

  private static func run<Result>(
    _ container: DIContainer, requester: DIModuleID?, arguments: UnsafeBufferPointer<Any>?,
    graph: ObjectGraph?, requestScope: DIRequestScope?,
    _ body: (inout DIResolutionContext) throws(DIError) -> Result
  ) throws(DIError) -> Result {
    var context = DIResolutionContext(
      container: container, requester: requester, arguments: arguments, site: nil)
    // A trapping form reaching the container through `tryResolve(arguments:)` left the
    // caller's place for the resolution it starts.
    context.site = context.request.takePendingSite()
    context.requestScopeReference = requestScope.map { Unmanaged.passUnretained($0) }
    if let graph {
      graph.enter()
      context.graph = graph
    }
    defer { context.end() }
    // `container` and `requestScope` are parameters: the caller keeps them alive.
    let result = try body(&context)
    try context.finish()
    return result
  }

  /// Ends the resolution, however it ended.
  private mutating func end() {
    let mark = openMakingsMark
    requestReference._withUnsafeGuaranteedRef { request in
      // Still open only when the resolution failed before its postponed work was done.
      request.settleOpenMakings(from: mark, keep: false)
      request.contexts -= 1
      access.end()
    }
    endGraph()
  }

  /// The request this resolution belongs to.
  var request: ResolutionRequest { requestReference.takeUnretainedValue() }

  typealias Frame = ResolutionRequest.Frame

  /// The registrations this resolution reads.
  var snapshot: Snapshot { access.snapshot }

  /// The request scope of this request, if it runs in one.
  package var requestScope: DIRequestScope? {
    requestScopeReference?.takeUnretainedValue()
  }

  /// The object graph of this request, if it has one.
  package var graph: ObjectGraph? {
    get { graphReference?.takeUnretainedValue() }
    set {
      if let newValue { _ = Unmanaged.passRetained(newValue) }
      graphReference?.release()
      graphReference = newValue.map { Unmanaged.passUnretained($0) }
    }
  }

  /// Ends this request's use of its graph, however the request ended: a graph that a
  /// `Lazy` or `Provider` keeps may hold its objects weakly now; one nobody else holds
  /// just goes.
  @inline(__always)
  private mutating func endGraph() {
    // Most resolutions made no `.objectGraph` instance and no graph object.
    guard inlineGraph != nil || graphReference != nil else { return }
    endUsedGraph()
  }

  @inline(never)
  private mutating func endUsedGraph() {
    if let inlineGraph {
      // Each instance is released after the access that removed it: a deinitializer that
      // resolves uses the request's inline graphs.
      let base = inlineGraphBase
      let request = requestReference
      while request._withUnsafeGuaranteedRef({ $0.inlineGraphs.count(from: base) }) > 0 {
        _ = request._withUnsafeGuaranteedRef { $0.inlineGraphs.removeLast() }
      }
      _ = request._withUnsafeGuaranteedRef { $0.inlineGraphs.forgetObject(of: inlineGraph) }
    }
    guard let reference = graphReference else { return }
    graphReference = nil
    var graph = reference.takeRetainedValue()
    if !isKnownUniquelyReferenced(&graph) { graph.leave() }
  }

  /// The runtime arguments of the request.
  package var arguments: [Any]? { argumentBuffer.map(Array.init) }

  /// The object graph of this request, made on first need: it takes the `.objectGraph`
  /// instances made so far from the thread's request.
  package mutating func sharedGraph() -> ObjectGraph {
    if let graphReference { return graphReference.takeUnretainedValue() }
    let id = graphID()
    let base = inlineGraphBase
    let graph = requestReference._withUnsafeGuaranteedRef {
      $0.inlineGraphs.materialize(id, from: base)
    }
    self.graph = graph
    return graph
  }

  /// The identity of this resolution's graph, given now if it had none.
  private mutating func graphID() -> GraphID {
    if let graphReference { return graphReference._withUnsafeGuaranteedRef(\.id) }
    if let inlineGraph { return inlineGraph }
    let id = GraphID.next()
    inlineGraph = id
    return id
  }

  // MARK: - Requests

  /// Resolves a parameter of type `T`: a service, or a modifier such as `Optional`,
  /// `DIMany` or `Lazy`.
  @usableFromInline
  package mutating func value<T>(_ type: T.Type, tag: Any.Type?) throws(DIError) -> T {
    let key = ServiceKey(T.self, tag: tag)
    guard let index = table.index(of: key) else { return try unregisteredValue(T.self, tag: tag) }
    guard let single = table.single(at: index) else {
      return try chosenValue(T.self, tag: tag, at: index)
    }
    // Borrowed, not retained: the snapshot keeps it, and every thread building it would
    // count references on the same object. `instance(_:of:)` reads a cached instance.
    return try single.borrowing { (component) throws(DIError) in
      try instance(T.self, of: component)
    }
  }

  /// A parameter of type `T` that several components provide: the one the candidate
  /// rules choose.
  @inline(never)
  private mutating func chosenValue<T>(_ type: T.Type, tag: Any.Type?, at index: Int)
    throws(DIError) -> T
  {
    try instance(T.self, of: try choose(table.entry(at: index), for: T.self, tag: tag))
  }

  /// A parameter of type `T` that no component provides: a modifier, or an error.
  @inline(never)
  private mutating func unregisteredValue<T>(_ type: T.Type, tag: Any.Type?) throws(DIError)
    -> T
  {
    try checkNotShutDown(T.self)
    if let parent = snapshot.parent,
      let entry = parent.snapshot.lookUp(ServiceKey(T.self, tag: tag))
    {
      return try instance(T.self, of: try choose(entry, for: T.self, tag: tag))
    }
    if let modifier = DIRequest.modifier(T.self) {
      return try resolve(modifier, as: T.self, tag: tag)
    }
    throw notRegistered(T.self, tag: tag)
  }

  /// Throws when the container was shut down: a request for `T` finds nothing then, and
  /// says why.
  @inline(__always)
  func checkNotShutDown<T>(_ type: T.Type) throws(DIError) {
    guard snapshot.isShutDown else { return }
    throw DIError(.containerShutDown, requestedName: String(describing: T.self))
  }

  /// The error for a request of `T` under `tag` that no component provides, with what the
  /// container knows that would fix it.
  @inline(never)
  func notRegistered<T>(_ type: T.Type, tag: Any.Type?) -> DIError {
    NotRegisteredHints.error(T.self, tag: tag, snapshot: snapshot)
  }

  /// Resolves `Wrapped`, or nil when no candidate or no single candidate provides it, when
  /// the chosen component has no initializer, or when it needs runtime arguments that
  /// were not passed. A failure further down the chosen component's graph is still an
  /// error. The nil path builds no error.
  package mutating func optionalValue<Wrapped>(
    _ type: Wrapped.Type, tag: Any.Type?
  ) throws(DIError) -> Wrapped? {
    let key = ServiceKey(Wrapped.self, tag: tag)
    if let entry = table[key] {
      return try optionalInstance(Wrapped.self, of: entry)
    }
    if let parent = snapshot.parent, let entry = parent.snapshot.lookUp(key) {
      return try optionalInstance(Wrapped.self, of: entry)
    }
    try checkNotShutDown(Wrapped.self)
    guard let modifier = DIRequest.modifier(Wrapped.self) else { return nil }
    do throws(DIError) {
      return try resolve(modifier, as: Wrapped.self, tag: tag)
    } catch {
      // Only the request itself may come out empty: `Optional<DIByTag<Tag, T>>` with no
      // tagged candidate. A failure below a chosen component has a longer path.
      guard error.path.count == 1, error.reason.isNoUniqueCandidate else { throw error }
      return nil
    }
  }

  /// The instance of the component chosen among `entry`'s candidates, or nil
  /// when none is chosen or the chosen one cannot make one for this request.
  private mutating func optionalInstance<Wrapped>(
    _ type: Wrapped.Type, of entry: ServiceEntry
  ) throws(DIError) -> Wrapped? {
    let chosen: Component?
    switch entry {
    case .single(let component): chosen = component
    case .multiple(let candidates):
      chosen = snapshot.choose(
        among: candidates, requester: requester, arguments: runtimeArguments)
    }
    guard let component = chosen, component.canMake,
      !component.requiresArguments || (depth == 0 && argumentBuffer != nil)
    else { return nil }
    if depth == 0, argumentBuffer != nil { try checkArguments(of: component) }
    return try instance(Wrapped.self, of: component)
  }

  /// Every instance of `T` (under `tag`), in registration order; only those of the
  /// requester's framework when `inFramework`. Components under construction in this
  /// request are left out: a `MainLogger(loggers: many($0))` registered as a `Logger`
  /// gets the other loggers.
  package mutating func all<T>(
    _ type: T.Type, tag: Any.Type?, inFramework: Bool
  ) throws(DIError) -> [T] {
    let key = ServiceKey(T.self, tag: tag)
    guard let components = snapshot.collection(key) else {
      try checkNotShutDown(T.self)
      // `Lazy`/`Provider`/`Optional` elements are never registered: they stand for the
      // components of their service.
      guard let element = T.self as? any ManyElement.Type else { return [] }
      return try Self.all(element, as: T.self, in: &self, tag: tag, inFramework: inFramework)
    }
    if depth == 0, argumentBuffer != nil {
      for component in components { try checkArguments(of: component) }
    }
    var values: [T] = []
    values.reserveCapacity(components.count)
    for component in components where !inFramework || component.framework == requester {
      guard !request.isBuilding(component) else { continue }
      values.append(try instance(T.self, of: component))
    }
    return values
  }

  private static func all<Element: ManyElement, T>(
    _ element: Element.Type, as type: T.Type, in context: inout DIResolutionContext,
    tag: Any.Type?, inFramework: Bool
  ) throws(DIError) -> [T] {
    // `Element` is `T`, opened from `T.self as? any ManyElement.Type`.
    try Element.all(in: &context, tag: tag, inFramework: inFramework).compactMap { $0 as? T }
  }

  /// The next runtime argument, which must be a `T`.
  package mutating func nextArgument<T>(_ type: T.Type) throws(DIError) -> T {
    nextArgument += 1
    let position = nextArgument
    // The error's path ends at the component that needs the argument: its request adds
    // that step.
    guard depth <= 1, let arguments = argumentBuffer, position <= arguments.count else {
      throw DIError(
        .missingArgument(
          position: position, expected: String(describing: T.self), ofDependency: depth > 1))
    }
    let argument = arguments[position - 1]
    return try UnsafeExactCast.cast(argument, to: T.self) {
      DIError(
        .wrongArgument(
          position: position, expected: String(describing: T.self),
          actual: String(describing: Swift.type(of: argument))))
    }
  }

  private mutating func resolve<T>(
    _ modifier: any DIParameterModifier.Type, as type: T.Type, tag: Any.Type?
  ) throws(DIError) -> T {
    try Self.open(modifier, as: T.self, in: &self, tag: tag)
  }

  private static func open<M: DIParameterModifier, T>(
    _ modifier: M.Type, as type: T.Type, in context: inout DIResolutionContext, tag: Any.Type?
  ) throws(DIError) -> T {
    let value = try M.resolve(in: &context, tag: tag)
    // Only reached when `T` is the modifier type itself: the identity, with no dynamic
    // cast (an `Optional` request would pay one at every resolve).
    return try UnsafeExactCast.value(value, as: T.self) { () throws(DIError) -> T in
      value as! T
    }
  }

  static func name(of type: Any.Type, tag: Any.Type?) -> String {
    guard let tag else { return String(describing: type) }
    return "\(type) tagged \(TagSet.name(of: tag))"
  }

  // MARK: - Choosing a candidate

  /// The candidate that serves a request, by the rules of ``DIContainer``: a single
  /// `.test()` one, then the requester's framework, then the frameworks it imports, then
  /// the `.default()` one.
  func choose(
    _ entry: ServiceEntry, for type: Any.Type, tag: Any.Type?,
    arguments: RuntimeArguments? = nil
  ) throws(DIError) -> Component {
    switch entry {
    case .single(let component):
      return component
    case .multiple(let candidates):
      // Modularity by the imports this container knows (its own and its parents').
      if let chosen = snapshot.choose(
        among: candidates, requester: requester, arguments: arguments ?? runtimeArguments)
      {
        return chosen
      }
      var error = DIError(
        .ambiguous(candidates: candidates.all.map(\.summary)),
        requestedName: Self.name(of: type, tag: tag))
      error.requesterFramework = requester?.name
      throw error
    }
  }

  /// The types of the runtime arguments, when they go to the component chosen now (the
  /// one asked for): what the candidate rules match `arg` parameters against.
  var runtimeArguments: RuntimeArguments? {
    guard depth == 0, let arguments = argumentBuffer else { return nil }
    return .values(Array(arguments))
  }

  /// Resolves `T`, the service asked for with runtime arguments: like
  /// ``value(_:tag:)``, but the candidates are chosen by the arguments too, and arguments
  /// that no `arg` parameter of the chosen component takes are an error.
  package mutating func valueWithArguments<T>(_ type: T.Type, tag: Any.Type?) throws(DIError)
    -> T
  {
    guard depth == 0, argumentBuffer != nil,
      let entry = snapshot.lookUp(ServiceKey(T.self, tag: tag))
    else { return try value(T.self, tag: tag) }
    let component = try choose(entry, for: T.self, tag: tag)
    do throws(DIError) {
      try checkArguments(of: component)
    } catch {
      var error = error
      error.enter(String(describing: T.self), component: component.summary)
      throw error
    }
    return try instance(T.self, of: component)
  }

  /// Throws when the request carries more runtime arguments than `component`, the one
  /// asked for, takes.
  private func checkArguments(of component: Component) throws(DIError) {
    guard let arguments = argumentBuffer, arguments.count > component.argumentTypes.count
    else { return }
    throw DIError(
      .extraArguments(passed: arguments.count, taken: component.argumentTypes.count))
  }

  // MARK: - Instances

  /// The instance `component` provides, as a `T`; a failure records this step.
  ///
  /// Each path casts where it has its instance: one helper for the four casts measured
  /// far worse (Benchmarks/PROFILE.md, fifth stop).
  @inline(__always)
  mutating func instance<T>(_ type: T.Type, of component: Component) throws(DIError) -> T {
    if let cell = component.cell {
      let request = requestReference
      if let object = request._withUnsafeGuaranteedRef({ request in
        cell._withUnsafeGuaranteedRef { $0.publishedObject(for: request) }
      }) {
        return try Self.service(object, as: T.self, of: component)
      }
    }
    // A plain prototype skips the other lifetimes' checks, and its factory's object is
    // taken as it is.
    if component.isPlainPrototype {
      let made = try instance(of: component, requested: T.self) {
        (context, component) throws(DIError) in try context.prototypeInstance(of: component)
      }
      switch consume made {
      case .object(let object):
        return try Self.service(object, as: T.self, of: component)
      case .value(var value):
        return try UnsafeExactCast.cast(any: &value, to: T.self) {
          Self.notAService(T.self, component: component)
        }
      }
    }
    var value = try instance(of: component, requested: T.self) {
      (context, component) throws(DIError) in try context.instance(of: component)
    }
    return try UnsafeExactCast.cast(
      any: &value, to: T.self, serviceCast: { component.serviceCast(to: T.self) },
      else: { Self.notAService(T.self, component: component) })
  }

  /// `object`, which `component` made or keeps, as the `T` asked for: moved out when its
  /// class is `T`, else through what the component learned of casting into `T` (see
  /// ``ServiceCast``).
  @inline(__always)
  private static func service<T>(
    _ object: consuming AnyObject, as type: T.Type, of component: Component
  ) throws(DIError) -> T {
    try UnsafeExactCast.cast(
      object: object, to: T.self, serviceCast: { component.serviceCast(to: T.self) },
      else: { notAService(T.self, component: component) })
  }

  /// The instance `component` provides, as made, for a request of `requested` to cast;
  /// a failure records this step. ``instance(_:of:)`` with the cast left to the caller,
  /// where the requested type is known (the top-level request's inlined code). Not the
  /// body of ``instance(_:of:)`` too: casting a made instance there, in generic code,
  /// measured far worse (Benchmarks/PROFILE.md, fifth stop).
  @inline(__always)
  mutating func madeInstance(
    of component: Component, requested: Any.Type
  ) throws(DIError) -> MadeInstance {
    if let cell = component.cell {
      let request = requestReference
      if let object = request._withUnsafeGuaranteedRef({ request in
        cell._withUnsafeGuaranteedRef { $0.publishedObject(for: request) }
      }) {
        return .object(object)
      }
    }
    if component.isPlainPrototype {
      return try instance(of: component, requested: requested) {
        (context, component) throws(DIError) in try context.prototypeInstance(of: component)
      }
    }
    return .value(
      try instance(of: component, requested: requested) {
        (context, component) throws(DIError) in try context.instance(of: component)
      })
  }

  /// The instance `component`'s cell holds, if it has a cell and the cell an instance.
  @inline(__always)
  private static func cachedInstance(of component: Component) -> Any? {
    guard let cell = component.cell else { return nil }
    return cell._withUnsafeGuaranteedRef { $0.current?.value }
  }

  /// The instance `make` makes of `component`, recording the step for `requested` when
  /// it fails.
  @inline(__always)
  private mutating func instance<Made>(
    of component: Component, requested: Any.Type,
    _ make: (inout Self, Component) throws(DIError) -> Made
  ) throws(DIError) -> Made {
    do throws(DIError) {
      return try make(&self, component)
    } catch {
      var error = error
      error.enter(String(describing: requested), component: component.summary)
      throw error
    }
  }

  /// The error for an instance of `component` that is not a `T`, the service asked for.
  @inline(never)
  private static func notAService<T>(_ type: T.Type, component: Component) -> DIError {
    DIError(
      .notAService, requestedName: String(describing: T.self), component: component.summary)
  }

  /// The instance of `component`, from its lifetime's storage or new.
  mutating func instance(of component: Component) throws(DIError) -> Any {
    if let ready = Self.cachedInstance(of: component) { return ready }
    // One small function per storage: a debug build, which inlines none of them, recurses
    // through one only, so each level of a deep graph costs little stack; an optimized
    // build inlines them back.
    switch component.storage {
    case .none: return try prototypeInstance(of: component).erased()
    case .objectGraph: return try graphInstance(of: component)
    case .cell(let cell): return try cachedInstance(of: component, in: cell)
    case .multiton(let cells): return try multitonInstance(of: component, in: cells)
    case .scoped(let scope, let cell): return try scopedInstance(of: component, in: scope, cell)
    case .requestScoped: return try requestScopedInstance(of: component)
    }
  }

  @inline(__always)
  private mutating func prototypeInstance(
    of component: Component
  ) throws(DIError) -> MadeInstance {
    // Runtime arguments may differ from one request of it to the next (a recursion that
    // ends): not a loop to look for.
    guard !component.takesArguments else {
      return try make(component, as: .withArguments) { _ in }
    }
    let graph = graphReference?._withUnsafeGuaranteedRef(\.id) ?? inlineGraph
    if requestReference._withUnsafeGuaranteedRef({
      $0.endlessLoop(at: component, graph: graph)
    }) {
      throw DIError(.cycle)
    }
    return try make(component, as: .prototype) { _ in }
  }

  @inline(__always)
  private mutating func graphInstance(of component: Component) throws(DIError) -> Any {
    let id = ObjectIdentifier(component)
    let graphID = graphID()
    let base = inlineGraphBase
    let request = requestReference
    // A graph of many instances gets its object, which indexes them: a search of the
    // request's entries would grow with their number.
    if graphReference == nil,
      request._withUnsafeGuaranteedRef({ $0.inlineGraphs.count(from: base) })
        >= InlineGraphs.searchedCount
    {
      _ = sharedGraph()
    }
    let object = graphReference
    if let object {
      if let existing = object._withUnsafeGuaranteedRef({ $0.instance(of: component) }) {
        return existing
      }
    } else if let existing = request._withUnsafeGuaranteedRef({
      $0.inlineGraphs.instance(of: id, in: graphID, from: base)
    }) {
      return existing
    }
    if let frame = request._withUnsafeGuaranteedRef({ $0.frame(of: component, graph: graphID) }) {
      // Its initializer is running: an injection made after `frame` can wait for it.
      throw DIError.underConstruction(at: frame)
    }
    if request._withUnsafeGuaranteedRef({ $0.endlessLoop(at: component, graph: graphID) }) {
      throw DIError(.cycle)
    }
    // Kept by the graph's object, or by the request while there is none (which forwards
    // it to the object a `Lazy` or `Provider` made while the instance was built gave it).
    let store = { (value: Any) in
      if let object {
        object._withUnsafeGuaranteedRef { $0.store(value, for: id) }
      } else if let object = request._withUnsafeGuaranteedRef({
        $0.inlineGraphs.store(value, for: id, in: graphID)
      }) {
        object.store(value, for: id)
      }
    }
    let value = try build(component, as: .objectGraph(graphID), publish: store)
    if !component.needsInjection { store(value) }
    return value
  }

  @inline(__always)
  private mutating func cachedInstance(
    of component: Component, in cell: InstanceCell
  ) throws(DIError) -> Any {
    guard component.owner == ObjectIdentifier(container) else {
      return try ownersInstance(of: component)
    }
    return try cell.instance(for: request, hook: component.onClean) {
      publish throws(DIError) in try buildCached(component, publish: publish)
    }
  }

  @inline(__always)
  private mutating func multitonInstance(
    of component: Component, in cells: MultitonCells
  ) throws(DIError) -> Any {
    guard component.owner == ObjectIdentifier(container) else {
      return try ownersInstance(of: component)
    }
    return try cells.cell(for: try multitonKey()).instance(for: request, hook: component.onClean) {
      publish throws(DIError) in try buildCached(component, publish: publish)
    }
  }

  @inline(__always)
  private mutating func scopedInstance(
    of component: Component, in scope: DIScope, _ cell: ScopedCell
  ) throws(DIError) -> Any {
    guard component.owner == ObjectIdentifier(container) else {
      return try ownersInstance(of: component)
    }
    return try cell.instance(in: scope, hook: component.onClean, for: request) {
      publish throws(DIError) in try buildCached(component, publish: publish)
    }
  }

  @inline(__always)
  private mutating func requestScopedInstance(of component: Component) throws(DIError) -> Any {
    guard component.owner == ObjectIdentifier(container) else {
      return try ownersInstance(of: component)
    }
    guard let scope = requestScopeReference else {
      throw DIRequestScope.outsideScopeError(component)
    }
    let request = requestReference
    // One lock reads a class instance the scope keeps, or claims the making of one it
    // does not (the usual first request); anything else takes the create-once path.
    var claimed: UInt64?
    if let id = component.requestScopedID {
      let me = request._withUnsafeGuaranteedRef(\.identity)
      switch scope._withUnsafeGuaranteedRef({ $0.keptObjectOrClaim(for: id, by: me) }) {
      case .kept(let object): return object
      case .claimed(let token): claimed = token
      case .undecided: break
      }
    }
    // Borrowed: the caller holds the scope, the thread its request.
    return try scope.borrowing { (scope) throws(DIError) in
      try request.borrowing { (request) throws(DIError) in
        try scope.instance(of: component, for: request, claimed: claimed) {
          publish throws(DIError) in try buildCached(component, publish: publish)
        }
      }
    }
  }

  /// The cached instance of `component`, a parent container's: made by that container,
  /// from its own registrations, so a child's override never leaks into an instance the
  /// parent shares. The request (and its scope) continues there.
  @inline(never)
  private mutating func ownersInstance(of component: Component) throws(DIError) -> Any {
    guard let owner = snapshot.container(owning: component) else {
      preconditionFailure("\(component.summary) belongs to no level of this container")
    }
    // Runtime arguments go to the component asked for, which this is only at depth 0.
    // The same object graph: an `.objectGraph` instance is one per request at every level.
    return try Self.with(
      owner, requester: requester, arguments: depth == 0 ? arguments : nil,
      graph: sharedGraph(), requestScope: requestScope
    ) { (context) throws(DIError) -> Any in
      try context.instance(of: component)
    }
  }

  /// Makes a new instance of the caching `component`, and says whether it is complete:
  /// not when this resolution still has postponed work, which may be about it (its
  /// lifetime keeps it only once that work is done, so no other request sees it before).
  private mutating func buildCached(
    _ component: Component, publish: (Any) -> Void
  ) throws(DIError) -> (Any, complete: Bool) {
    let value = try build(component, as: .cached, publish: publish)
    let pending = graphReference?._withUnsafeGuaranteedRef { $0.hasPending } ?? false
    return (value, !pending)
  }

  /// Makes a new instance of `component` and runs its injections; `publish` receives it
  /// before the injections, so a cycle through them finds it (when there are none, it is
  /// not called).
  mutating func build(
    _ component: Component, as kind: ResolutionRequest.Frame.Kind, publish: (Any) -> Void
  ) throws(DIError) -> Any {
    try make(component, as: kind, publish: publish).erased()
  }

  /// ``build(_:as:publish:)``, with a class instance left as its object.
  @inline(__always)
  private mutating func make(
    _ component: Component, as kind: ResolutionRequest.Frame.Kind, publish: (Any) -> Void
  ) throws(DIError) -> MadeInstance {
    guard component.factory != nil else {
      return .value(try buildAsync(component, as: kind, publish: publish))
    }
    // Called in place, not copied out of the component (a copy would count a reference
    // on the closure's context, which every thread building this component shares).
    return try construct(component, as: kind, publish: publish) {
      (context) throws(DIError) -> MadeInstance in try component.factory!(&context)
    }
  }

  /// Builds `component` with the instance `make` returns: records it under construction
  /// (as `kind`), then runs its injections.
  @inline(__always)
  private mutating func construct(
    _ component: Component, as kind: ResolutionRequest.Frame.Kind, publish: (Any) -> Void,
    make: (inout DIResolutionContext) throws(DIError) -> MadeInstance
  ) throws(DIError) -> MadeInstance {
    let request = requestReference
    let frame = Frame(owner: .passUnretained(component), kind: kind)
    guard request._withUnsafeGuaranteedRef({ $0.push(frame) }) else {
      throw DIError.tooDeep(request._withUnsafeGuaranteedRef { $0.depth })
    }
    depth += 1
    let outerRequester = requester
    requester = component.framework
    defer {
      request._withUnsafeGuaranteedRef { $0.pop() }
      depth -= 1
      requester = outerRequester
    }
    if !kind.isNew { request._withUnsafeGuaranteedRef { $0.reusableBuilds &+= 1 } }
    let made = try make(&self)
    if component.needsInjection {
      let value = (copy made).erased()
      // Published only for what runs next: the injections may come back to it.
      publish(value)
      // A published instance's injections may wait for what is under construction.
      let frame = kind.isNew ? nil : request._withUnsafeGuaranteedRef { $0.depth - 1 }
      try inject(component, into: value, frame: frame)
    }
    return made
  }

  /// Builds the async `component` with the instance its async factory made for this
  /// attempt, or throws the signal that an asynchronous request makes one (the error for
  /// a synchronous request, which cannot).
  @inline(never)
  private mutating func buildAsync(
    _ component: Component, as kind: ResolutionRequest.Frame.Kind, publish: (Any) -> Void
  ) throws(DIError) -> Any {
    guard component.asyncFactory != nil else { throw DIError(.noInitializer) }
    guard let prepared = request.prepared?.take(component) else {
      throw DIError(
        asyncNeed: AsyncNeed(
          component: component, container: container, requester: requester,
          arguments: depth == 0 ? arguments : nil, requestScope: requestScope))
    }
    // Its initializer took the first runtime arguments when it was made: its injections
    // take the next ones, as after a synchronous initializer.
    if depth == 0 { nextArgument += component.initializerArgumentCount }
    return try construct(component, as: kind, publish: publish) { _ in .value(prepared) }.erased()
  }

  /// Runs the injections of `component` on `value`; postpones the cycle-breaking ones
  /// and `postInit` until the graph is built, and so the plain ones that need an
  /// `.objectGraph` instance whose initializer is running below `frame`, the frame of
  /// the published `value` (nil: `value` is not published, nothing can wait).
  mutating func inject(
    _ component: Component, into value: Any, frame: Int?
  ) throws(DIError) {
    var waiting: [Int] = []
    for (index, injection) in component.injections.enumerated() where !injection.isCycleBreak {
      do throws(DIError) {
        try injection.run(value, &self)
      } catch {
        guard let frame, let below = error.postponableBelow, below < frame else { throw error }
        waiting.append(index)
      }
    }
    if component.hasCycleBreaks || !waiting.isEmpty {
      var postponedBy = request.postponedBy
      if case .none = component.storage {
        postponedBy.append(
          .init(component: ObjectIdentifier(component), builds: request.reusableBuilds))
      }
      // Ends with `component`, under construction unless its instance came from outside
      // (`inject(into:)`).
      var path = request.postponementPath
      if request.innermostComponent !== component { path.append(component.identity) }
      sharedGraph().postpone(
        .init(
          instance: Instance(value: value), component: component, waiting: waiting,
          postponedBy: postponedBy, path: path))
    } else {
      try component.postInit?(value)
    }
  }

  /// Runs the postponed injections, including those their own resolutions postpone.
  @inline(__always)
  mutating func finish() throws(DIError) {
    // Only a graph object holds postponed injections: most resolutions have none.
    guard graphReference != nil else { return }
    try runPostponed()
  }

  @inline(never)
  private mutating func runPostponed() throws(DIError) {
    guard let graph = graphReference?.takeUnretainedValue() else { return }
    let request = request
    let outerPostponedBy = request.postponedBy
    let outerWork = request.postponedWork
    defer {
      request.postponedBy = outerPostponedBy
      request.postponedWork = outerWork
    }
    while let pending = graph.takePending() {
      let component = pending.component
      let outerRequester = requester
      requester = component.framework
      request.postponedBy = pending.postponedBy
      request.postponedWork = (pending.path, request.depth)
      defer { requester = outerRequester }
      // A `.prototype` component postponing for itself again, with nothing reusable built
      // since, would never end.
      if case .none = component.storage, let last = pending.postponedBy.last,
        pending.postponedBy.dropLast().contains(last)
      {
        throw DIError.endlessPostponement(path: pending.path)
      }
      do throws(DIError) {
        for index in pending.waiting {
          try component.injections[index].run(pending.instance.value, &self)
        }
        for injection in component.injections where injection.isCycleBreak {
          try injection.run(pending.instance.value, &self)
        }
        try component.postInit?(pending.instance.value)
      } catch {
        // Named by the path from what was asked to the instance the work is about.
        throw DIError.postponed(error, path: pending.path)
      }
    }
    // The postponed work is done: the cached instances it was about are complete.
    request.settleOpenMakings(from: openMakingsMark, keep: true)
  }
}
