extension DIContainer {
  /// The dependency graph of the registrations made so far, to validate, search for
  /// cycles or draw.
  ///
  /// - Returns: A value that later registrations do not change.
  ///
  /// ```swift
  /// let graph = container.makeGraph()
  /// try graph.validate()
  /// ```
  public func makeGraph() -> DIGraph {
    DIGraph(snapshot: snapshot)
  }
}
