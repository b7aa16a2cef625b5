/// What follows the initializer of a component with an `async` injection or `postInit`:
/// its injections in order (the cycle-breaking ones last), then its `postInit` steps,
/// awaiting the async ones. Such a component is made whole by an asynchronous request,
/// like one with an async factory.
final class AsyncCompletion: Sendable {
  let implementation: Any.Type
  let injections: [Injection]
  let postInit: [InstanceStep]

  private init(_ draft: borrowing ComponentDraft) {
    implementation = draft.implementation
    injections =
      draft.injections.filter { !$0.isCycleBreak } + draft.injections.filter(\.isCycleBreak)
    postInit = draft.postInit
  }

  /// The completion of `draft`, if one of its injections or `postInit` steps is `async`
  /// (checked before an object is allocated: most components have none).
  static func of(_ draft: borrowing ComponentDraft) -> AsyncCompletion? {
    guard draft.completesAsynchronously else { return nil }
    return AsyncCompletion(draft)
  }

  /// Runs the injections and `postInit` steps on `instance`.
  func run(on instance: Any, _ parameters: AsyncParameters) async throws(DIError) {
    for injection in injections {
      try await injection.runAsync(instance, parameters)
    }
    for step in postInit {
      do {
        switch step {
        case .sync(let run): try run(instance)
        case .async(let run): try await run(instance)
        }
      } catch {
        throw DIError(thrownBy: implementation, error)
      }
    }
  }

  /// The async factory of the component: `make`, then this completion.
  func factory(making make: @escaping AsyncFactory) -> AsyncFactory {
    { (parameters) async throws(DIError) -> Any in
      let instance = try await make(parameters)
      try await self.run(on: instance, parameters)
      return instance
    }
  }
}
