extension DIError {
  /// `error`, from postponed work about the instance at the end of `path` (the components
  /// under construction from what was asked to that instance, outermost first), with
  /// that path before its own.
  static func postponed(_ error: DIError, path: PostponedPath) -> DIError {
    var error = error
    for (index, step) in path.steps.enumerated().reversed() {
      error.enter(String(describing: step.implementation), component: step.description)
      if index == 1, path.isElided { error.enter("…", component: nil) }
    }
    return error
  }

  /// The cycle of postponed work that would come back forever: the last component of
  /// `path` postponed its work once before, where it appears earlier in `path`.
  ///
  /// The path shown goes from what was asked to that earlier place, with the detours
  /// that came back to a component left out, then round the loop to the last one: the
  /// loop named is the one that repeats, not another that the route went round before.
  static func endlessPostponement(path: PostponedPath) -> DIError {
    let steps = path.steps
    let names = steps.map(\.description)
    guard let last = names.last, let start = names.dropLast().lastIndex(of: last) else {
      return postponed(DIError(.cycle), path: path)
    }
    let route = withoutDetours(steps[..<start], names: names[..<start])
    let loop = withoutDetours(
      steps[start..<(steps.count - 1)], names: names[start..<(steps.count - 1)])
    // The route and the loop keep each step once: no longer than the path they come from,
    // and a gap it had stays after the first step.
    var shown = PostponedPath(isElided: path.isElided)
    for step in route + loop + [steps[steps.count - 1]] { shown.append(step) }
    return postponed(DIError(.cycle), path: shown)
  }

  /// `steps` with every stretch that comes back to a step removed, so that each step
  /// appears once: `A → B → C → B → D` is `A → B → D`.
  private static func withoutDetours(
    _ steps: ArraySlice<Component.Name>, names: ArraySlice<String>
  ) -> [Component.Name] {
    var kept: [Component.Name] = []
    var keptNames: [String] = []
    for (step, name) in zip(steps, names) {
      if let earlier = keptNames.firstIndex(of: name) {
        kept.removeSubrange(earlier...)
        keptNames.removeSubrange(earlier...)
      }
      kept.append(step)
      keptNames.append(name)
    }
    return kept
  }
}
