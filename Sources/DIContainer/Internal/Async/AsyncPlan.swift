/// What an asynchronous request must make before its synchronous pass, found from the
/// registrations' parameter types (the arcs graph validation walks), so that the pass
/// builds its graph once: no synchronous factory runs for an attempt that is thrown away.
///
/// The walk follows the eager parameters and injections of the components the request
/// reaches, as resolution chooses them (framework, tags, `many`, a child's levels), and
/// stops at a cached instance that is kept already, at a delayed value and at a runtime
/// argument. It lists, in the order met:
/// - each async component whose instance is not kept, once per place that keeps it; a
///   `.prototype` one once for every time the pass builds it, an `.objectGraph` one once;
/// - each synchronous cached component whose graph needs such a making, in place of the
///   makings below it: making it runs its own plan and then builds it, through the
///   async once of its place, so that concurrent requests wait for one making instead of
///   each making what it needs.
///
/// Before it walks from a component, a request checks the async components that
/// component's graph can reach at all (found once per snapshot, ``asyncReach(of:at:)``):
/// when every one is cached and kept, as in a server once its async singletons are made,
/// there is nothing to plan.
///
/// A factory that resolves from inside its body (one that captures the container) shows no
/// parameter type for that: what its pass meets unmade is made then, and the pass runs again
/// (``DIContainer/resolvingAsync(requester:arguments:requestScope:addressed:graph:root:resuming:_:)``).
struct AsyncPlan {
  /// Where a request starts.
  enum Root {
    /// A request of a service type, with its modifiers (`Optional`, `many`, a tag).
    case service(DIRequest)
    /// A request of one component (an element of `many`, a singleton made ahead).
    case component(Component)
    /// The requests of a synchronous initializer or injection that an async making runs
    /// (the requester is the making's component's framework).
    case requests([DIRequest])
    /// A request of a component itself, a synchronous cached one whose making the plan
    /// of another request handed over: its parameters are walked, not the component.
    case parametersOf(Component)
  }

  /// The makings, in the order the walk met them, each with the path that leads to it
  /// (for the error of a failed making, as the pass would name it).
  private(set) var needs: [AsyncResumption] = []
  /// The cached and `.objectGraph` components planned already: one making serves every
  /// place the pass reaches them.
  private var planned: Set<ObjectIdentifier> = []
  /// The requests that lead to the component being visited, outermost first: the type
  /// asked for and the component chosen (their names are made only for a making). A loop
  /// back to one of them ends the branch (the pass decides whether it is a cycle).
  private var path: [(requested: Any.Type, component: Component)] = []
  /// Whether this walk finds the async components a component's graph can reach at all
  /// (``asyncReach(of:at:)``): kept instances do not stop it, and each component is
  /// visited once.
  private var isStatic = false
  /// The async components the static walk found.
  private var reached: [Component] = []
  private let requestScope: DIRequestScope?
  private let arguments: [Any]?
  private let addressed: AddressedArguments?
  private let graph: ObjectGraph?

  /// The makings a request of `root` in `container`, asked as `requester`, needs before
  /// its pass.
  static func needs(
    for root: Root, in container: DIContainer, requester: DIModuleID?, arguments: [Any]?,
    requestScope: DIRequestScope?, addressed: AddressedArguments?, graph: ObjectGraph?
  ) -> [AsyncResumption] {
    // Read as a request reads it: no lock, no reference counted.
    let access = UnsafeSnapshotAccess.begin(container, for: ResolutionRequest.current)
    defer { access.end() }
    return access.withSnapshot { snapshot in
      guard !snapshot.isShutDown else { return [] }
      var plan = AsyncPlan(
        requestScope: requestScope, arguments: arguments, addressed: addressed, graph: graph)
      plan.walk(root, from: Level(container: container, snapshot: snapshot, requester: requester))
      return plan.needs
    }
  }

  /// Walks the graph of `root`, asked at `level`.
  private mutating func walk(_ root: Root, from level: Level) {
    switch root {
    case .service(let request):
      _ = walk(request, from: level, isRoot: true)
    case .component(let component):
      path.append((component.implementation, component))
      _ = visit(component, from: level, isRoot: true)
    case .requests(let requests):
      for request in requests { _ = walk(request, from: level, isRoot: false) }
    case .parametersOf(let component):
      path.append((component.implementation, component))
      _ = walkParameters(of: component, at: level.asking(as: component.framework))
    }
  }

  private init(
    requestScope: DIRequestScope?, arguments: [Any]?, addressed: AddressedArguments?,
    graph: ObjectGraph?
  ) {
    self.requestScope = requestScope
    self.arguments = arguments
    self.addressed = addressed
    self.graph = graph
  }

