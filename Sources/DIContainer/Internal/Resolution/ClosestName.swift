/// The known name closest to a mistyped one, for warnings: `Sesion` → `Session`.
enum ClosestName {
  /// The name of `known` with the fewest edits from `name`, when it is close enough to be
  /// a likely typo (at most a third of its length, at least 2 edits allowed); nil when none
  /// is.
  static func to(_ name: String, in known: some Sequence<String>) -> String? {
    let target = Array(name.lowercased())
    var best: (name: String, distance: Int)?
    for candidate in known {
      let distance = editDistance(target, Array(candidate.lowercased()))
      if distance < best?.distance ?? .max { best = (candidate, distance) }
    }
    guard let best, best.distance <= max(2, target.count / 3) else { return nil }
    return best.name
  }

  /// Levenshtein distance: insertions, deletions and substitutions.
  private static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
    var previous = Array(0...b.count)
    for (i, x) in a.enumerated() {
      var current = [i + 1]
      for (j, y) in b.enumerated() {
        current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
      }
      previous = current
    }
    return previous[b.count]
  }
}
