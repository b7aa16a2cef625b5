/// Asks for every component of a service: `many($0)` in an initializer or injection closure.
///
/// Candidates come in registration order and from every framework.
///
/// ```swift
/// container.register { MainLogger(loggers: many($0)) }
/// let animals: [Animal] = many(container.resolve())
/// ```
public struct DIMany<T> {
  /// The resolved instances.
  ///
  /// ```swift
  /// let all: DIMany<Animal> = container.resolve()
  /// print(all.values.count)
  /// ```
  public let values: [T]
}

/// Asks for a service under a tag: `by(tag: Indoor.self, on: $0)`.
///
/// ```swift
/// container.register { House(pet: by(tag: Indoor.self, on: $0)) }
/// let pet: Pet = by(tag: Indoor.self, on: container.resolve())
/// ```
public struct DIByTag<Tag, T> {
  /// The resolved instance.
  ///
  /// ```swift
  /// let indoor: DIByTag<Indoor, Pet> = container.resolve()
  /// let pet = indoor.value
  /// ```
  public let value: T
}

/// Takes a parameter from the runtime arguments of `resolve(arg:)` / `resolve(args:)`.
///
/// Arguments go, in order, to the `arg` parameters of the component asked for (its
/// initializer first, then its injections).
///
/// ```swift
/// container.register { Cat(name: arg($0), bowl: $1) }
/// let cat: Cat = container.resolve(arg: "Mimi")
/// ```
public struct DIArg<T> {
  /// The argument.
  ///
  /// ```swift
  /// container.register { (name: DIArg<String>) in Cat(name: name.value) }
  /// ```
  public let value: T
}

/// The instances of every component of a service.
///
/// - Parameter many: Inferred from the context; pass `$0` or `container.resolve()`.
/// - Returns: The instances, in registration order.
///
/// ```swift
/// let animals: [Animal] = many(container.resolve())
/// ```
public func many<T>(_ many: DIMany<T>) -> [T] {
  many.values
}

/// The instance of a service registered under `tag`.
///
/// - Parameters:
///   - tag: Any type used as a tag in `as(_:tag:)`.
///   - value: Inferred from the context; pass `$0` or `container.resolve()`.
/// - Returns: The tagged instance.
///
/// ```swift
/// let indoor: Pet = by(tag: Indoor.self, on: container.resolve())
/// ```
public func by<Tag, T>(tag: Tag.Type, on value: DIByTag<Tag, T>) -> T {
  value.value
}

/// A runtime argument of `resolve(arg:)` / `resolve(args:)`.
///
/// - Parameter argument: Inferred from the context; pass `$0`.
/// - Returns: The argument.
///
/// ```swift
/// container.register { Cat(name: arg($0)) }
/// let cat: Cat = container.resolve(arg: "Mimi")
/// ```
public func arg<T>(_ argument: DIArg<T>) -> T {
  argument.value
}

extension DIMany: DIParameterModifier {
  package static func describe(_ request: inout DIRequest) {
    request.isMany = true
    request.describe(wrapped: T.self)
  }

  package static func resolve(
    in context: inout DIResolutionContext, tag: Any.Type?
  ) throws(DIError) -> Self {
    DIMany(values: try context.all(T.self, tag: tag, inFramework: false))
  }
}

extension DIByTag: DIParameterModifier {
  package static func describe(_ request: inout DIRequest) {
    request.tag = Tag.self
    request.describe(wrapped: T.self)
  }

  package static func resolve(
    in context: inout DIResolutionContext, tag: Any.Type?
  ) throws(DIError) -> Self {
    DIByTag(value: try context.value(T.self, tag: Tag.self))
  }
}

extension DIArg: DIParameterModifier {
  package static func describe(_ request: inout DIRequest) {
    request.isArgument = true
    request.type = T.self
  }

  package static func resolve(
    in context: inout DIResolutionContext, tag: Any.Type?
  ) throws(DIError) -> Self {
    DIArg(value: try context.nextArgument(T.self))
  }
}

extension Optional: DIParameterModifier {
  package static func describe(_ request: inout DIRequest) {
    request.isOptional = true
    request.describe(wrapped: Wrapped.self)
  }

  package static func resolve(
    in context: inout DIResolutionContext, tag: Any.Type?
  ) throws(DIError) -> Self {
    try context.optionalValue(Wrapped.self, tag: tag)
  }
}

extension Optional: ManyElement {
  /// `many($0)` into `[T?]`: the `T`s.
  static func all(
    in context: inout DIResolutionContext, tag: Any.Type?, inFramework: Bool
  ) throws(DIError) -> [Self] {
    try context.all(Wrapped.self, tag: tag, inFramework: inFramework).map(Optional.some)
  }
}
