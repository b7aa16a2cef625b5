extension DIGraph {
  /// The captive dependencies: a longer-lived component (`.single`, `.perApplication`,
  /// `.perContainer`, `.perFramework`, `.perPart`, `.multiton`, `.custom`) that needs a
  /// `.scoped` one, directly or through `.prototype` and `.objectGraph` components, other
  /// than through a `Lazy` or `Provider`. It would keep the `.scoped` instance of the
  /// first request scope that made it after that scope closed, and hand it to every
  /// later request. (A delayed edge is not counted: a `Lazy` or `Provider` resolves in the
  /// scope it was made in and fails loudly once that scope is closed.)
  func captiveProblems(checked: [Bool]) -> [Problem] {
    var problems: [Problem] = []
    for holder in components where checked[holder.id] && Self.outlivesRequests(holder.lifetime) {
      guard let path = scopedPath(from: holder.id) else { continue }
      let captive = components[path[path.count - 1]]
      let route = path.map { components[$0].name }.joined(separator: " → ")
      problems.append(
        Problem(
          kind: .captiveDependency, severity: .error, components: [holder.id, captive.id],
          message: "captive dependency: \(holder.summary), which is"
            + " .\(holder.lifetime.name), needs the .scoped \(captive.summary)"
            + " (\(route)); it would keep the instance of the first request scope after"
            + " that scope closes. Make \(holder.name) .scoped (or .prototype), or pass it"
            + " the request's object per call."))
    }
    return problems
  }

  /// Whether a lifetime keeps its instance beyond one request scope.
  static func outlivesRequests(_ lifetime: DILifetime) -> Bool {
    switch lifetime {
    case .single, .perApplication, .perContainer, .perFramework, .perPart, .multiton, .custom:
      true
    case .prototype, .objectGraph, .scoped:
      false
    }
  }

  /// The shortest path from `start` to a `.scoped` component through non-delayed
  /// dependencies, passing only through `.prototype` and `.objectGraph` components (made
  /// anew for the holder).
  private func scopedPath(from start: Int) -> [Int]? {
    var previous: [Int: Int] = [start: start]
    var queue = [start]
    var next = 0
    while next < queue.count {
      let node = queue[next]
      next += 1
      for edge in edges(from: node) where !edge.modifiers.contains(.delayed) {
        for target in edge.targets where previous[target] == nil {
          previous[target] = node
          switch components[target].lifetime {
          case .scoped:
            var path = [target]
            var step = target
            while step != start {
              step = previous[step]!
              path.append(step)
            }
            return path.reversed()
          case .prototype, .objectGraph:
            queue.append(target)
          default:
            break
          }
        }
      }
    }
    return nil
  }
}
