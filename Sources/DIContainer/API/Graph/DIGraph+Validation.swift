extension DIGraph {
  /// Every problem of the graph: errors (a request would fail) and warnings.
  ///
  /// Errors: a needed component registered without an initializer; no candidate for a
  /// dependency that is not optional; several candidates and none preferred for the
  /// asking component's framework (with every candidate's `file:line`); a component with
  /// `arg` parameters needed by another one; a cycle that cannot be built (see
  /// ``findCycles()``); a captive dependency, where a longer-lived component (`.single`,
  /// `.perApplication`, `.perContainer`, `.perFramework`, `.perPart`, `.multiton`,
  /// `.custom`) needs a `.scoped` one other than through a `Lazy` or `Provider` (directly
  /// or through `.prototype`/`.objectGraph` components). An optional dependency with ambiguous candidates is a warning (it
  /// silently gets nil).
  ///
  /// When some component is marked ``DIComponentBuilder/root()``, the check starts from
  /// the roots and the `.single` components (which ``DIContainer/initializeSingletonObjects()``
  /// makes): the components they reach are checked, and every other one is a warning.
  /// Without roots, every component is checked.
  ///
  /// The work is linear in components plus edges (plus, for a service with several
  /// candidates, their number, as at run time).
  ///
  /// - Returns: The problems, errors first, each group in registration order.
  ///
  /// ```swift
  /// for problem in container.makeGraph().findProblems() { print(problem) }
  /// ```
  public func findProblems() -> [Problem] {
    let checked = reachableFromRoots()
    var errors: [Problem] = []
    var warnings: [Problem] = []
    var neededBy: [Int: [Int]] = [:]
    let takesArguments = components.map { component in
      edges(from: component.id).contains { $0.modifiers.contains(.argument) }
    }
    for edge in edges where checked[edge.from] && !edge.modifiers.contains(.argument) {
      if let problem = choiceProblem(edge) {
        if problem.severity == .error { errors.append(problem) } else { warnings.append(problem) }
      }
      for target in edge.targets {
        if !components[target].hasInitializer { neededBy[target, default: []].append(edge.from) }
        if takesArguments[target] && !edge.modifiers.contains(.delayed) {
          errors.append(argumentProblem(edge, target: target))
        }
        if components[target].isAsync, let problem = asyncProblem(edge, target: target) {
          if problem.severity == .error { errors.append(problem) } else { warnings.append(problem) }
        }
      }
    }
    for component in components {
      guard let askers = neededBy[component.id] else { continue }
      errors.append(initializerProblem(component, neededBy: askers))
    }
    errors += cycleProblems(checked: checked)
    errors += captiveProblems(checked: checked)
    if hasRoots {
      // A parent's component as its parent makes it is there for what reaches it only.
      for component in components where !checked[component.id] && !component.isMadeByParent {
        warnings.append(
          Problem(
            kind: .unreachable, severity: .warning, components: [component.id],
            message: "\(component.summary) is not reachable from any .root() component"
              + " (mark it .root() if it is resolved directly, or remove it)."))
      }
    }
    return errors + warnings
  }

  /// Whether the graph has no errors; logs every problem (errors at
  /// ``DILogLevel/error``, warnings at ``DILogLevel/warning``) through
  /// ``DISetting/Log``.
  ///
  /// - Returns: `true` when no request would fail; warnings do not count.
  ///
  /// ```swift
  /// guard container.makeGraph().checkIsValid() else { fatalError("invalid graph") }
  /// ```
  @discardableResult
  public func checkIsValid() -> Bool {
    let problems = findProblems()
    for problem in problems {
      DISetting.Log.log(problem.severity == .error ? .error : .warning, problem.message)
    }
    return !problems.contains { $0.severity == .error }
  }

  /// Throws a report of every problem when the graph has errors; warnings alone do not
  /// throw.
  ///
  /// - Throws: ``DIGraphValidationError`` listing every problem, errors first.
  ///
  /// ```swift
  /// @Test func graphIsValid() throws {
  ///   try AppWiring.makeContainer().makeGraph().validate()
  /// }
  /// ```
  public func validate() throws(DIGraphValidationError) {
    let problems = findProblems()
    if problems.contains(where: { $0.severity == .error }) {
      throw DIGraphValidationError(problems: problems)
    }
  }

  /// Which components are checked: those the roots (and `.single` components) reach
  /// through any dependency, delayed ones included; all when there is no root.
  func reachableFromRoots() -> [Bool] {
    guard hasRoots else { return [Bool](repeating: true, count: components.count) }
    var reached = [Bool](repeating: false, count: components.count)
    var queue: [Int] = []
    for component in components {
      let isSingle: Bool
      if case .single = component.lifetime { isSingle = true } else { isSingle = false }
      guard component.isRoot || isSingle else { continue }
      reached[component.id] = true
      queue.append(component.id)
    }
    var next = 0
    while next < queue.count {
      let id = queue[next]
      next += 1
      for edge in edges(from: id) {
        for target in edge.targets where !reached[target] {
          reached[target] = true
          queue.append(target)
        }
      }
    }
    return reached
  }

  /// The problem of an edge whose choice leaves no target, if that is one.
  private func choiceProblem(_ edge: Edge) -> Problem? {
    guard edge.targets.isEmpty, !edge.isMany else { return nil }
    let optional = edge.modifiers.contains(.optional)
    if edge.candidates.isEmpty && optional { return nil }
    let asker = components[edge.from]
    let request = "\(asker.summary) needs \(edge.requested) (\(edge.site))"
    if edge.candidates.isEmpty {
      return Problem(
        kind: .notRegistered, severity: .error, components: [edge.from],
        message: "\(request), and no component provides it.")
    }
    let frameworkNote = asker.framework.map { " for framework \($0)" } ?? ""
    let candidates = edge.candidates.map { components[$0].summary }.joined(separator: ", ")
    return Problem(
      kind: .ambiguous, severity: optional ? .warning : .error,
      components: [edge.from] + edge.candidates,
      message: "\(request): \(edge.candidates.count) candidates and none is preferred"
        + "\(frameworkNote)\(optional ? ", so it always gets nil" : "")"
        + " (mark one .default(), or use a tag): \(candidates).")
  }

  /// The problem of `edge`, which reaches the async component `target`, if its path is
  /// synchronous: a `Lazy`/`Provider` (an error) or an injection (a warning).
  private func asyncProblem(_ edge: Edge, target: Int) -> Problem? {
    let asker = components[edge.from].summary
    let asyncOne = components[target].summary
    if edge.modifiers.contains(.delayed), !edge.modifiers.contains(.awaiting) {
      return Problem(
        kind: .synchronousPathToAsync, severity: .error, components: [edge.from, target],
        message: "\(asker) takes a Lazy/Provider of \(asyncOne) (\(edge.site)), whose factory"
          + " is async; its value cannot await: take an AsyncLazy/AsyncProvider instead.")
    }
    guard case .injection = edge.site else { return nil }
    return Problem(
      kind: .synchronousPathToAsync, severity: .warning, components: [edge.from, target],
      message: "\(asker) injects \(asyncOne) (\(edge.site)), whose factory is async: the"
        + " injection works only in requests made with resolveAsync() (or once it is made).")
  }

  private func argumentProblem(_ edge: Edge, target: Int) -> Problem {
    Problem(
      kind: .missingArgument, severity: .error, components: [target, edge.from],
      message: "\(components[target].summary) takes runtime arguments (arg), but"
        + " \(components[edge.from].summary) needs it (\(edge.site)), where no argument"
        + " reaches it; resolve it with resolve(arg:) or take it through a Provider.")
  }

  private func initializerProblem(_ component: Component, neededBy askers: [Int]) -> Problem {
    var names = askers.prefix(3).map { components[$0].summary }.joined(separator: ", ")
    if askers.count > 3 { names += " and \(askers.count - 3) more" }
    return Problem(
      kind: .noInitializer, severity: .error, components: [component.id] + askers,
      message: "\(component.summary) was registered without an initializer"
        + " (register(\(component.name).self)), but \(names) needs it; register an"
        + " initializer, or fill it with inject(into:) outside the container.")
  }
}
