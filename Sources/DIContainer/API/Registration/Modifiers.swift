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

  package init(values: [T]) {
    self.values = values
  }
}

/// Asks for a service under a tag: `by(tag: Indoor.self, on: $0)`.
///
/// Nested, it asks for every tag written: `by(tag: Indoor.self, on: by(tag: Small.self,
/// on: $0))` finds the component registered under both tags, like
/// `by(tags: Indoor.self, Small.self, on: $0)`.
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

/// Asks for a service under several tags at once: `by(tags: Indoor.self, Small.self, on: $0)`
/// finds only a component registered under every one of them, in whatever order they are
/// written (the same as nesting ``by(tag:on:)``).
///
/// ```swift
/// container.register(Cat.init).as(Pet.self, tag: Indoor.self).as(Pet.self, tag: Small.self)
/// let pet: Pet = by(tags: Small.self, Indoor.self, on: container.resolve())
/// ```
public struct DIByTags<T, each Tag> {
  /// The resolved instance.
  ///
  /// ```swift
  /// let both: DIByTags<Pet, Indoor, Small> = container.resolve()
  /// let pet = both.value
  /// ```
  public let value: T
}

/// Takes a parameter from the runtime arguments of `resolve(arg:)` / `resolve(args:)`.
///
/// Arguments go, in order, to the `arg` parameters of the component asked for (its
/// initializer first, then its injections). An optional `arg` parameter (`DIArg<Int?>`)
/// is nil when no argument is passed for it; any other one is then a ``DIError``.
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

/// The instance of a service registered under every one of `tags`.
///
/// Tags combine with "and": only a component registered `.as` the service under each of
/// them is a candidate. Works wherever ``by(tag:on:)`` does, `many` included:
/// `many(by(tags: Indoor.self, Small.self, on: $0))`.
///
/// - Parameters:
///   - tag: A tag type used in `as(_:tag:)`.
///   - tags: More tag types; their order does not matter.
///   - value: Inferred from the context; pass `$0` or `container.resolve()`.
/// - Returns: The instance registered under all the tags.
///
/// ```swift
/// container.register(Cat.init).as(Pet.self, tag: Indoor.self).as(Pet.self, tag: Small.self)
/// container.register { House(pet: by(tags: Indoor.self, Small.self, on: $0)) }
/// let pet: Pet = by(tags: Indoor.self, Small.self, on: container.resolve())
/// ```
public func by<First, each Tag, T>(
  tags tag: First.Type, _ tags: repeat (each Tag).Type,
  on value: DIByTags<T, First, repeat each Tag>
) -> T {
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

/// A parameter type that asks for the instances of every component of a service:
/// `many($0)` (`DIMany`), or only those of the requester's framework, `manyInFramework($0)`.
package protocol ManyModifier: DIParameterModifier {
  /// The service.
  associatedtype Element
  /// Whether only the components of the requester's framework count.
  static var inFramework: Bool { get }
  init(values: [Element])
}

extension ManyModifier {
  package static func describe(_ request: inout DIRequest) {
    if inFramework { request.isManyInFramework = true } else { request.isMany = true }
    request.describe(wrapped: Element.self)
  }

  package static func resolve(
    in context: inout DIResolutionContext, tag: Any.Type?
  ) throws(DIError) -> Self {
    Self(values: try context.all(Element.self, tag: tag, inFramework: inFramework))
  }
}

extension DIMany: ManyModifier {
  package static var inFramework: Bool { false }
}

extension DIByTag: DIParameterModifier {
  package static func describe(_ request: inout DIRequest) {
    // Inside another `by(tag:on:)`, both tags are asked for.
    request.tag = TagSet.adding(Tag.self, to: request.tag)
    request.describe(wrapped: T.self)
  }

  package static func resolve(
    in context: inout DIResolutionContext, tag: Any.Type?
  ) throws(DIError) -> Self {
    DIByTag(
      value: try context.valueWithArguments(T.self, tag: TagSet.adding(Tag.self, to: tag)))
  }
}

extension DIByTags: DIParameterModifier {
  /// The one tag that asks for all of `Tag` and `outer`'s.
  private static func tag(adding outer: Any.Type?) -> Any.Type? {
    var tags: [Any.Type] = outer.map(TagSet.members(of:)) ?? []
    for tag in repeat (each Tag).self { tags.append(tag) }
    return TagSet.combined(tags)
  }

  package static func describe(_ request: inout DIRequest) {
    request.tag = tag(adding: request.tag)
    request.describe(wrapped: T.self)
  }

  package static func resolve(
    in context: inout DIResolutionContext, tag: Any.Type?
  ) throws(DIError) -> Self {
    DIByTags(value: try context.valueWithArguments(T.self, tag: Self.tag(adding: tag)))
  }
}

extension DIArg: DIParameterModifier, RuntimeArgumentParameter {
  package static func describe(_ request: inout DIRequest) {
    request.isArgument = true
    request.type = T.self
  }

  package static func resolve(
    in context: inout DIResolutionContext, tag: Any.Type?
  ) throws(DIError) -> Self {
    do throws(DIError) {
      return DIArg(value: try context.nextArgument(T.self))
    } catch {
      // An optional `arg` with no argument passed for it is nil.
      guard error.code == .missingArgument, let none = (T.self as? any NilArgument.Type)?.none as? T
      else { throw error }
      return DIArg(value: none)
    }
  }
}

/// A parameter that takes the next runtime argument (`DIArg`): an async factory resolves it
/// from the request's arguments, in order.
protocol RuntimeArgumentParameter {}

/// An `arg` parameter type that takes nil when no runtime argument is passed for it.
protocol NilArgument {
  static var none: Self { get }
}

extension Optional: NilArgument {}

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
