/// The container's compiled registration, named so inside ``DIGraph`` where `Component`
/// is ``DIGraph/Component``.
typealias RegisteredComponent = Component

extension DIGraph {
  /// The graph of `snapshot`: its components, and for every parameter the candidates
  /// resolution would consider and the ones it would use, with the asking component's
  /// framework as the requester (as at run time).
  ///
  /// For a child container, the parents' components follow the child's, and a request is
  /// answered as resolution answers it: by the first level, from the child up, that has
  /// candidates. A parent's cached component looks from its own level (its container makes
  /// it), any other from the child's (it is made in the child's requests).
  init(snapshot: Snapshot) {
    let levels = Array(sequence(first: snapshot) { $0.parent?.snapshot })
    // Each level lists its registrations in order: a component's id is its order plus
    // the number of components in the levels before.
    var offsets: [ObjectIdentifier: Int] = [:]
    var registered: [(component: RegisteredComponent, level: Int)] = []
    for (index, level) in levels.enumerated() {
      offsets[level.components.first?.owner ?? ObjectIdentifier(level)] = registered.count
      registered += level.components.map { ($0, index) }
    }
    func id(_ component: RegisteredComponent) -> Int {
      offsets[component.owner, default: 0] + component.order
    }

    var components: [Component] = []
    components.reserveCapacity(registered.count)
    var edges: [Edge] = []
    var edgeStarts: [Int] = []
    edgeStarts.reserveCapacity(registered.count + 1)
    for (from, (component, level)) in registered.enumerated() {
      assert(id(component) == from, "snapshot components out of registration order")
      components.append(Component(id: from, registered: component))
      edgeStarts.append(edges.count)
      let start: Int
      switch component.storage {
      case .none, .objectGraph: start = 0
      default: start = level
      }
      func add(_ request: DIRequest, _ site: Edge.Site, cycle: Bool) {
        var modifiers = Edge.Modifiers(request)
        if cycle { modifiers.insert(.cycle) }
        let (candidates, targets) = Self.candidates(
          of: request, asker: component, in: levels[start], id: id)
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
  /// `asker` asks: the rules of ``DIResolutionContext/value(_:tag:)`` and
  /// ``DIResolutionContext/all(_:tag:inFramework:)``.
  private static func candidates(
    of request: DIRequest, asker: RegisteredComponent, in snapshot: Snapshot,
    id: (RegisteredComponent) -> Int
  ) -> (candidates: [Int], targets: [Int]) {
    if request.isArgument { return ([], []) }
    let key = ServiceKey(request.type, tag: request.tag)
    if request.isMany || request.isManyInFramework {
      let all = snapshot.collection(key) ?? []
      let collected =
        request.isManyInFramework ? all.filter { $0.framework == asker.framework } : all
      let ids = collected.map(id)
      return (ids, ids)
    }
    switch snapshot.lookUp(key) {
    case nil:
      return ([], [])
    case .some((.single(let component), _)):
      return ([id(component)], [id(component)])
    case .some((.multiple(let candidates), _)):
      let chosen = snapshot.choose(among: candidates, requester: asker.framework)
      return (candidates.all.map(id), chosen.map { [id($0)] } ?? [])
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
