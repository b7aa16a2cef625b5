/// The postponed work of a resolution: the injections that break cycles, those that wait
/// for an instance under construction, and `postInit`, run once the graph is built.
extension DIResolutionContext {
  /// Runs the postponed injections, including those their own resolutions postpone.
  @inline(__always)
  mutating func finish() throws(DIError) {
    // Only a graph object holds postponed injections: most resolutions have none.
    guard handle.graph.hasObject else { return }
    try runPostponed()
  }

  @inline(never)
  mutating func runPostponed() throws(DIError) {
    guard let graph = handle.graph.object else { return }
    let request = request
    let outerPostponedBy = request.state.postponedBy
    let outerWork = request.state.postponedWork
    defer {
      request.state.postponedBy = outerPostponedBy
      request.state.postponedWork = outerWork
    }
    let postponer = handle.graph.postponer(in: handle.request)
    while let pending = graph.takePending(of: postponer) {
      let component = pending.component
      let outerRequester = requester
      requester = component.framework
      request.state.postponedBy = pending.postponedBy
      request.state.postponedWork = (pending.path, request.depth)
      defer { requester = outerRequester }
      // A `.prototype` component postponing for itself again, with nothing reusable built
      // since, would never end.
      if case .none = component.storage, let last = pending.postponedBy.last,
        pending.postponedBy.dropLast().contains(last)
      {
        throw DIError.endlessPostponement(path: pending.path)
      }
      do throws(DIError) {
        for index in pending.waiting {
          try component.injections[index].run(pending.instance.value, &self)
        }
        for injection in component.injections where injection.isCycleBreak {
          try injection.run(pending.instance.value, &self)
        }
        try component.postInit?(pending.instance.value)
      } catch {
        // Named by the path from what was asked to the instance the work is about.
        throw DIError.postponed(error, path: pending.path)
      }
    }
    // The postponed work is done: the cached instances it was about are complete.
    handle.settleOpenMakings(keep: true)
    if case .own = handle.graph.reading(in: handle.request) { publishMade(in: graph) }
  }

  /// Gives `graph`, which this resolution read, the `.objectGraph` instances this
  /// resolution and those part of it made, now complete: the graph keeps each unless
  /// another read gave it one first.
  private func publishMade(in graph: ObjectGraph) {
    let id = graph.id
    let base = handle.graph.base
    let made = handle.request.borrow {
      $0.state.withInlineGraphs { $0.instances(in: id, from: base) }
    }
    graph.keepFirst(made)
  }
}
