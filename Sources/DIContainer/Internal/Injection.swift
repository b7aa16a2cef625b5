/// One property or method injection of a component.
struct Injection: Sendable {
  /// Done after the whole graph of the request is built (`injection(cycle: true, …)`).
  let isCycleBreak: Bool
  /// What the injection asks for, in order.
  let dependencies: [DIRequest]
  /// Resolves the dependencies and hands them to the instance.
  let run: @Sendable (Any, inout DIResolutionContext) throws(DIError) -> Void
}

/// A key path captured by an injection closure.
///
/// Key paths are immutable values the library only reads; Swift does not yet mark every
/// key path `Sendable`, so this box states it.
struct SendableKeyPath<Root, Value>: @unchecked Sendable {
  let keyPath: ReferenceWritableKeyPath<Root, Value>
}
