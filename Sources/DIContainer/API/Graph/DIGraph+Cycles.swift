extension DIGraph {
  /// The groups of components that depend on one another in a loop.
  ///
  /// Each group is strongly connected (every member reaches every other through
  /// initializer parameters and injections) and sorted by registration order; a group of
  /// two or three components is one loop. Delayed dependencies (`Lazy`, `Provider`) and
  /// runtime arguments do not form loops, and neither does `many` alone: it leaves out
  /// the components under construction, so a `MainLogger(loggers: many($0))` that is a
  /// `Logger` itself is no loop. Whether a loop can be built is for ``validate()`` to
  /// say; this lists them all.
  ///
  /// - Returns: The groups, ordered by their first component.
  ///
  /// ```swift
  /// container.register(Parent.init).lifetime(.objectGraph).injection(cycle: true, \.child)
  /// container.register(Child.init).lifetime(.objectGraph)
  /// let cycles = container.makeGraph().findCycles()
  /// #expect(cycles.map { $0.map(\.name) } == [["Parent", "Child"]])
  /// ```
  @discardableResult
  public func findCycles() -> [[Component]] {
    let arcs = DependencyArcs(self)
    let every: (Int, Int) -> Bool = { _, _ in true }
    return arcs.loops(
      of: arcs.stronglyConnected(includes: { _ in true }, follows: every), follows: every
    )
    .map { $0.group.map { components[$0] } }
  }

  /// The loops that cannot be built, among the components `checked` keeps.
  ///
  /// The rule, which is how resolution behaves (see the article on cycles):
  /// 1. A loop of `.prototype` components only never ends: each turn makes new instances.
  /// 2. A loop followed right away (initializer parameters and plain injections, without
  ///    `cycle: true`) comes back to a component still being built. It closes only at a
  ///    component that is not `.prototype` and is in its injections (its instance is
  ///    published before they run): such a loop needs a plain injection out of an
  ///    `.objectGraph` or cached component.
  /// 3. On such a loop, a cached component (any lifetime that keeps its instance) asked
  ///    for again while its own initializer runs is an error: it fails whenever the loop
  ///    is entered at that component.
  /// 4. `injection(cycle: true, …)` runs after the whole graph is built, so it closes any
  ///    loop that also goes through a non-`.prototype` component (rule 1 still applies).
  /// 5. `many` leaves out the components under construction: a loop comes back only
  ///    through another kind of arc (``DependencyArcs/collects``).
  func cycleProblems(checked: [Bool]) -> [Problem] {
    let arcs = DependencyArcs(self)
    let storage = components.map(\.registered.storage)
    func isPrototype(_ node: Int) -> Bool {
      if case .none = storage[node] { return true }
      return false
    }
    func isCached(_ node: Int) -> Bool {
      switch storage[node] {
      case .cell, .requestScoped: return true
      default: return false
      }
    }
    var problems: [Problem] = []

    // Rule 1: loops of prototypes.
    let everyArc: (Int, Int) -> Bool = { _, _ in true }
    let prototypes = arcs.stronglyConnected(includes: isPrototype, follows: everyArc)
    for (group, loop) in arcs.loops(of: prototypes, follows: everyArc) where checked[group[0]] {
      problems.append(
        cycle(
          loop,
          "every component on it is .prototype, so each turn makes new instances; give one"
            + " of them the .objectGraph or a cached lifetime"))
    }

    // Rule 2: immediate loops with no plain injection out of a published instance.
    let immediate: (Int, Int) -> Bool = { arc, _ in arcs.kinds[arc] != .cycleBreak }
    let unclosed: (Int, Int) -> Bool = { arc, source in
      switch arcs.kinds[arc] {
      case .initializer: true
      case .injection: isPrototype(source)
      case .cycleBreak: false
      }
    }
    let everyLoop = arcs.stronglyConnected(includes: { _ in true }, follows: immediate)
    var reported = Set<Int>()
    let open = arcs.stronglyConnected(includes: { _ in true }, follows: unclosed)
    for (group, loop) in arcs.loops(of: open, follows: unclosed)
    where checked[group[0]] && !group.allSatisfy(isPrototype) {
      reported.insert(everyLoop.group[group[0]])
      problems.append(
        cycle(
          loop,
          "each step is an initializer parameter or an injection into a .prototype"
            + " component, so the loop comes back before any instance exists; inject one"
            + " link with injection(cycle: true, …) or a Lazy/Provider"))
    }

    // Rule 3: a cached component asked for again during its own initializer.
    for source in 0..<arcs.count where isCached(source) && checked[source] {
      let group = everyLoop.group[source]
      guard !reported.contains(group) else { continue }
      for arc in arcs.starts[source]..<arcs.starts[source + 1] where arcs.kinds[arc] == .initializer
      {
        let target = arcs.targets[arc]
        guard everyLoop.group[target] == group else { continue }
        // Back to `source` through an arc that does not leave it out (`many` would).
        let loop: [Int]
        if target == source {
          guard !arcs.collects[arc] else { continue }
          loop = [source, source]
        } else {
          let rest = arcs.path(from: target, to: source, in: everyLoop, follows: immediate)
          guard rest.count > 1 else { continue }
          loop = [source] + rest
        }
        reported.insert(group)
        problems.append(
          cycle(
            loop,
            "the cached \(components[source].name) is asked for again while its initializer"
              + " runs (it fails whenever the loop starts there); take"
              + " \(components[target].name) with injection(cycle: true, …) or a Lazy/Provider"))
        break
      }
    }
    return problems
  }

  /// A cycle problem about `loop` (`[a, b, …, a]`).
  private func cycle(_ loop: [Int], _ reason: String) -> Problem {
    let path = loop.map { components[$0].name }.joined(separator: " → ")
    let members = loop.dropLast().map { components[$0].summary }.joined(separator: ", ")
    return Problem(
      kind: .cycle, severity: .error, components: Array(loop.dropLast()),
      message: "the cycle \(path) cannot be built: \(reason) (registrations: \(members)).")
  }
}
