extension DIResolutionContext {
  /// The component whose injections `inject(into:)` runs on an instance of `T`: the one
  /// chosen for `T`, as a request for `T` would choose it.
  mutating func injectionTarget<T>(_ type: T.Type) throws(DIError) -> Component {
    guard let entry = snapshot.lookUp(ServiceKey(T.self)) else {
      try checkNotShutDown(T.self)
      throw notRegistered(T.self, tag: nil)
    }
    return try choose(entry, for: T.self, tag: nil)
  }
}

extension DIError {
  /// This error, with the request for `type` that `component` answered entered at the
  /// front of its path.
  func entering(_ type: Any.Type, _ component: Component) -> DIError {
    var error = self
    error.enter(String(describing: type), component: component.summary)
    return error
  }
}
