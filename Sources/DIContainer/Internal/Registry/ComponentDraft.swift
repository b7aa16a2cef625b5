/// A registration as the builder edits it, under the registry's lock; a compiled
/// ``Component`` keeps it until the next edit.
struct ComponentDraft: Sendable {
  let implementation: Any.Type
  let file: StaticString
  let line: UInt
  let framework: DIModuleID?
  let part: DIModuleID?
  let order: Int
  var factory: Factory?
  var asyncFactory: AsyncFactory? = nil
  var parameters: [DIRequest]
  /// The implementation type first (unless only tagged, see
  /// ``ServiceList/provide(_:)``), then every `as(_:)`.
  var services: ServiceList
  var lifetime: DILifetime = .prototype
  var injections: [Injection] = []
  /// What to run after the injections of a new instance (`postInit`), in call order.
  var postInit: [InstanceStep] = []
  /// What to run when the library drops an instance (`onClean`).
  var onClean: [InstanceStep] = []
  var isDefault = false
  var isTest = false
  var isRoot = false
  /// The cell that keeps this registration's instances, made on first need.
  var cell: InstanceCell?
  /// The instances of a `.multiton` lifetime, made on first need.
  var multiton: MultitonCells?
  /// The key and creation lock of a `.custom` lifetime, made on first need.
  var scopedCell: ScopedCell?
  /// The identity of a `.scoped` component in every request scope, made on first need.
  var requestKey: RequestScopedKey?
}

extension ComponentDraft {
  /// Whether one of its injections or `postInit` steps is `async`.
  var completesAsynchronously: Bool {
    injections.contains(where: \.isAsync) || postInit.contains(where: \.isAsync)
  }
}
