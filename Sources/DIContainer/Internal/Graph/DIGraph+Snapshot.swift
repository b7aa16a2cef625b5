/// The container's compiled registration, named so inside ``DIGraph`` where `Component`
/// is ``DIGraph/Component``.
typealias RegisteredComponent = Component

extension DIGraph {
  /// The graph of `snapshot`: its components, and for every parameter the candidates
  /// resolution would consider and the ones it would use, with the asking component's
  /// framework as the requester (as at run time).
  ///
  /// For a child container, the parents' components follow the child's, and a request is
  /// answered as resolution answers it: by the first level, from the asking container up,
  /// that has candidates. A parent's cached component is made by its own container, so it
  /// asks from its level; any other component is made by the container whose request
  /// reaches it, so a parent's `.prototype` or `.objectGraph` component has one node per
  /// container that can reach it (the child's, and each parent's up to its own), each
  /// asking from that container's level.
  init(snapshot: Snapshot) {
    let levels = Array(sequence(first: snapshot) { $0.parent?.snapshot })
    var levelOfOwner: [ObjectIdentifier: Int] = [:]
    for (index, level) in levels.enumerated() {
      for component in level.components.prefix(1) { levelOfOwner[component.owner] = index }
    }
    func isCached(_ component: RegisteredComponent) -> Bool {
      switch component.storage {
      case .none, .objectGraph: false
      default: true
      }
    }
    // One node per component and container that makes it (`context`: that container's
    // level), in registration order within each level, the child's level first.
    struct Node: Hashable {
      let component: ObjectIdentifier
      let context: Int
    }
    var registered: [(component: RegisteredComponent, context: Int)] = []
    var nodes: [Node: Int] = [:]
    for (index, level) in levels.enumerated() {
      for component in level.components {
        for context in isCached(component) ? index...index : 0...index {
          nodes[Node(component: ObjectIdentifier(component), context: context)] = registered.count
          registered.append((component, context))
        }
      }
    }
    /// The node of `component` reached by a request of the container at level `context`.
    func node(_ component: RegisteredComponent, reachedFrom context: Int) -> Int {
      let made = isCached(component) ? levelOfOwner[component.owner, default: 0] : context
      return nodes[Node(component: ObjectIdentifier(component), context: made), default: 0]
    }

    var components: [Component] = []
    components.reserveCapacity(registered.count)
    var edges: [Edge] = []
    var edgeStarts: [Int] = []
    edgeStarts.reserveCapacity(registered.count + 1)
    for (from, (component, context)) in registered.enumerated() {
      components.append(
        Component(
          id: from, registered: component,
          isMadeByParent: context > 0 && !isCached(component)))
      edgeStarts.append(edges.count)
      func id(_ target: RegisteredComponent) -> Int { node(target, reachedFrom: context) }
      func add(_ request: DIRequest, _ site: Edge.Site, cycle: Bool) {
        var modifiers = Edge.Modifiers(request)
        if cycle { modifiers.insert(.cycle) }
        let (candidates, targets) = Self.candidates(
          of: request, asker: component, in: levels[context], id: id)
        edges.append(
          Edge(
            from: from, site: site, type: request.type, tag: request.tag, modifiers: modifiers,
            candidates: candidates, targets: targets))
      }
      for (parameter, request) in component.parameters.enumerated() {
        add(request, .initializer(parameter: parameter), cycle: false)
      }
      for (index, injection) in component.injections.enumerated() {
        for (parameter, request) in injection.dependencies.enumerated() {
          add(request, .injection(index, parameter: parameter), cycle: injection.isCycleBreak)
        }
      }
    }
    edgeStarts.append(edges.count)
    self.init(components: components, edges: edges, edgeStarts: edgeStarts)
  }

  /// Every component that provides what `request` asks, and those resolution uses when
  /// `asker` asks (see ``Snapshot/forEachServing(_:requester:_:)``), as node ids: one array
  /// for both unless several candidates leave a choice.
  private static func candidates(
    of request: DIRequest, asker: RegisteredComponent, in snapshot: Snapshot,
    id: (RegisteredComponent) -> Int
  ) -> (candidates: [Int], targets: [Int]) {
    var targets: [Int] = []
    let choice = snapshot.forEachServing(request, requester: asker.framework) {
      targets.append(id($0))
    }
    return (choice.map { $0.all.map(id) } ?? targets, targets)
  }
}

extension Snapshot {
  /// Calls `body` with each component resolution uses for `request` when `requester`
  /// asks, in order (the rules of ``DIResolutionContext/value(_:tag:)`` and
  /// ``DIResolutionContext/all(_:tag:inFramework:)``; graph validation and the plan of an
  /// asynchronous request both follow them), with no allocation unless `request` is a
  /// `many` one. Returns the candidates it chose among, when several provide the service.
  @discardableResult
  func forEachServing(
    _ request: DIRequest, requester: DIModuleID?, _ body: (Component) -> Void
  ) -> Candidates? {
    if request.isArgument { return nil }
    let key = ServiceKey(request.type, tag: request.tag)
    if request.isMany || request.isManyInFramework {
      for component in collection(key) ?? []
      where !request.isManyInFramework || component.framework == requester {
        body(component)
      }
      return nil
    }
    switch lookUp(key) {
    case nil:
      return nil
    case .single(let component):
      body(component)
      return nil
    case .multiple(let candidates):
      if let chosen = choose(among: candidates, requester: requester) { body(chosen) }
      return candidates
    }
  }
}

extension DIGraph.Edge.Modifiers {
  /// The modifiers of `request`.
  init(_ request: DIRequest) {
    self = []
    if request.isOptional { insert(.optional) }
    if request.isMany { insert(.many) }
    if request.isManyInFramework { insert(.manyInFramework) }
    if request.tag != nil { insert(.tagged) }
    if request.isDelayed { insert(.delayed) }
    if request.isAwaiting { insert(.awaiting) }
    if request.isArgument { insert(.argument) }
  }
}
