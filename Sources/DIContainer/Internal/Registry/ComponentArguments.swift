/// The `arg` parameters of a component, kept apart from ``Component`` because most
/// components have none: the initializer's first, then the injections'.
final class ComponentArguments: Sendable {
  /// Their types, in the order they take runtime arguments.
  let types: [ObjectIdentifier]
  /// The same types, to match runtime arguments against (``Component/takes(_:)``).
  let parameters: [Any.Type]
  /// How many of them are the initializer's.
  let initializerCount: Int
  /// Whether one is not optional: one that cannot do without a runtime argument.
  let required: Bool

  private init(_ arguments: [DIRequest], initializerCount: Int) {
    types = arguments.map { ObjectIdentifier($0.type) }
    parameters = arguments.map(\.type)
    self.initializerCount = initializerCount
    required = arguments.contains { !($0.type is any NilArgument.Type) }
  }

  /// The `arg` parameters of `draft`; nil when it has none (checked before an object is
  /// allocated: most components have none).
  static func of(_ draft: borrowing ComponentDraft) -> ComponentArguments? {
    // Most components take none: answered with no array built.
    guard
      draft.parameters.contains(where: \.isArgument)
        || draft.injections.contains(where: { $0.dependencies.contains(where: \.isArgument) })
    else { return nil }
    let arguments = (draft.parameters + draft.injections.flatMap(\.dependencies))
      .filter(\.isArgument)
    return ComponentArguments(
      arguments, initializerCount: draft.parameters.count(where: \.isArgument))
  }
}
