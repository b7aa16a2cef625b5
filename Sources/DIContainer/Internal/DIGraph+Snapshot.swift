/// The container's compiled registration, named so inside ``DIGraph`` where `Component`
/// is ``DIGraph/Component``.
typealias RegisteredComponent = Component

extension DIGraph {
  /// The graph of `snapshot`: its components, and for every parameter the candidates
  /// resolution would consider and the ones it would use, with the asking component's
  /// framework as the requester (as at run time).
  init(snapshot: Snapshot) {
    let registered = snapshot.components
    // A snapshot lists every registration in order, so a component's order is its index.
    func id(_ component: RegisteredComponent) -> Int { component.order }

    var components: [Component] = []
    components.reserveCapacity(registered.count)
    var edges: [Edge] = []
    var edgeStarts: [Int] = []
    edgeStarts.reserveCapacity(registered.count + 1)
    for (from, component) in registered.enumerated() {
      assert(component.order == from, "snapshot components out of registration order")
      components.append(Component(id: from, registered: component))
      edgeStarts.append(edges.count)
      func add(_ request: DIRequest, _ site: Edge.Site, cycle: Bool) {
        var modifiers = Edge.Modifiers(request)
        if cycle { modifiers.insert(.cycle) }
        let (candidates, targets) = Self.candidates(
          of: request, asker: component, in: snapshot, id: id)
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
      let all = snapshot.collections[key] ?? []
      let collected =
        request.isManyInFramework ? all.filter { $0.framework == asker.framework } : all
      let ids = collected.map(id)
      return (ids, ids)
    }
    switch snapshot.table[key] {
    case nil:
      return ([], [])
    case .single(let component):
      return ([id(component)], [id(component)])
    case .multiple(let candidates):
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
    if request.isArgument { insert(.argument) }
  }
}
