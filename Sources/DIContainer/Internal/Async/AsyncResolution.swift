import Synchronization

/// What an async factory resolves its parameters through: the container that makes the
/// component, on behalf of the component's framework, in the request scope of the request.
struct AsyncParameters: Sendable {
  let container: DIContainer
  let requester: DIModuleID?
  let requestScope: DIRequestScope?
  /// The runtime arguments of the request, when the component is the one asked for: its
  /// initializer's `arg` parameters take them, then its injections' (an `[Any]`).
  var arguments: Instance? = nil
  /// The request's runtime arguments addressed by type (``DIArgument``), for the
  /// components the making's resolutions build.
  var addressed: AddressedArguments? = nil
  /// How many of `arguments` the making has taken so far.
  private let taken = ArgumentCursor()

  /// Resolves a parameter of type `T` (a service, or a modifier such as `Optional`); a
  /// runtime argument (`DIArg`) takes the request's next one.
  func value<T>(_ type: T.Type) async throws(DIError) -> T {
    let root = AsyncPlan.Root.service(DIRequest(for: T.self))
    guard T.self is any RuntimeArgumentParameter.Type else {
      return try await resolving(planning: root) { (context) throws(DIError) -> T in
        try context.value(T.self, tag: nil)
      }
    }
    return try await resolvingWithArguments(planning: root) { (context) throws(DIError) -> T in
      try context.value(T.self, tag: nil)
    }
  }

  /// Runs the synchronous `body` as a request of its own, making the async components
  /// that `root` needs first, and those it meets (see
  /// ``DIContainer/resolvingAsync(requester:arguments:requestScope:addressed:graph:root:resuming:_:)``).
  func resolving<Value>(
    planning root: AsyncPlan.Root?,
    _ body: (inout DIResolutionContext) throws(DIError) -> Value
  ) async throws(DIError) -> Value {
    try await container.resolvingAsync(
      requester: requester, arguments: nil, requestScope: requestScope, addressed: addressed,
      root: root, body)
  }

  /// Runs `body` like ``resolving(_:)``, with the request's runtime arguments from the
  /// first one the making has not taken yet, and counts those it takes.
  func resolvingWithArguments<Value>(
    planning root: AsyncPlan.Root?,
    _ body: (inout DIResolutionContext) throws(DIError) -> Value
  ) async throws(DIError) -> Value {
    let first = taken.count
    var next = first
    let value = try await container.resolvingAsync(
      requester: requester, arguments: arguments?.value as? [Any], requestScope: requestScope,
      addressed: addressed, root: root
    ) { (context) throws(DIError) -> Value in
      // Every attempt starts after the same arguments: one that meets an async component
      // runs again.
      context.nextArgument = first
      defer { next = context.nextArgument }
      return try body(&context)
    }
    taken.count = next
    return value
  }

  /// The async form of a synchronous `factory`, for a component whose injections or
  /// `postInit` must be awaited: the factory runs in a request of its own, which makes
  /// first the async components its `parameters` need.
  static func making(with factory: @escaping Factory, parameters requests: [DIRequest])
    -> AsyncFactory
  {
    { (parameters) async throws(DIError) -> Any in
      try await parameters.resolvingWithArguments(planning: .requests(requests)) {
        (context) throws(DIError) -> Any in
        // One level down, as inside a synchronous request: the initializer's `arg`
        // parameters take the request's arguments, its dependencies none.
        context.depth += 1
        defer { context.depth -= 1 }
        return try factory(&context).erased()
      }
    }
  }
}

/// How many runtime arguments one async making has given out: its initializer's `arg`
/// parameters take the first ones, its injections' the next ones. The making's steps run
/// one after the other, on one task.
final class ArgumentCursor: Sendable {
  private let taken = Atomic<Int>(0)

  var count: Int {
    get { taken.load(ordering: .relaxed) }
    set { taken.store(newValue, ordering: .relaxed) }
  }
}

