/// One property or method injection of a component.
struct Injection: Sendable {
  /// Done after the whole graph of the request is built (`injection(cycle: true, …)`).
  let isCycleBreak: Bool
  /// What the injection asks for, in order.
  let dependencies: [DIRequest]
  /// Resolves the dependencies and hands them to the instance; for an `async` injection,
  /// fails: only ``runAsync`` can run it.
  let run: @Sendable (Any, inout DIResolutionContext) throws(DIError) -> Void
  /// The `async` injection's body (`injection { cat, food async in … }`), nil for a
  /// synchronous one.
  let asyncRun: (@Sendable (Any, AsyncParameters) async throws(DIError) -> Void)?

  /// A synchronous injection.
  init(
    isCycleBreak: Bool, dependencies: [DIRequest],
    run: @escaping @Sendable (Any, inout DIResolutionContext) throws(DIError) -> Void
  ) {
    self.isCycleBreak = isCycleBreak
    self.dependencies = dependencies
    self.run = run
    asyncRun = nil
  }

  /// An `async` injection: a synchronous request that runs it fails, saying to await it.
  init(
    isCycleBreak: Bool, dependencies: [DIRequest],
    asyncRun: @escaping @Sendable (Any, AsyncParameters) async throws(DIError) -> Void
  ) {
    self.isCycleBreak = isCycleBreak
    self.dependencies = dependencies
    self.asyncRun = asyncRun
    run = { _, _ throws(DIError) in throw DIError(.asyncInjection) }
  }

  /// Whether the injection must be awaited.
  var isAsync: Bool { asyncRun != nil }

  /// Runs the injection for an asynchronous request, resolving its dependencies through
  /// `parameters` (a synchronous one in an attempt of its own).
  func runAsync(_ instance: Any, _ parameters: AsyncParameters) async throws(DIError) {
    if let asyncRun { return try await asyncRun(instance, parameters) }
    try await parameters.resolving(planning: .requests(dependencies)) {
      (context) throws(DIError) in try run(instance, &context)
    }
  }
}
