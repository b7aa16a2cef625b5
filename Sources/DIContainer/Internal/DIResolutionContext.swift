/// The state of one request: the snapshot it reads, the object graph, who is asking (for
/// modularity), the runtime arguments, and how deep it has gone (for cycles).
///
/// Lives on the stack of the request (see ``with(_:requester:arguments:_:)``) and is passed
/// `inout` to every factory. Every stored property is trivial, so the context costs no
/// reference counting; a request allocates nothing of its own unless its graph needs an
/// ``ObjectGraph``.
package struct DIResolutionContext {
  /// Deeper than this, a request is taken for a cycle.
  static let maxDepth = 64

  /// The container asked; the request's caller keeps it alive.
  unowned(unsafe) package let container: DIContainer
  /// Kept alive by `container`, which holds every snapshot it published.
  unowned(unsafe) let snapshot: Snapshot
  /// The snapshot's lookup table, kept alive by the snapshot; read through
  /// `_withUnsafeGuaranteedRef`, which (unlike an `unowned(unsafe)` load) costs no
  /// reference count.
  private let table: Unmanaged<ServiceTable>
  /// The `.objectGraph` instances and postponed injections, once needed; retained by the
  /// context and released when the request ends.
  private var graphReference: Unmanaged<ObjectGraph>?
  /// The framework on whose behalf the current request is made.
  package var requester: DIModuleID?
  /// The request scope resolving, if any; its caller keeps it alive for the request.
  private var requestScopeReference: Unmanaged<DIRequestScope>?
  /// The runtime arguments for the component asked for; owned by the request's caller.
  private let argumentBuffer: UnsafeBufferPointer<Any>?
  var nextArgument = 0
  /// How many components are being built, one inside the other.
  var depth = 0
  /// The postponement generation of the work being done.
  var generation = 0

  /// Resolves `T` as `requester` with no runtime arguments, in a new request: the common
  /// case of ``with(_:requester:arguments:graph:requestScope:_:)``, without its closure.
  package static func resolve<T>(
    _ type: T.Type, in container: DIContainer, requester: DIModuleID?
  ) throws(DIError) -> T {
    var context = DIResolutionContext(container: container, requester: requester, arguments: nil)
    defer { context.endGraph() }
    let value = try context.value(T.self, tag: nil)
    try context.finish()
    return value
  }

  private init(
    container: DIContainer, requester: DIModuleID?, arguments: UnsafeBufferPointer<Any>?
  ) {
    self.container = container
    let snapshot = container.unmanagedSnapshot._withUnsafeGuaranteedRef { $0 }
    self.snapshot = snapshot
    self.table = .passUnretained(snapshot.table)
    self.requester = requester
    self.argumentBuffer = arguments
  }

  /// Runs one request of `container` on a new context: as `requester` (nil: from outside
  /// every framework), with runtime `arguments`, reusing `graph` when the request continues
  /// one (a `Provider` keeps the graph it was made in), in `requestScope` (which keeps the
  /// `.scoped` instances) when there is one.
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
      container: container, requester: requester, arguments: arguments)
    context.requestScopeReference = requestScope.map { Unmanaged.passUnretained($0) }
    if let graph {
      graph.enter()
      context.graph = graph
    }
    defer { context.endGraph() }
    // `container` and `requestScope` are parameters: the caller keeps them alive.
    let result = try body(&context)
    try context.finish()
    return result
  }

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
  private mutating func endGraph() {
    guard let reference = graphReference else { return }
    graphReference = nil
    var graph = reference.takeRetainedValue()
    if !isKnownUniquelyReferenced(&graph) { graph.leave() }
  }

  /// The runtime arguments of the request.
  package var arguments: [Any]? { argumentBuffer.map(Array.init) }

  /// The object graph of this request, made on first need.
  package mutating func sharedGraph() -> ObjectGraph {
    if let graphReference { return graphReference.takeUnretainedValue() }
    let graph = ObjectGraph()
    self.graph = graph
    return graph
  }

  // MARK: - Requests

  /// Resolves a parameter of type `T`: a service, or a modifier such as `Optional`,
  /// `DIMany` or `Lazy`.
  package mutating func value<T>(_ type: T.Type, tag: Any.Type?) throws(DIError) -> T {
    let key = ServiceKey(T.self, tag: tag)
    if let index = table._withUnsafeGuaranteedRef({ $0.index(of: key) }) {
      if let single = table._withUnsafeGuaranteedRef({ $0.single(at: index) }) {
        // A cached instance is read with no reference counting: the snapshot keeps the
        // component alive, the component its cell.
        if let ready = single._withUnsafeGuaranteedRef({ Self.cachedInstance(of: $0) }) {
          return try cast(ready, to: T.self, component: single)
        }
        return try instance(T.self, of: single.takeUnretainedValue())
      }
      let entry = table._withUnsafeGuaranteedRef { $0.entry(at: index) }
      return try instance(T.self, of: try choose(entry, for: T.self, tag: tag))
    }
    if let modifier = T.self as? any DIParameterModifier.Type {
      return try resolve(modifier, as: T.self, tag: tag)
    }
    throw DIError(.notRegistered, requestedName: Self.name(of: T.self, tag: tag))
  }

  /// Resolves `Wrapped`, or nil when no candidate or no single candidate provides it.
  /// A failure further down the chosen component's graph is still an error.
  package mutating func optionalValue<Wrapped>(
    _ type: Wrapped.Type, tag: Any.Type?
  ) throws(DIError) -> Wrapped? {
    let key = ServiceKey(Wrapped.self, tag: tag)
    if let entry = snapshot.table[key] {
      guard let component = try? choose(entry, for: Wrapped.self, tag: tag) else { return nil }
      return try instance(Wrapped.self, of: component)
    }
    guard let modifier = Wrapped.self as? any DIParameterModifier.Type else { return nil }
    do throws(DIError) {
      return try resolve(modifier, as: Wrapped.self, tag: tag)
    } catch {
      // Only the request itself may come out empty: `Optional<DIByTag<Tag, T>>` with no
      // tagged candidate. A failure below a chosen component has a longer path.
      guard error.path.count == 1, error.reason.isNoUniqueCandidate else { throw error }
      return nil
    }
  }

  /// Every instance of `T` (under `tag`), in registration order; only those of the
  /// requester's framework when `inFramework`.
  package mutating func all<T>(
    _ type: T.Type, tag: Any.Type?, inFramework: Bool
  ) throws(DIError) -> [T] {
    let key = ServiceKey(T.self, tag: tag)
    guard let components = snapshot.collections[key] else {
      // `Lazy`/`Provider` elements are never registered: one per component of their service.
      guard let delayed = T.self as? any DelayedModifier.Type else { return [] }
      return try delayed.all(in: &self, tag: tag, inFramework: inFramework) as! [T]
    }
    var values: [T] = []
    values.reserveCapacity(components.count)
    for component in components where !inFramework || component.framework == requester {
      values.append(try instance(T.self, of: component))
    }
    return values
  }

  /// The next runtime argument, which must be a `T`.
  package mutating func nextArgument<T>(_ type: T.Type) throws(DIError) -> T {
    nextArgument += 1
    let position = nextArgument
    guard depth <= 1, let arguments = argumentBuffer, position <= arguments.count else {
      throw DIError(
        .missingArgument(position: position, expected: String(describing: T.self)),
        requestedName: String(describing: T.self))
    }
    let argument = arguments[position - 1]
    guard let typed = argument as? T else {
      throw DIError(
        .wrongArgument(
          position: position, expected: String(describing: T.self),
          actual: String(describing: Swift.type(of: argument))),
        requestedName: String(describing: T.self))
    }
    return typed
  }

  private mutating func resolve<T>(
    _ modifier: any DIParameterModifier.Type, as type: T.Type, tag: Any.Type?
  ) throws(DIError) -> T {
    // Only reached when `T` is the modifier type itself, so the cast holds.
    try Self.open(modifier, in: &self, tag: tag) as! T
  }

  private static func open<M: DIParameterModifier>(
    _ modifier: M.Type, in context: inout DIResolutionContext, tag: Any.Type?
  ) throws(DIError) -> Any {
    try M.resolve(in: &context, tag: tag)
  }

  static func name(of type: Any.Type, tag: Any.Type?) -> String {
    guard let tag else { return String(describing: type) }
    return "\(type) tagged \(tag)"
  }

  // MARK: - Choosing a candidate

  /// The candidate that serves a request, by the rules of ``DIContainer``: a single
  /// `.test()` one, then the requester's framework, then the frameworks it imports, then
  /// the `.default()` one.
  func choose(_ entry: ServiceEntry, for type: Any.Type, tag: Any.Type?) throws(DIError)
    -> Component
  {
    switch entry {
    case .single(let component):
      return component
    case .multiple(let candidates):
      if let chosen = snapshot.choose(among: candidates, requester: requester) {
        return chosen
      }
      var error = DIError(
        .ambiguous(candidates: candidates.all.map(\.summary)),
        requestedName: Self.name(of: type, tag: tag))
      error.requesterFramework = requester?.name
      throw error
    }
  }

  // MARK: - Instances

  /// The instance `component` provides, as a `T`; a failure records this step.
  @inline(__always)
  mutating func instance<T>(_ type: T.Type, of component: Component) throws(DIError) -> T {
    let value = try instance(of: component, requested: T.self)
    // The implementation type asked for: no dynamic cast (nor `T?` metadata) needed.
    if Self.isImplementation(T.self, of: component)
      || ObjectIdentifier(Swift.type(of: value)) == ObjectIdentifier(T.self)
    {
      return Self.reinterpret(value, as: T.self)
    }
    return try Self.cast(value, to: T.self, component: component)
  }

  /// `value`, made by `component`, as a `T`.
  @inline(__always)
  private func cast<T>(
    _ value: Any, to type: T.Type, component: Unmanaged<Component>
  ) throws(DIError) -> T {
    if component._withUnsafeGuaranteedRef({ Self.isImplementation(T.self, of: $0) })
      || ObjectIdentifier(Swift.type(of: value)) == ObjectIdentifier(T.self)
    {
      return Self.reinterpret(value, as: T.self)
    }
    return try Self.cast(value, to: T.self, component: component.takeUnretainedValue())
  }

  /// The instance `component`'s cell holds, if it has a cell and the cell an instance.
  @inline(__always)
  private static func cachedInstance(of component: Component) -> Any? {
    guard let cell = component.cell else { return nil }
    return cell._withUnsafeGuaranteedRef { $0.current?.value }
  }

  /// The instance of `component`, recording the step for `requested` when it fails.
  private mutating func instance(
    of component: Component, requested: Any.Type
  ) throws(DIError) -> Any {
    do throws(DIError) {
      return try instance(of: component)
    } catch {
      var error = error
      error.enter(String(describing: requested), component: component.summary)
      throw error
    }
  }

  /// Whether `type` is the class `component` makes, so its instances are references of
  /// that type without looking at their dynamic type.
  @inline(__always)
  private static func isImplementation(_ type: Any.Type, of component: Component) -> Bool {
    component.implementationIsClass
      && ObjectIdentifier(component.implementation) == ObjectIdentifier(type)
  }

  /// `value` as a `T`, which its dynamic type `Value` is.
  @inline(__always)
  private static func reinterpret<Value, T>(_ value: Value, as type: T.Type) -> T {
    unsafeBitCast(value, to: T.self)
  }

  /// `value` as a `T` it conforms to or inherits from (a service of its component).
  @inline(never)
  private static func cast<T>(
    _ value: Any, to type: T.Type, component: Component
  ) throws(DIError) -> T {
    guard let typed = value as? T else {
      throw DIError(
        .notAService, requestedName: String(describing: T.self), component: component.summary)
    }
    return typed
  }

  /// The instance of `component`, from its lifetime's storage or new.
  mutating func instance(of component: Component) throws(DIError) -> Any {
    if let ready = Self.cachedInstance(of: component) { return ready }
    switch component.storage {
    case .none:
      return try build(component) { _ in }
    case .objectGraph:
      let graph = sharedGraph()
      if let existing = graph.instance(of: component) { return existing }
      return try build(component) { graph.store($0, for: component) }
    case .cell(let cell):
      return try cell.instance(
        { publish throws(DIError) in try build(component, publish: publish) },
        onCycle: { DIError(.cycle) })
    case .multiton(let cells):
      return try cells.cell(for: try multitonKey()).instance(
        { publish throws(DIError) in try build(component, publish: publish) },
        onCycle: { DIError(.cycle) })
    case .scoped(let scope, let cell):
      return try cell.instance(
        in: scope, hook: component.onClean,
        { publish throws(DIError) in try build(component, publish: publish) },
        onCycle: { DIError(.cycle) })
    case .requestScoped(let key):
      guard let requestScope else { throw DIRequestScope.outsideScopeError(component) }
      return try requestScope.instance(
        of: component, key: key,
        { publish throws(DIError) in try build(component, publish: publish) })
    }
  }

  /// Makes a new instance of `component` and runs its injections; `publish` receives it
  /// before the injections, so a cycle through them finds it.
  mutating func build(
    _ component: Component, publish: (Any) -> Void
  ) throws(DIError) -> Any {
    guard let factory = component.factory else { throw DIError(.noInitializer) }
    guard depth < Self.maxDepth else { throw DIError(.cycle) }
    depth += 1
    let outerRequester = requester
    requester = component.framework
    defer {
      depth -= 1
      requester = outerRequester
    }
    let value = try factory(&self)
    publish(value)
    if component.needsInjection { try inject(component, into: value) }
    return value
  }

  /// Runs the injections of `component` on `value`; postpones the cycle-breaking ones
  /// and `postInit` until the graph is built.
  mutating func inject(_ component: Component, into value: Any) throws(DIError) {
    for injection in component.injections where !injection.isCycleBreak {
      try injection.run(value, &self)
    }
    if component.hasCycleBreaks {
      sharedGraph().postpone(
        .init(instance: Instance(value: value), component: component, generation: generation + 1))
    } else {
      component.postInit?(value)
    }
  }

  /// Runs the postponed injections, including those their own resolutions postpone.
  mutating func finish() throws(DIError) {
    guard let graph = graphReference?.takeUnretainedValue() else { return }
    while let pending = graph.takePending() {
      let component = pending.component
      guard pending.generation < Self.maxDepth else {
        throw DIError(.cycle, requestedName: component.name, component: component.summary)
      }
      let outerRequester = requester
      requester = component.framework
      generation = pending.generation
      defer { requester = outerRequester }
      do throws(DIError) {
        for injection in component.injections where injection.isCycleBreak {
          try injection.run(pending.instance.value, &self)
        }
      } catch {
        var error = error
        error.enter(component.name, component: component.summary)
        throw error
      }
      component.postInit?(pending.instance.value)
    }
  }
}
