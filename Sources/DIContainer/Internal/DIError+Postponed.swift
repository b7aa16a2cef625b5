extension DIError {
  /// `error`, from postponed work about the instance at the end of `path` (the components
  /// under construction from what was asked to that instance, outermost first), with
  /// that path before its own.
  static func postponed(_ error: DIError, path: [Component.Name]) -> DIError {
    var error = error
    for step in path.reversed() {
      error.enter(String(describing: step.implementation), component: step.description)
    }
    return error
  }

  /// The cycle of postponed work that would come back forever: the last component of
  /// `path` postponed its work once before, where it appears earlier in `path`.
  ///
  /// The path shown goes from what was asked to that earlier place, with the detours
  /// that came back to a component left out, then round the loop to the last one: the
  /// loop named is the one that repeats, not another that the route went round before.
  static func endlessPostponement(path: [Component.Name]) -> DIError {
    let names = path.map(\.description)
    guard let last = names.last, let start = names.dropLast().lastIndex(of: last) else {
      return postponed(DIError(.cycle), path: path)
    }
    let route = withoutDetours(path[..<start], names: names[..<start])
    let loop = withoutDetours(
      path[start..<(path.count - 1)], names: names[start..<(path.count - 1)])
    return postponed(DIError(.cycle), path: route + loop + [path[path.count - 1]])
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
