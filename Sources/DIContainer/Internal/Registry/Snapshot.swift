/// The candidates of one service.
enum ServiceEntry: Sendable {
  /// The common case: exactly one component provides the service.
  case single(Component)
  /// Several components provide it; the choice may depend on who asks.
  case multiple(Candidates)
}

/// Several components providing one service, with what can be decided in advance.
final class Candidates: Sendable {
  let all: [Component]
  /// The only `.test()` candidate, which beats every other.
  let test: Component?
  /// The choice when modularity does not decide: the only candidate left after keeping
  /// the `.default()` ones, if exactly one is.
  let fallback: Component?

  init(_ all: [Component]) {
    self.all = all
    let tests = all.filter(\.isTest)
    test = tests.count == 1 ? tests[0] : nil
    fallback = Self.unique(all)
  }

  /// The only candidate of `components`, or its only `.default()` one.
  static func unique(_ components: [Component]) -> Component? {
    unique(components) { _ in true }
  }

  /// The only candidate of `components` that `isIncluded` keeps, or the only `.default()`
  /// one of those; found in one pass, with no array of the kept ones.
  static func unique(
    _ components: [Component], where isIncluded: (Component) -> Bool
  ) -> Component? {
    var kept: (count: Int, last: Component?) = (0, nil)
    var defaults: (count: Int, last: Component?) = (0, nil)
    for component in components where isIncluded(component) {
      kept = (kept.count + 1, component)
      if component.isDefault { defaults = (defaults.count + 1, component) }
    }
    if kept.count == 1 { return kept.last }
    return defaults.count == 1 ? defaults.last : nil
  }
}

/// An immutable view of a container's registrations, published for lock-free reading.
///
/// A container builds a snapshot when a request finds the last one outdated, and keeps
/// every snapshot it published until it is itself released, so a reader holding one never
/// sees it freed.
final class Snapshot: Sendable {
  let components: [Component]
  /// Candidates by exact service key (type, or type and tag).
  let table: ServiceTable
  /// For `many` of a type that also has tagged components: every component providing it,
  /// tagged or not, in registration order. Any other key's `many` is its ``table``'s
  /// candidates (see ``collection(_:)``).
  private let taggedCollections: [ServiceKey: ComponentGroup]
  /// The frameworks each framework imports.
  let imports: [DIModuleID: Set<DIModuleID>]
  /// The frameworks and parts loaded into the container when this snapshot was made.
  let loaded: Set<DIModuleID>
  /// For a child container: the level above, the parent's registrations as they were when
  /// this snapshot was made (a registration in the parent makes the child publish anew).
  let parent: Level?

  /// A parent container and the snapshot of its registrations.
  struct Level: Sendable {
    let container: DIContainer
    let snapshot: Snapshot
  }

  /// Whether the container was shut down: every request fails (see
  /// ``DIContainer/shutdown()``).
  let isShutDown: Bool
  /// The cells of the async components of this snapshot and its parents', when every one
  /// keeps its instance in a cell of its own, strongly (a cached lifetime other than
  /// `.weak`, `.multiton`, `.scoped` and a custom scope); nil when one does not. While each
  /// of them keeps its instance, no asynchronous request has anything to make before its
  /// pass (see ``DIContainer/keepsEveryAsyncInstance()``).
  let asyncCells: [InstanceCell]?

