/// Building an instance: its factory (synchronous, or the one an asynchronous request
/// made), its frame in the request, and its injections.
extension DIResolutionContext {
  /// Makes a new instance of the caching `component`, and says whether it is complete:
  /// not when this resolution still has postponed work, which may be about it (its
  /// lifetime keeps it only once that work is done, so no other request sees it before).
  mutating func buildCached(
    _ component: Component, publish: (Any) -> Void
  ) throws(DIError) -> (Any, complete: Bool) {
    let value = try build(component, as: .cached, publish: publish)
    let pending = handle.graph.hasPending(in: handle.request)
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
  mutating func make(
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
  mutating func construct(
    _ component: Component, as kind: ResolutionRequest.Frame.Kind, publish: (Any) -> Void,
    make: (inout DIResolutionContext) throws(DIError) -> MadeInstance
  ) throws(DIError) -> MadeInstance {
    let outerRequester = try begin(component, as: kind)
    defer { end(restoring: outerRequester) }
    let made = try make(&self)
    if component.needsInjection {
      try injectPublished(component, made: made, as: kind, publish: publish)
    }
    return made
  }

  /// Records that `component` is under construction (as `kind`) and makes it the
  /// requester; returns the requester before. Throws when the thread's stack has too
  /// little room left for it. Out of ``construct(_:as:publish:make:)``, as is
  /// ``end(restoring:)``: a debug build, which inlines neither, then keeps less on the
  /// stack at each level of a deep graph.
  @inline(__always)
  private mutating func begin(
    _ component: Component, as kind: ResolutionRequest.Frame.Kind
  ) throws(DIError) -> DIModuleID? {
    let request = handle.request
    let frame = Frame(owner: Unretained(component), kind: kind)
    guard request.borrow({ $0.push(frame) }) else {
      throw DIError.tooDeep(request.borrow(\.depth))
    }
    if !kind.isNew { request.borrow { $0.state.reusableBuilds &+= 1 } }
    depth += 1
    defer { requester = component.framework }
    return requester
  }

  /// The innermost component is built (or failed): its frame goes, and `requester` is
  /// the requester again.
  @inline(__always)
  private mutating func end(restoring requester: DIModuleID?) {
    handle.request.borrow { $0.pop() }
    depth -= 1
    self.requester = requester
  }

  /// Publishes the instance `made` of `component` and runs its injections.
  @inline(__always)
  private mutating func injectPublished(
    _ component: Component, made: borrowing MadeInstance, as kind: ResolutionRequest.Frame.Kind,
    publish: (Any) -> Void
  ) throws(DIError) {
    let value = (copy made).erased()
    // Published only for what runs next: the injections may come back to it.
    publish(value)
    // A published instance's injections may wait for what is under construction.
    let frame = kind.isNew ? nil : handle.request.borrow { $0.depth - 1 }
    try inject(component, into: value, frame: frame)
  }

  /// Builds the async `component` with the instance its async factory made for this
  /// attempt, or throws the signal that an asynchronous request makes one (the error for
  /// a synchronous request, which cannot).
  @inline(never)
  mutating func buildAsync(
    _ component: Component, as kind: ResolutionRequest.Frame.Kind, publish: (Any) -> Void
  ) throws(DIError) -> Any {
    guard component.asyncFactory != nil else { throw DIError(.noInitializer) }
    guard let prepared = request.state.prepared?.take(component) else {
      // Runtime arguments go to the component asked for; arguments addressed by type to
      // the component they name, at any depth.
      var own = depth == 0 ? arguments : nil
      if own == nil { own = try addressedValues(for: component) }
      throw DIError(
        asyncNeed: AsyncNeed(
          component: component, container: container, requester: requester, arguments: own,
          requestScope: requestScope, addressed: addressedArguments, graph: graph))
    }
    // Its initializer took the first runtime arguments when it was made: its injections
    // take the next ones, as after a synchronous initializer.
    if depth == 0 { nextArgument += component.initializerArgumentCount }
    addressedArguments?.restart(
      ObjectIdentifier(component), at: component.initializerArgumentCount)
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
      var postponedBy = request.state.postponedBy
      if case .none = component.storage {
        postponedBy.append(
          .init(component: ObjectIdentifier(component), builds: request.state.reusableBuilds))
      }
      // Ends with `component`, under construction unless its instance came from outside
      // (`inject(into:)`).
      var path = request.postponementPath
      if request.innermostComponent !== component { path.append(component.identity) }
      sharedGraph().postpone(
        .init(
          owner: handle.graph.postponer(in: handle.request), instance: Instance(value: value),
          component: component, waiting: waiting,
          postponedBy: postponedBy, path: path))
    } else {
      try component.postInit?(value)
    }
  }
}