  /// A container the walk asks in, and who asks.
  fileprivate struct Level {
    let container: DIContainer
    let snapshot: Snapshot
    let requester: DIModuleID?

    func asking(as requester: DIModuleID?) -> Level {
      Level(container: container, snapshot: snapshot, requester: requester)
    }
  }

  /// Walks what `request` resolves to; true when anything of it is planned.
  private mutating func walk(_ request: DIRequest, from level: Level, isRoot: Bool) -> Bool {
    guard !request.isArgument, !request.isDelayed else { return false }
    var needed = false
    level.snapshot.forEachServing(request, requester: level.requester) { component in
      if isRoot, !isStatic,
        Self.needsNothing(
          component, at: level, arguments: arguments, requestScope: requestScope)
      {
        return
      }
      path.append((request.type, component))
      if visit(component, from: level, isRoot: isRoot) { needed = true }
      path.removeLast()
    }
    return needed
  }

  /// Whether a request of `component` at `level` has nothing to make: every async
  /// component its graph can reach is cached and kept now. What most requests of a server
  /// find once its async singletons are made: checked without walking the graph.
  fileprivate static func needsNothing(
    _ component: Component, at level: Level, arguments: [Any]?,
    requestScope: DIRequestScope?
  ) -> Bool {
    asyncReach(of: component, at: level).allSatisfy { reached in
      reached.isCached
        && isKept(
          reached, arguments: reached === component ? arguments : nil,
          requestScope: requestScope)
    }
  }

  /// The async components the graph of `component`, asked for at `level`, can reach (it
  /// too, if it is one), found once per snapshot of `level`'s container.
  private static func asyncReach(of component: Component, at level: Level) -> [Component] {
    let key = ObjectIdentifier(component)
    // Kept for the container's current snapshot only: a request reading an older one
    // finds its own.
    let snapshot = level.snapshot
    let registry = level.container.registry
    if let known = registry.withLock({ $0.current === snapshot ? $0.asyncReach[key] : nil }) {
      return known
    }
    var plan = AsyncPlan(requestScope: nil, arguments: nil, addressed: nil, graph: nil)
    plan.isStatic = true
    _ = plan.visit(component, from: level, isRoot: true)
    let reached = plan.reached
    registry.withLock { if $0.current === snapshot { $0.asyncReach[key] = reached } }
    return reached
  }

  /// Walks the initializer parameters and injections of `component`, built at `level`.
  private mutating func walkParameters(of component: Component, at level: Level) -> Bool {
    var needed = false
    for request in component.parameters where walk(request, from: level, isRoot: false) {
      needed = true
    }
    for injection in component.injections {
      for request in injection.dependencies where walk(request, from: level, isRoot: false) {
        needed = true
      }
    }
    return needed
  }

  /// Plans `component`, reached from `level`; true when it or anything below it is
  /// planned.
  private mutating func visit(_ component: Component, from level: Level, isRoot: Bool) -> Bool {
    let id = ObjectIdentifier(component)
    let isAsync = component.asyncFactory != nil
    if isStatic { return reach(component, from: level) }
    // A component with `arg` parameters is made ahead only with the request's own runtime
    // arguments: the pass decides the others (arguments addressed by type, an optional
    // request without them).
    let canMakeAhead = !component.takesArguments || (isRoot && arguments != nil)
    if isAsync, !canMakeAhead { return false }
    var maker = level
    switch component.storage {
    case .none:
      break
    case .objectGraph:
      if graph?.instance(of: component) != nil || planned.contains(id) { return false }
      planned.insert(id)
    case .requestScoped where requestScope == nil:
      // Outside a request scope: the pass says so.
      return false
    case .cell, .multiton, .scoped, .requestScoped:
      if planned.contains(id) { return true }
      guard let owner = Self.maker(of: component, from: level) else { return false }
      maker = owner
      if Self.isKept(
        component, arguments: isRoot ? arguments : nil, requestScope: requestScope)
      {
        return false
      }
    }
    if isAsync {
      if component.isCached { planned.insert(id) }
      needs.append(need(component, at: maker, isRoot: isRoot))
      return true
    }
    // `path` ends with this component: a loop comes back to an earlier step.
    guard !path.dropLast().contains(where: { $0.component === component }) else { return false }
    let start = needs.count
    let needed = walkParameters(of: component, at: maker.asking(as: component.framework))
    guard needed, component.isCached, canMakeAhead else { return needed }
    // Made once, through its place's async once: its own making plans again below it.
    needs.removeSubrange(start...)
    needs.append(need(component, at: maker, isRoot: isRoot))
    planned.insert(id)
    return true
  }

