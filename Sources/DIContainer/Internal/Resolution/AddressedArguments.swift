/// The runtime arguments of one request addressed by type (``DIArgument``), and what the
/// request has taken of them.
///
/// Installed on the thread's ``ResolutionRequest`` while a synchronous attempt of the
/// request runs (``installed(_:)``), so every component built in it, at any depth, finds
/// them: an `arg` parameter that gets no positional argument asks them for the values of the
/// innermost component under construction (``DIResolutionContext/addressedArgument(_:)``).
/// An asynchronous request passes them on to its makings (``AsyncNeed``,
/// ``AsyncParameters``), which install them for their own attempts. A request without
/// addressed arguments never reads them: only an `arg` parameter with no positional
/// argument, and the components that take arguments, look.
final class AddressedArguments: Sendable {
  private struct Entry {
    let type: Any.Type
    let values: UncheckedSendable<[Any]>
    /// Whether a component of the request matched it.
    var taken = false
  }

  private struct State {
    var entries: [Entry]
    /// How many `arg` parameters each component under construction has asked for so
    /// far, by component identity.
    var cursors: [ObjectIdentifier: Int] = [:]
  }

  private let state: Locked<State>

  init(_ arguments: [DIArgument]) {
    state = Locked(
      State(
        entries: arguments.map { Entry(type: $0.type, values: UncheckedSendable($0.values)) }))
  }

  /// Runs `body` with these arguments installed on the calling thread's request.
  func installed<Result>(_ body: () throws(DIError) -> Result) throws(DIError) -> Result {
    try Self.installing(self, body)
  }

  /// Runs `body` with `addressed` (nil: none) installed on the calling thread's request,
  /// then puts back what was there.
  static func installing<Result>(
    _ addressed: AddressedArguments?, _ body: () throws(DIError) -> Result
  ) throws(DIError) -> Result {
    let request = ResolutionRequest.current
    let outer = request.state.addressed
    request.state.addressed = addressed
    defer { request.state.addressed = outer }
    return try body()
  }

  /// The values addressed to `component`: to its implementation type, else to the first
  /// service it answers that has some; nil when none are. The entry counts as taken.
  /// Throws when there are more values than the component has `arg` parameters.
  func values(for component: Component) throws(DIError) -> [Any]? {
    let found = state.withLock { state -> [Any]? in
      guard let index = Self.index(for: component, in: state.entries) else { return nil }
      state.entries[index].taken = true
      return state.entries[index].values.wrapped
    }
    guard let found else { return nil }
    let taken = component.argumentTypes.count
    guard found.count <= taken else {
      throw DIError(.extraArguments(passed: found.count, taken: taken))
    }
    return found
  }

  /// Whether some values are addressed to `component` (nothing counts as taken).
  func hasValues(for component: Component) -> Bool {
    state.withLock { Self.index(for: component, in: $0.entries) != nil }
  }

  private static func index(for component: Component, in entries: [Entry]) -> Int? {
    let implementation = ObjectIdentifier(component.implementation)
    if let index = entries.firstIndex(where: { ObjectIdentifier($0.type) == implementation }) {
      return index
    }
    for service in component.services {
      let id = ObjectIdentifier(service.type)
      if let index = entries.firstIndex(where: { ObjectIdentifier($0.type) == id }) {
        return index
      }
    }
    return nil
  }

  /// The position (from 1) of the next `arg` parameter of `component`, the innermost
  /// component under construction.
  func nextPosition(for component: ObjectIdentifier) -> Int {
    state.withLock { state in
      let position = state.cursors[component, default: 0] + 1
      state.cursors[component] = position
      return position
    }
  }

  /// A new construction of `component` begins: its next `arg` parameter is the one after
  /// the first `taken` (its initializer's, when an async factory took them already).
  func restart(_ component: ObjectIdentifier, at taken: Int) {
    state.withLock { $0.cursors[component] = taken }
  }

  /// Throws ``DIError/Code/extraArguments`` naming the first type whose arguments no
  /// component of the request for `requested` took.
  func checkAllTaken(requested: Any.Type) throws(DIError) {
    let left = state.withLock { state in state.entries.first { !$0.taken } }
    guard let left else { return }
    throw DIError(
      .argumentsNotTaken(type: String(describing: left.type), passed: left.values.wrapped.count),
      requestedName: String(describing: requested))
  }

  /// `factory`, for a component that takes runtime arguments: each construction starts
  /// the addressed arguments of the component at its first `arg` parameter (a component
  /// built twice in a request takes the same ones). Components without `arg` parameters
  /// keep their factory as it is.
  static func restarting(_ factory: @escaping Factory) -> Factory {
    { (context) throws(DIError) -> MadeInstance in
      context.restartAddressedArguments()
      return try factory(&context)
    }
  }
}

/// Runtime arguments addressed by type, as the resolution context reads them.
extension DIResolutionContext {
  /// The addressed arguments of the request, if it has any.
  var addressedArguments: AddressedArguments? {
    handle.request.borrow { $0.state.addressed }
  }

  /// The next addressed argument of the innermost component under construction, which
  /// must be a `T`; nil when the request has no addressed arguments. A component with none
  /// addressed to it, or too few, misses the argument.
  @inline(never)
  mutating func addressedArgument<T>(_ type: T.Type) throws(DIError) -> T? {
    let innermost = handle.request.borrow { request in
      request.state.addressed.flatMap { addressed in
        request.innermostComponent.map { (addressed, $0) }
      }
    }
    guard let (addressed, component) = innermost else { return nil }
    let values = try addressed.values(for: component)
    let position = addressed.nextPosition(for: ObjectIdentifier(component))
    guard let values, position <= values.count else {
      throw DIError(
        .missingArgument(
          position: position, expected: String(describing: T.self), ofDependency: values == nil))
    }
    let argument = values[position - 1]
    return try UnsafeExactCast.cast(argument, to: T.self) {
      DIError(
        .wrongArgument(
          position: position, expected: String(describing: T.self),
          actual: String(describing: Swift.type(of: argument))))
    }
  }

  /// The values addressed to `component`, if the request has any for it.
  func addressedValues(for component: Component) throws(DIError) -> [Any]? {
    try addressedArguments?.values(for: component)
  }

  /// A component that takes runtime arguments begins a new construction (see
  /// ``AddressedArguments/restarting(_:)``).
  func restartAddressedArguments() {
    handle.request.borrow { request in
      guard let addressed = request.state.addressed, let component = request.innermostComponent
      else { return }
      addressed.restart(ObjectIdentifier(component), at: 0)
    }
  }
}
