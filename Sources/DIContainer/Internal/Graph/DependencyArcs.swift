/// The dependencies that build instances now, as arcs between component ids: one arc per
/// target of every edge that is neither a runtime argument nor delayed (`Lazy`,
/// `Provider`). Compact arrays, so cycle search is linear and allocates little.
///
/// `package` so tests can run the cycle search on graphs far larger than they can
/// register (one type per component).
package struct DependencyArcs {
  /// How an arc is followed at run time.
  package enum Kind: Sendable {
    /// An initializer parameter: followed before the instance exists.
    case initializer
    /// A plain injection: followed after the instance exists (and is published, unless
    /// it is `.prototype`).
    case injection
    /// An `injection(cycle: true, …)`: followed after the whole graph is built.
    case cycleBreak
  }

  /// The arcs of component `i` are `starts[i]..<starts[i + 1]`.
  package let starts: [Int]
  package let targets: [Int]
  package let kinds: [Kind]
  /// Whether each arc is a `many` one: it never comes back to a component under
  /// construction, which `many` leaves out (a `MainLogger` collecting every `Logger`, itself
  /// one, gets the others). So it closes no loop: a loop needs another arc to come back.
  package let collects: [Bool]

  /// Arcs given as arrays: those of node `i` are `starts[i]..<starts[i + 1]`; none
  /// collects unless `collects` says so.
  package init(starts: [Int], targets: [Int], kinds: [Kind], collects: [Bool]? = nil) {
    precondition(starts.last == targets.count && targets.count == kinds.count)
    precondition(collects.map { $0.count == targets.count } ?? true)
    self.starts = starts
    self.targets = targets
    self.kinds = kinds
    self.collects = collects ?? Array(repeating: false, count: targets.count)
  }

  init(_ graph: DIGraph) {
    var starts: [Int] = []
    var targets: [Int] = []
    var kinds: [Kind] = []
    var collects: [Bool] = []
    starts.reserveCapacity(graph.components.count + 1)
    targets.reserveCapacity(graph.edges.count)
    kinds.reserveCapacity(graph.edges.count)
    collects.reserveCapacity(graph.edges.count)
    for component in graph.components {
      starts.append(targets.count)
      for edge in graph.edges(from: component.id) where edge.isEager {
        let kind: Kind
        if edge.modifiers.contains(.cycle) {
          kind = .cycleBreak
        } else if case .injection = edge.site {
          kind = .injection
        } else {
          kind = .initializer
        }
        for target in edge.targets {
          targets.append(target)
          kinds.append(kind)
          collects.append(edge.isMany)
        }
      }
    }
    starts.append(targets.count)
    self.starts = starts
    self.targets = targets
    self.kinds = kinds
    self.collects = collects
  }

  package var count: Int { starts.count - 1 }

  /// The strongly connected components of the subgraph made of the nodes `includes`
  /// keeps and the arcs `follows` keeps (given the arc's index and its source).
  ///
  /// Tarjan's algorithm with an explicit stack: linear, and no recursion however deep the
  /// graph is.
  package func stronglyConnected(
    includes: (Int) -> Bool, follows: (_ arc: Int, _ source: Int) -> Bool
  ) -> StronglyConnected {
    let count = count
    var index = [Int](repeating: -1, count: count)
    var low = [Int](repeating: 0, count: count)
    var onStack = [Bool](repeating: false, count: count)
    var selfLoop = [Bool](repeating: false, count: count)
    var group = [Int](repeating: -1, count: count)
    var groups: [[Int]] = []
    var stack: [Int] = []
    var calls: [(node: Int, arc: Int)] = []
    var counter = 0
    /// Numbers `node`, first reached now, and goes into it.
    func enter(_ node: Int) {
      index[node] = counter
      low[node] = counter
      counter += 1
      stack.append(node)
      onStack[node] = true
      calls.append((node, starts[node]))
    }

    for root in 0..<count where includes(root) && index[root] == -1 {
      enter(root)
      while let (node, arc) = calls.last {
        if arc < starts[node + 1] {
          calls[calls.count - 1].arc = arc + 1
          let target = targets[arc]
          guard includes(target), follows(arc, node) else { continue }
          if target == node { selfLoop[node] = true }
          if index[target] == -1 {
            enter(target)
          } else if onStack[target] {
            low[node] = min(low[node], index[target])
          }
          continue
        }
        calls.removeLast()
        if let parent = calls.last?.node { low[parent] = min(low[parent], low[node]) }
        guard low[node] == index[node] else { continue }
        var members: [Int] = []
        while let member = stack.popLast() {
          onStack[member] = false
          group[member] = groups.count
          members.append(member)
          if member == node { break }
        }
        groups.append(members)
      }
    }
    return StronglyConnected(group: group, groups: groups, selfLoop: selfLoop)
  }

  /// The shortest chain of kept arcs from `start` to `end` (at least one arc, so
  /// `start == end` finds a loop), staying inside `start`'s group: `[start, …, end]`;
  /// `[start]` when there is none. Its last arc comes back to `end` (it is not a `many`
  /// one, see ``collects``) unless `anyLastArc`: `end` is under construction when it is
  /// reached, unless the chain only leads to the arc that closes a loop elsewhere.
  func path(
    from start: Int, to end: Int, in components: StronglyConnected,
    follows: (_ arc: Int, _ source: Int) -> Bool, anyLastArc: Bool = false
  ) -> [Int] {
    let group = components.group[start]
    var parent: [Int: Int] = [:]
    var queue = [start]
    var next = 0
    while next < queue.count {
      let node = queue[next]
      next += 1
      for arc in starts[node]..<starts[node + 1] where follows(arc, node) {
        let target = targets[arc]
        guard components.group[target] == group else { continue }
        if target == end, anyLastArc || !collects[arc] {
          var path = [end, node]
          var step = node
          while step != start, let previous = parent[step] {
            path.append(previous)
            step = previous
          }
          return path.reversed()
        }
        if target != start, target != end, parent[target] == nil {
          parent[target] = node
          queue.append(target)
        }
      }
    }
    return [start]
  }
}