  /// Records the async components `component`'s graph reaches, for the static walk.
  private mutating func reach(_ component: Component, from level: Level) -> Bool {
    let id = ObjectIdentifier(component)
    guard !planned.contains(id), let maker = Self.maker(of: component, from: level) else {
      return false
    }
    planned.insert(id)
    if component.asyncFactory != nil {
      reached.append(component)
      return true
    }
    return walkParameters(of: component, at: maker.asking(as: component.framework))
  }

  /// The level that makes `component`, reached from `level`: a cached component's owner
  /// makes it; any other is made where it is asked.
  private static func maker(of component: Component, from level: Level) -> Level? {
    guard component.isCached, component.owner != ObjectIdentifier(level.container) else {
      return level
    }
    guard let owner = level.snapshot.level(owning: component) else { return nil }
    return Level(container: owner.container, snapshot: owner.snapshot, requester: level.requester)
  }

  /// The making of `component`, the last step of ``path``, made at `level`.
  private func need(_ component: Component, at level: Level, isRoot: Bool) -> AsyncResumption {
    let need = AsyncNeed(
      component: component, container: level.container, requester: level.requester,
      arguments: isRoot ? arguments : nil, requestScope: requestScope, addressed: addressed,
      graph: graph)
    let steps = path.map { step in
      DIError.Step(
        requested: String(describing: step.requested), component: step.component.summary)
    }
    return AsyncResumption(
      need: need, requested: steps.last?.requested ?? component.name,
      leadingTo: steps.dropLast())
  }

  /// Whether the place of the cached `component` keeps an instance now: for a
  /// `.multiton`, the one of `arguments`; for a `.scoped` one, `requestScope`'s.
  static func isKept(
    _ component: Component, arguments: [Any]?, requestScope: DIRequestScope?
  ) -> Bool {
    switch component.storage {
    case .none, .objectGraph:
      return false
    case .cell(let cell):
      return cell.current != nil
    case .multiton(let cells):
      guard let arguments, case .success(let key) = MultitonCells.Key.make(arguments)
      else { return false }
      return cells.cell(for: key).current != nil
    case .scoped(let scope, let cell):
      return (try? scope.instance(for: cell.key)) != nil
    case .requestScoped:
      guard let id = component.requestScopedID else { return false }
      return requestScope?.keeps(id) ?? false
    }
  }
}

extension Component {
  /// Whether its lifetime keeps its instances (not `.prototype`, not `.objectGraph`).
  var isCached: Bool {
    switch storage {
    case .none, .objectGraph: false
    default: true
    }
  }

  /// Whether it is `.objectGraph`: one instance per resolution's object graph.
  var isObjectGraph: Bool {
    if case .objectGraph = storage { true } else { false }
  }
}

extension AsyncPlan {
  /// Whether an asynchronous request of `request` in `container`, from outside every
  /// framework, in `requestScope` if it has one, may have something to make before its
  /// pass: false when every async component the graphs of its candidates can reach is
  /// cached and kept (``needsNothing(_:at:arguments:requestScope:)``), so that one synchronous pass builds it.
  static func mayMakeAhead(
    for request: DIRequest, in container: DIContainer, requestScope: DIRequestScope?
  ) -> Bool {
    let access = UnsafeSnapshotAccess.begin(container, for: ResolutionRequest.current)
    defer { access.end() }
    return access.withSnapshot { snapshot in
      // A shut-down container's pass says so.
      guard !snapshot.isShutDown else { return false }
      let level = Level(container: container, snapshot: snapshot, requester: nil)
      var may = false
      snapshot.forEachServing(request, requester: nil) { component in
        if !may,
          !needsNothing(component, at: level, arguments: nil, requestScope: requestScope)
        {
          may = true
        }
      }
      return may
    }
  }
}

extension DIContainer {
  /// Whether an asynchronous request of `type` in `requestScope` (none: nil) has its
  /// graph planned before its pass: a component of its graph may need making ahead, or a
  /// task overrides registrations (the plan goes to the task's level). Not when every
  /// async component is made and kept (``keepsEveryAsyncInstance()``), as in a server
  /// once its async singletons are made.
  @usableFromInline
  func plansFirst(_ type: Any.Type, in requestScope: DIRequestScope?) -> Bool {
    guard !OverrideLevels.areInUse else { return true }
    guard !keepsEveryAsyncInstance() else { return false }
    return AsyncPlan.mayMakeAhead(
      for: DIRequest(for: type), in: self, requestScope: requestScope)
  }
}
