/// Runtime arguments addressed to one component of a request by its type
/// (DITranquillity's `AnyArguments(for:)`): the addressed forms of `resolve(arguments:)`,
/// `tryResolve(arguments:)` and `resolveAsync(arguments:)` take one per component.
///
/// The values go, in order, to the `arg($0)` parameters of the component that the request
/// builds for `type`, wherever it sits in the graph: the component asked for or a
/// dependency any number of levels down, synchronous or `async`. A component matches when
/// `type` is its implementation type (`register { Cat(name: arg($0)) }` for `Cat.self`), or else
/// a service it answers (`.as(Pet.self)` for `Pet.self`); values for its implementation
/// type win over values for a service (those are then left over). A component built more
/// than once in the request (a `.prototype` two parameters need) takes the same values each
/// time. An instance that a lifetime already keeps is not built, so it takes none.
///
/// Values that no component of the request takes (addressed to a type it builds nothing
/// of, or more than the component has `arg` parameters) fail the request with
/// ``DIError/Code/extraArguments``, which names the type.
///
/// ```swift
/// container.register { Cat(name: arg($0)) }.as(Pet.self)
/// container.register(House.init)                      // House(pet:) needs a Cat
/// let house: House = container.resolve(arguments: .for(Cat.self, "Mimi"))
/// ```
public struct DIArgument {
  /// The type the values are addressed to.
  let type: Any.Type
  /// The values, in the order of the component's `arg` parameters.
  let values: [Any]

  /// Addresses `values` to the component built for `type`: its `arg` parameters take them
  /// in order (the initializer's first, then the injections'), as `resolve(args:)` passes
  /// them to the component asked for.
  ///
  /// - Parameters:
  ///   - type: The component's implementation type, or a service it answers.
  ///   - values: One value per `arg` parameter of the component, in order.
  /// - Returns: The addressed arguments.
  ///
  /// ```swift
  /// container.register { Cat(name: arg($0), bowl: arg($1)) }.as(Pet.self)
  /// let house: House = try container.tryResolve(arguments: .for(Cat.self, "Mimi", Bowl()))
  /// ```
  public static func `for`<T>(_ type: T.Type, _ values: Any...) -> DIArgument {
    DIArgument(type: type, values: values)
  }
}
