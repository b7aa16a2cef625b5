internal import DIContainer

/// Asks for every component of a service registered by the requester's own framework:
/// `manyInFramework($0)` in an initializer or injection closure.
///
/// Candidates come in registration order, only from the framework of the component being
/// made (its innermost framework, not the ones it imports or appended). Asked from
/// outside every framework, it collects the components registered outside every framework.
///
/// ```swift
/// container.register { Router(routes: manyInFramework($0)) }
/// let routes: [Route] = manyInFramework(container.resolve(from: NewsFramework.self))
/// ```
public struct DIManyInFramework<T> {
  /// The resolved instances, in registration order.
  ///
  /// ```swift
  /// let routes: DIManyInFramework<Route> = container.resolve(from: NewsFramework.self)
  /// print(routes.values.count)
  /// ```
  public let values: [T]

  package init(values: [T]) {
    self.values = values
  }
}

/// The instances of every component of a service in the requester's framework.
///
/// - Parameter many: Inferred from the context; pass `$0` or
///   `container.resolve(from: F.self)`.
/// - Returns: The instances, in registration order.
///
/// ```swift
/// container.register { Router(routes: manyInFramework($0)) }
/// ```
public func manyInFramework<T>(_ many: DIManyInFramework<T>) -> [T] {
  many.values
}

extension DIManyInFramework: ManyModifier {
  package static var inFramework: Bool { true }
}
