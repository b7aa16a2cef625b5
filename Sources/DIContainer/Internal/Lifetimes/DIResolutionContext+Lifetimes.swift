/// The lifetimes' storage: where an instance of each lifetime is found or kept, and the one
/// dispatch from a component to its storage.
extension DIResolutionContext {
  /// The instance `component` provides, as a `T`; a failure records this step.
  ///
  /// Each path casts where it has its instance: one helper for the four casts measured
  /// far worse (Benchmarks/PROFILE.md, "A lock word, stored objects moved out of their
  /// `Any`").
  @inline(__always)
  mutating func instance<T>(_ type: T.Type, of component: Component) throws(DIError) -> T {
    if let cell = component.cell, let object = publishedObject(in: cell) {
      return try Self.service(object, as: T.self, of: component)
    }
    // A plain prototype skips the other lifetimes' checks, and its factory's object is
    // taken as it is.
    if component.isPlainPrototype { return try plainPrototypeInstance(T.self, of: component) }
    return try storedInstance(T.self, of: component)
  }

  /// ``instance(_:of:)`` of a plain prototype. Each path of ``instance(_:of:)`` is a
  /// function of its own: a debug build, which inlines none of them, then keeps only one
  /// path's values on the stack at each level of a deep graph.
  @inline(__always)
  mutating func plainPrototypeInstance<T>(_ type: T.Type, of component: Component)
    throws(DIError) -> T
  {
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

  /// ``instance(_:of:)`` of any other component: from its lifetime's storage, or new.
  @inline(__always)
  mutating func storedInstance<T>(_ type: T.Type, of component: Component) throws(DIError) -> T {
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
  static func service<T>(
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
  /// measured far worse (Benchmarks/PROFILE.md, "A lock word, stored objects moved out of
  /// their `Any`").
  @inline(__always)
  mutating func madeInstance(
    of component: Component, requested: Any.Type
  ) throws(DIError) -> MadeInstance {
    if let cell = component.cell, let object = publishedObject(in: cell) {
      return .object(object)
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
  static func cachedInstance(of component: Component) -> Any? {
    guard let cell = component.cell else { return nil }
    return cell.borrow { $0.current?.value }
  }

  /// The instance `make` makes of `component`, recording the step for `requested` when
  /// it fails.
  @inline(__always)
  mutating func instance<Made>(
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
  static func notAService<T>(_ type: T.Type, component: Component) -> DIError {
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
  mutating func prototypeInstance(
    of component: Component
  ) throws(DIError) -> MadeInstance {
    // Runtime arguments may differ from one request of it to the next (a recursion that
    // ends): not a loop to look for.
    guard !component.takesArguments else {
      return try make(component, as: .withArguments) { _ in }
    }
    let graph = handle.graph.existingID
    if handle.request.borrow({ $0.endlessLoop(at: component, graph: graph) }) {
      throw DIError(.cycle)
    }
    return try make(component, as: .prototype) { _ in }
  }

  @inline(__always)
  mutating func graphInstance(of component: Component) throws(DIError) -> Any {
    let id = ObjectIdentifier(component)
    let graphID = handle.graph.id()
    let base = handle.graph.base
    let request = handle.request
    // A graph of many instances gets its object, which indexes them: a search of the
    // request's entries would grow with their number.
    if !handle.graph.hasObject,
      request.borrow({ $0.state.withInlineGraphs { $0.count(from: base) } })
        >= InlineGraphs.searchedCount
    {
      _ = sharedGraph()
    }
    if let object = handle.graph.object {
      return try graphInstance(of: component, in: object)
    }
    if let existing = request.borrow({
      $0.state.withInlineGraphs { $0.instance(of: id, in: graphID, from: base) }
    }) {
      return existing
    }
    try checkNotUnderConstruction(component, graph: graphID)
    // Kept by the request while the graph has no object (which forwards it to the object
    // a `Lazy` or `Provider` made while the instance was built gave it).
    let store = { (value: Any) in
      if let object = request.borrow({
        $0.state.withInlineGraphs { $0.store(value, for: id, in: graphID) }
      }) {
        object.store(value, for: id)
      }
    }
    let value = try build(component, as: .objectGraph(graphID), publish: store)
    if !component.needsInjection { store(value) }
    return value
  }

  /// ``graphInstance(of:)`` in a graph that has its object, `object`: kept by the object,
  /// unless this resolution reads a delayed value's graph.
  @inline(never)
  mutating func graphInstance(
    of component: Component, in object: ObjectGraph
  ) throws(DIError) -> Any {
    if let seen = handle.graph.reading(in: handle.request).seen {
      return try readGraphInstance(of: component, seen: seen)
    }
    if let existing = object.instance(of: component) { return existing }
    let id = ObjectIdentifier(component)
    try checkNotUnderConstruction(component, graph: object.id)
    let store = { (value: Any) in object.store(value, for: id) }
    let value = try build(component, as: .objectGraph(object.id), publish: store)
    if !component.needsInjection { store(value) }
    return value
  }

  /// ``graphInstance(of:)`` in a read of a delayed value's graph (see
  /// ``RequestGraph/Reading``): what the read made, or what the read it is part of made;
  /// otherwise what the graph had when the read began; otherwise a new instance, kept by
  /// the thread's request until the read gives the graph what it made.
  @inline(never)
  mutating func readGraphInstance(
    of component: Component, seen: ObjectGraph.Generation
  ) throws(DIError) -> Any {
    let id = ObjectIdentifier(component)
    let graphID = handle.graph.id()
    let request = handle.request
    if let existing = request.borrow({
      $0.state.withInlineGraphs { $0.instance(of: id, in: graphID, from: 0) }
    }) {
      return existing
    }
    if let existing = handle.graph.object?.instance(of: component, seen: seen) {
      return existing
    }
    try checkNotUnderConstruction(component, graph: graphID)
    let store = { (value: Any) in
      request.borrow { $0.state.withInlineGraphs { $0.record(value, for: id, in: graphID) } }
    }
    let value = try build(component, as: .objectGraph(graphID), publish: store)
    if !component.needsInjection { store(value) }
    return value
  }

  /// Fails when `component`'s instance in `graph` is being built by this request: its
  /// initializer is running (an injection made after its frame can wait for it), or it is
  /// asked for again with nothing reusable built since (a loop that would never end).
  @inline(__always)
  func checkNotUnderConstruction(_ component: Component, graph: GraphID) throws(DIError) {
    if let frame = handle.request.borrow({ $0.frame(of: component, graph: graph) }) {
      throw DIError.underConstruction(at: frame)
    }
    if handle.request.borrow({ $0.endlessLoop(at: component, graph: graph) }) {
      throw DIError(.cycle)
    }
  }

  @inline(__always)
  mutating func cachedInstance(
    of component: Component, in cell: InstanceCell
  ) throws(DIError) -> Any {
    guard component.owner == handle.containerID else {
      return try ownersInstance(of: component)
    }
    return try cell.instance(for: request, hook: component.onClean) {
      publish throws(DIError) in try buildCached(component, publish: publish)
    }
  }

  @inline(__always)
  mutating func multitonInstance(
    of component: Component, in cells: MultitonCells
  ) throws(DIError) -> Any {
    guard component.owner == handle.containerID else {
      return try ownersInstance(of: component)
    }
    return try cells.cell(for: try multitonKey(of: component)).instance(
      for: request, hook: component.onClean
    ) {
      publish throws(DIError) in try buildCached(component, publish: publish)
    }
  }

  @inline(__always)
  mutating func scopedInstance(
    of component: Component, in scope: DIScope, _ cell: ScopedCell
  ) throws(DIError) -> Any {
    guard component.owner == handle.containerID else {
      return try ownersInstance(of: component)
    }
    return try cell.instance(
      in: scope, hook: component.onClean, for: request, retired: snapshot.isShutDown
    ) {
      publish throws(DIError) in try buildCached(component, publish: publish)
    }
  }

  @inline(__always)
  mutating func requestScopedInstance(of component: Component) throws(DIError) -> Any {
    guard component.owner == handle.containerID else {
      return try ownersInstance(of: component)
    }
    guard let scope = handle.requestScope else {
      throw DIRequestScope.outsideScopeError(component)
    }
    let request = handle.request
    // One lock reads a class instance the scope keeps, or claims the making of one it
    // does not (the usual first request); anything else takes the create-once path.
    var claimed: UInt64?
    if let id = component.requestScopedID {
      let me = request.identity
      switch scope.borrow({ $0.keptObjectOrClaim(for: id, by: me) }) {
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
  mutating func ownersInstance(of component: Component) throws(DIError) -> Any {
    guard let owner = snapshot.container(owning: component) else {
      preconditionFailure("\(component.summary) belongs to no level of this container")
    }
    // Runtime arguments go to the component asked for, which this is only at depth 0.
    // The same object graph: an `.objectGraph` instance is one per request at every level.
    return try Self.with(
      owner, requester: requester, arguments: depth == 0 ? arguments : nil,
      graph: sharedGraph(), nested: true, requestScope: requestScope
    ) { (context) throws(DIError) -> Any in
      try context.instance(of: component)
    }
  }

  /// The object `cell` keeps strongly, read without its lock, if it has one.
  @inline(__always)
  func publishedObject(in cell: Unretained<InstanceCell>) -> AnyObject? {
    handle.request.borrow { request in cell.borrow { $0.publishedObject(for: request) } }
  }
}
