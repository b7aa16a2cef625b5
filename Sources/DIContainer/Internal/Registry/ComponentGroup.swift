/// The components of one service key, in registration order: the first held inline, so a
/// key that one component provides (most of them) allocates nothing of its own.
struct ComponentGroup: Sendable {
  /// The only component, or the first one registered.
  let first: Component
  private var rest: [Component] = []

  /// A group of `component` alone.
  init(_ component: Component) {
    first = component
  }

  /// A group of the candidates of `entry`, in their order.
  init(_ entry: ServiceEntry) {
    switch entry {
    case .single(let component):
      first = component
    case .multiple(let candidates):
      first = candidates.all[0]
      rest = Array(candidates.all.dropFirst())
    }
  }

  /// Whether only one component provides the key.
  var isSingle: Bool { rest.isEmpty }

  /// Every component, in the order they were added.
  var all: [Component] { [first] + rest }

  /// Whether `component` is in the group.
  func contains(_ component: Component) -> Bool {
    first === component || rest.contains { $0 === component }
  }

  /// Adds `component` after the others.
  mutating func append(_ component: Component) {
    rest.append(component)
  }

  /// Puts the components back in registration order.
  mutating func sortByOrder() {
    let sorted = all.sorted { $0.order < $1.order }
    self = ComponentGroup(sorted[0])
    rest = Array(sorted.dropFirst())
  }
}

extension Dictionary where Value == ComponentGroup {
  /// Adds `component` to the group of `key`, making the group if there is none.
  mutating func add(_ component: Component, for key: Key) {
    // The subscript's setter and the values' in-place update: the subscript's `modify`
    // allocates its frame on the heap for this value.
    if let index = index(forKey: key) {
      values[index].append(component)
    } else {
      self[key] = ComponentGroup(component)
    }
  }
}
