extension DIResolutionContext {
  /// The multiton key of `component`: its runtime arguments when it is the one the caller
  /// asked for, else those addressed to it by type (``DIArgument``), else none.
  func multitonKey(of component: Component) throws(DIError) -> MultitonCells.Key {
    var own = depth == 0 ? arguments : nil
    if own == nil { own = try addressedValues(for: component) }
    return try MultitonCells.Key.make(own ?? []).get()
  }

  /// The components providing `T` (under `tag`), in registration order; only those of
  /// the requester's framework when `inFramework`.
  func components(of type: Any.Type, tag: Any.Type?, inFramework: Bool) -> [Component] {
    let key = ServiceKey(type, tag: tag)
    let all = snapshot.collection(key) ?? []
    return inFramework ? all.filter { $0.framework == requester } : all
  }

  /// Checks that a request for `T` under `tag` has a single candidate now, so a delayed
  /// value of an unresolvable service fails where it is injected (and an optional one is
  /// nil) rather than at its first use. `arguments`: the types of the runtime arguments
  /// the delayed value will pass, which take part in the choice.
  func checkCandidate<T>(
    _ type: T.Type, tag: Any.Type?, arguments: RuntimeArguments? = nil
  ) throws(DIError) {
    let key = ServiceKey(T.self, tag: tag)
    if let entry = snapshot.lookUp(key) {
      _ = try choose(entry, for: T.self, tag: tag, arguments: arguments)
    } else if !(T.self is any DIParameterModifier.Type) {
      throw notRegistered(T.self, tag: tag)
    }
  }
}