extension DependencyArcs {
  /// A loop of `group` (a group of `components`) through kept arcs: `[a, …, a]`, from its
  /// first member when a loop comes back there; nil when no kept arc inside the group
  /// comes back (every one is a `many` arc), so it is no loop at run time.
  func loop(
    in group: [Int], of components: StronglyConnected,
    follows: (_ arc: Int, _ source: Int) -> Bool
  ) -> [Int]? {
    let first = path(from: group[0], to: group[0], in: components, follows: follows)
    if first.count > 1 { return first }
    for source in group {
      for arc in starts[source]..<starts[source + 1] where !collects[arc] && follows(arc, source) {
        let target = targets[arc]
        guard components.group[target] == components.group[source] else { continue }
        if target == source { return [source, source] }
        // `source` is reached before this arc closes the loop: any arc may lead there.
        let back = path(
          from: target, to: source, in: components, follows: follows, anyLastArc: true)
        if back.count > 1 { return back + [target] }
      }
    }
    return nil
  }

  /// The loops of `components` (groups found with `follows`), each as ``loop(in:of:follows:)``
  /// finds it, by their group's first member: groups whose only loops are made of `many`
  /// arcs are left out.
  func loops(
    of components: StronglyConnected, follows: (_ arc: Int, _ source: Int) -> Bool
  ) -> [(group: [Int], loop: [Int])] {
    components.cycles.compactMap { group in
      loop(in: group, of: components, follows: follows).map { (group, $0) }
    }
  }
}

/// The strongly connected components found by ``DependencyArcs/stronglyConnected``.
package struct StronglyConnected {
  /// The group of each node; -1 for nodes left out.
  package let group: [Int]
  /// The members of each group, in no particular order.
  package let groups: [[Int]]
  /// Whether a node has a kept arc to itself.
  package let selfLoop: [Bool]

  /// Whether group `index` holds a loop: two members or more, or one that needs itself.
  func isCycle(_ index: Int) -> Bool {
    groups[index].count > 1 || selfLoop[groups[index][0]]
  }

  /// The groups that hold a loop, each sorted, ordered by their first member.
  package var cycles: [[Int]] {
    groups.indices.filter(isCycle).map { groups[$0].sorted() }.sorted { $0[0] < $1[0] }
  }
}