  /// - Parameter hasAsyncComponents: Whether a component may be async: the container
  ///   registered one (``Registry/hasAsyncComponents``). When false, ``asyncCells`` are
  ///   the parent's, with no component read.
  init(
    components: [Component], imports: [DIModuleID: Set<DIModuleID>],
    loaded: Set<DIModuleID> = [], parent: Level? = nil, isShutDown: Bool = false,
    hasAsyncComponents: Bool = false
  ) {
    self.components = components
    self.imports = imports
    self.loaded = loaded
    self.isShutDown = isShutDown
    self.parent = parent
    // The parent's list, nil when one of its async components is not in a cell; none
    // without a parent.
    let inherited = parent.map(\.snapshot.asyncCells) ?? []
    asyncCells =
      hasAsyncComponents ? Self.asyncCells(of: components, inheriting: inherited) : inherited
    var provisions: [ServiceTable.Provision] = []
    provisions.reserveCapacity(components.count)
    var tagged: [(untagged: ServiceKey, component: Component)] = []
    for component in components {
      // Read once: each read of the draft's list copies it (and counts a reference).
      let services = component.services
      var tags = 0
      for service in services {
        provisions.append((service, Unretained(component)))
        if service.tag != nil {
          tagged.append((ServiceKey(service.type), component))
          tags += 1
        }
      }
      // A type under several tags is also found by every combination of them (a request
      // for all of them, see `TagSet`); `many` of the plain type has it already.
      guard tags > 1 else { continue }
      for key in TagSet.intersections(of: services) {
        provisions.append((key, Unretained(component)))
      }
    }
    table = ServiceTable(provisions)
    // `many` of a type also collects its tagged components.
    var taggedCollections: [ServiceKey: ComponentGroup] = [:]
    for (untagged, component) in tagged {
      if taggedCollections[untagged] == nil, let entry = table.slots[untagged] {
        taggedCollections[untagged] = ComponentGroup(entry)
      }
      if taggedCollections[untagged]?.contains(component) != true {
        taggedCollections.add(component, for: untagged)
      }
    }
    // Registration order, whatever order the tagged ones were added in.
    for index in taggedCollections.indices {
      taggedCollections.values[index].sortByOrder()
    }
    self.taggedCollections = taggedCollections
  }

  static let empty = Snapshot(components: [], imports: [:])

  /// The cells of the async `components` after `inherited`, the parents' (see
  /// ``asyncCells``): nil when one of them keeps its instances elsewhere or not at all.
  private static func asyncCells(
    of components: [Component], inheriting inherited: [InstanceCell]?
  ) -> [InstanceCell]? {
    guard var cells = inherited else { return nil }
    for component in components where component.asyncFactory != nil {
      guard case .cell(let cell) = component.storage, !cell.isWeak else { return nil }
      cells.append(cell)
    }
    return cells
  }

  // MARK: - Levels (child containers)

  /// The candidates of `key` at the first level, from this one up through the parents,
  /// that has any: a child's candidates hide its parent's.
  func lookUp(_ key: ServiceKey) -> ServiceEntry? {
    var level = self
    while true {
      if let entry = level.table.slots[key] { return entry }
      guard let parent = level.parent else { return nil }
      level = parent.snapshot
    }
  }

  /// Every component providing `key` for `many`: this level's, then each parent's.
  func collection(_ key: ServiceKey) -> [Component]? {
    guard let parent else { return ownCollection(key) }
    let inherited = parent.snapshot.collection(key)
    guard let own = ownCollection(key) else { return inherited }
    return own + (inherited ?? [])
  }

  /// Every component of this level providing `key` for `many`.
  private func ownCollection(_ key: ServiceKey) -> [Component]? {
    if !taggedCollections.isEmpty, let group = taggedCollections[key] { return group.all }
    switch table.slots[key] {
    case .single(let component): return [component]
    case .multiple(let candidates): return candidates.all
    case nil: return nil
    }
  }

  /// The container of the level that registered `component`, when it is a parent's.
  func container(owning component: Component) -> DIContainer? {
    level(owning: component)?.container
  }

  /// The parent level whose container registered `component`, if one did.
  func level(owning component: Component) -> Level? {
    var level = parent
    while let current = level {
      if ObjectIdentifier(current.container) == component.owner { return current }
      level = current.snapshot.parent
    }
    return nil
  }

  /// The candidate that serves `requester` (a framework, or nil from outside every
  /// framework), by the rules of ``DIContainer``: a single `.test()` one, then the
  /// requester's framework, then the frameworks it imports, then the `.default()` one;
  /// nil when they leave more than one (ambiguous).
  ///
  /// Resolution and graph validation both choose here, so a graph that validates resolves.
  func choose(
    among candidates: Candidates, requester: DIModuleID?, arguments: RuntimeArguments? = nil
  ) -> Component? {
    if let test = candidates.test { return test }
    if let requester, let modular = modularChoice(candidates.all, requester: requester) {
      return modular
    }
    if let arguments {
      // Those taking the request's runtime arguments, if any do: a choice among them.
      let matching = candidates.all.filter { $0.takes(arguments) }
      if !matching.isEmpty { return Candidates.unique(matching) }
    }
    return candidates.fallback
  }

  private func modularChoice(_ all: [Component], requester: DIModuleID) -> Component? {
    if let own = Candidates.unique(all, where: { $0.framework == requester }) { return own }
    guard let imports = imports[requester], !imports.isEmpty else { return nil }
    return Candidates.unique(all) { $0.framework.map(imports.contains) ?? false }
  }
}
