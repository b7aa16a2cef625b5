extension Registry {
  /// Sets the lifetime of draft `index`; a `.custom(name:)` placeholder becomes the
  /// container's scope of that name (made with a ``DICacheStorage`` on first use), and a
  /// named ``DIScope`` becomes the scope of its name unless the name is taken.
  ///
  /// - Returns: A warning to log once the registry's lock is released, if any.
  mutating func setLifetime(_ lifetime: DILifetime, at index: Int) -> String? {
    var lifetime = lifetime
    var warning: String?
    if case .custom(let scope) = lifetime {
      if let known = scopes[scope.name] {
        if scope.isNameOnly {
          lifetime = .custom(known)
        } else if known !== scope {
          warning =
            "another scope named \(scope.name) is already known to this container;"
            + " .custom(name:) and clean(scope:) use the first one"
        }
      } else {
        let named = scope.isNameOnly ? DIScope(name: scope.name) : scope
        scopes[scope.name] = named
        lifetime = .custom(named)
      }
    }
    edit(at: index) { $0.lifetime = lifetime }
    return warning
  }

  /// The storage of a `.multiton` or `.custom` draft; nil for other lifetimes.
  static func scopedStorage(for draft: inout ComponentDraft) -> InstanceStorage? {
    switch draft.lifetime {
    case .multiton:
      let cells = draft.multiton ?? MultitonCells()
      draft.multiton = cells
      return .multiton(cells)
    case .custom(let scope):
      let cell =
        draft.scopedCell
        ?? ScopedCell(
          key: DIStorageKey(name: "\(draft.implementation) (\(draft.file):\(draft.line))"))
      draft.scopedCell = cell
      return .scoped(scope, cell)
    default:
      return nil
    }
  }
}