extension DIContainer {
  /// Runs the synchronous resolution `attempt` for an asynchronous request: first the
  /// request makes, awaiting their factories, the async components the graph of `root`
  /// needs (``AsyncPlan``); then `attempt` builds the graph once, with them.
  ///
  /// An async component the plan could not see (one a factory resolves from inside its
  /// body, or one cleaned since) stops the pass: the request makes it and runs the pass
  /// again, whose synchronous factories then run again. With no `root`, every async
  /// component is met that way. `addressed`: the request's runtime arguments addressed by
  /// type, installed for every pass. `graph`: the object graph of an async delayed value,
  /// which every pass continues (its `.objectGraph` instances are those of the resolution
  /// that made the value); else each pass has its own.
  func resolvingAsync<Value>(
    requester: DIModuleID?, arguments: [Any]?, requestScope: DIRequestScope?,
    addressed: AddressedArguments? = nil, graph: ObjectGraph? = nil,
    root: AsyncPlan.Root? = nil, resuming first: AsyncResumption? = nil,
    _ attempt: (inout DIResolutionContext) throws(DIError) -> Value
  ) async throws(DIError) -> Value {
    // Made once the request has something to make: a graph with none costs one pass.
    var asyncRequest: AsyncRequest?
    var prepared: PreparedInstances?
    /// Makes `makings` for the request's passes.
    func make(_ makings: [AsyncResumption]) async throws(DIError) {
      let request = asyncRequest ?? AsyncRequest()
      let instances = prepared ?? PreparedInstances()
      asyncRequest = request
      prepared = instances
      try await Self.make(makings, into: instances, for: request)
    }
    if first == nil, let root {
      let planned = AsyncPlan.needs(
        for: root, in: self, requester: requester, arguments: arguments,
        requestScope: requestScope, addressed: addressed, graph: graph)
      if !planned.isEmpty { try await make(planned) }
    }
    // What the caller's first pass met (see `AsyncResumption`).
    var resumed = first
    while true {
      let resumption: AsyncResumption
      if let first = resumed.take() {
        resumption = first
      } else {
        do throws(DIError) {
          return try Self.attempt(with: prepared, addressed: addressed) {
            () throws(DIError) -> Value in
            try DIResolutionContext.with(
              self, requester: requester, arguments: arguments, graph: graph,
              requestScope: requestScope, attempt)
          }
        } catch {
          resumption = try AsyncResumption(after: error)
        }
      }
      try await make([resumption])
    }
  }

  /// Makes each of `makings` into `prepared`, for `request`, in order; an error names
  /// the path that led to the failed making.
  private static func make(
    _ makings: [AsyncResumption], into prepared: PreparedInstances, for request: AsyncRequest
  ) async throws(DIError) {
    // The request's tasks, and the factories it awaits, know it (`withValue` is untyped).
    let made = await AsyncRequest.$current.withValue(request) {
      () async -> Swift.Result<Void, DIError> in
      for making in makings {
        do throws(DIError) {
          try await Self.make(
            making.need, requested: making.requested, into: prepared, for: request)
        } catch {
          var error = error
          for step in making.leadingTo.reversed() {
            error.enter(step.requested, component: step.component)
          }
          return .failure(error)
        }
      }
      return .success(())
    }
    try made.get()
  }

  /// Runs `body` on the calling thread with `prepared` as its attempt's instances (none
  /// made yet: nil), and `addressed` installed when there are some.
  private static func attempt<Value>(
    with prepared: PreparedInstances?, addressed: AddressedArguments? = nil,
    _ body: () throws(DIError) -> Value
  ) throws(DIError) -> Value {
    if let addressed {
      return try AddressedArguments.installing(addressed) { () throws(DIError) -> Value in
        try attempt(with: prepared, body)
      }
    }
    guard let prepared else { return try body() }
    let request = ResolutionRequest.current
    let outer = request.state.prepared
    prepared.rewind()
    request.state.prepared = prepared
    defer { request.state.prepared = outer }
    return try body()
  }

  /// Makes the async component of `need`, asked for as `requested`, for `request`, into
  /// `prepared`; one of a caching lifetime is kept by its lifetime before other requests
  /// waiting for it look again.
  private static func make(
    _ need: AsyncNeed, requested: String, into prepared: PreparedInstances,
    for request: AsyncRequest
  ) async throws(DIError) {
    let component = need.component
    if let loop = request.begin(component) {
      var error = DIError(.cycle)
      for step in loop.reversed() { error.enter(step.name, component: step.summary) }
      throw error
    }
    defer { request.end(component) }
    guard let factory = component.asyncFactory else {
      try await makeSynchronously(need, requested: requested, for: request)
      return
    }
    let parameters = AsyncParameters(
      container: need.container, requester: component.framework,
      requestScope: need.requestScope, arguments: need.arguments, addressed: need.addressed)
    let makeOne = { () async throws(DIError) -> Any in
      do throws(DIError) {
        return try await factory(parameters)
      } catch {
        var error = error
        error.enter(requested, component: component.summary)
        throw error
      }
    }
    guard let once = need.once else {
      prepared.add(try await makeOne(), for: component)
      return
    }
    try await once.run(
      for: request,
      isKept: { () throws(DIError) in try keep(need, requested: requested, from: prepared) },
      make: { () async throws(DIError) in
        let instance = try await makeOne()
        prepared.add(instance, for: component)
        // Kept now, through the lifetime's own synchronous path, before `once` lets the
        // requests waiting for it look again.
        let kept = Result { () throws(DIError) in
          try keep(need, requested: requested, from: prepared)
        }
        // Not taken by the lifetime (its scope closed meanwhile, or a clean let another
        // request keep its own): nothing holds it, so its hook runs now, as for one made
        // synchronously.
        if !prepared.tookInstance(of: component) {
          Teardown.drop(
            Instance(value: instance), sequence: Teardown.nextSequence(),
            hook: component.onClean)
        }
        _ = try kept.get()
      },
      cancelled: {
        var error = DIError(waitCancelledFor: component.implementation)
        error.enter(requested, component: component.summary)
        return error
      })
  }

  /// Makes the synchronous cached component of `need`, whose graph needs async
  /// components that are not made, through its place's async once: another request
  /// waits for this making instead of making what it needs too. The making plans the
  /// component's parameters, makes what they need, then builds it once.
  private static func makeSynchronously(
    _ need: AsyncNeed, requested: String, for request: AsyncRequest
  ) async throws(DIError) {
    let component = need.component
    guard let once = need.once else { return }
    let arguments = need.arguments.map { $0.value as! [Any] }
    try await once.run(
      for: request,
      isKept: { () throws(DIError) in
        AsyncPlan.isKept(component, arguments: arguments, requestScope: need.requestScope)
      },
      make: { () async throws(DIError) in
        // Its own instances: the request's other passes take theirs, not these.
        let own = PreparedInstances()
        do throws(DIError) {
          try await make(
            AsyncPlan.needs(
              for: .parametersOf(component), in: need.container, requester: need.requester,
              arguments: nil, requestScope: need.requestScope, addressed: need.addressed,
              graph: nil),
            into: own, for: request)
        } catch {
          var error = error
          error.enter(requested, component: component.summary)
          throw error
        }
        // Built now and kept by its lifetime (an error names it). What a factory resolves
        // from inside its body is made when the build meets it, and the build runs again.
        while true {
          do throws(DIError) {
            _ = try keep(need, requested: requested, from: own)
            return
          } catch {
            guard let met = error.asyncNeed, met.component !== component else { throw error }
            try await make([try AsyncResumption(after: error)], into: own, for: request)
          }
        }
      },
      cancelled: {
        var error = DIError(waitCancelledFor: component.implementation)
        error.enter(requested, component: component.summary)
        return error
      })
  }

  /// Asks the lifetime of `need`'s component for its instance, through its synchronous
  /// path, with `prepared`'s instances: it keeps the one made last for this request, or
  /// has one already. False when it has none and this request made none. An error names
  /// the component as `requested`.
  private static func keep(
    _ need: AsyncNeed, requested: String, from prepared: PreparedInstances
  ) throws(DIError) -> Bool {
    do throws(DIError) {
      try attempt(with: prepared, addressed: need.addressed) { () throws(DIError) in
        try DIResolutionContext.with(
          need.container, requester: need.requester,
          arguments: need.arguments.map { $0.value as! [Any] }, graph: need.graph,
          requestScope: need.requestScope
        ) { (context) throws(DIError) in
          _ = try context.instance(of: need.component)
        }
      }
      return true
    } catch {
      guard error.asyncNeed?.component === need.component else {
        // The request's path ends at the component (its scope closed, say).
        var error = error
        error.enter(requested, component: need.component.summary)
        throw error
      }
      return false
    }
  }
}
