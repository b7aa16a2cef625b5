/// Looking a parameter up: a service, a modifier (`Optional`, `DIMany`, `Lazy`, …), the
/// candidates' choice, and the runtime arguments.
extension DIResolutionContext {
  /// Resolves a parameter of type `T`: a service, or a modifier such as `Optional`,
  /// `DIMany` or `Lazy`.
  @usableFromInline
  package mutating func value<T>(_ type: T.Type, tag: Any.Type?) throws(DIError) -> T {
    let key = ServiceKey(T.self, tag: tag)
    guard let index = handle.table.index(of: key) else {
      return try unregisteredValue(T.self, tag: tag)
    }
    guard let single = handle.table.single(at: index) else {
      return try chosenValue(T.self, tag: tag, at: index)
    }
    // Borrowed, not retained: the snapshot keeps it, and every thread building it would
    // count references on the same object. `instance(_:of:)` reads a cached instance.
    return try single.borrowing { (component) throws(DIError) in
      try instance(T.self, of: component)
    }
  }

  /// A parameter of type `T` that several components provide: the one the candidate
  /// rules choose.
  @inline(never)
  mutating func chosenValue<T>(_ type: T.Type, tag: Any.Type?, at index: Int)
    throws(DIError) -> T
  {
    try instance(T.self, of: try choose(handle.table.entry(at: index), for: T.self, tag: tag))
  }

  /// A parameter of type `T` that no component provides: a modifier, or an error.
  @inline(never)
  mutating func unregisteredValue<T>(_ type: T.Type, tag: Any.Type?) throws(DIError)
    -> T
  {
    try checkNotShutDown(T.self)
    if let parent = snapshot.parent,
      let entry = parent.snapshot.lookUp(ServiceKey(T.self, tag: tag))
    {
      return try instance(T.self, of: try choose(entry, for: T.self, tag: tag))
    }
    if let modifier = DIRequest.modifier(T.self) {
      return try resolve(modifier, as: T.self, tag: tag)
    }
    throw notRegistered(T.self, tag: tag)
  }

  /// Throws when the container was shut down: a request for `T` finds nothing then, and
  /// says why.
  @inline(__always)
  func checkNotShutDown<T>(_ type: T.Type) throws(DIError) {
    guard snapshot.isShutDown else { return }
    throw DIError(.containerShutDown, requestedName: String(describing: T.self))
  }

  /// The error for a request of `T` under `tag` that no component provides, with what the
  /// container knows that would fix it.
  @inline(never)
  func notRegistered<T>(_ type: T.Type, tag: Any.Type?) -> DIError {
    NotRegisteredHints.error(T.self, tag: tag, snapshot: snapshot)
  }

  /// Resolves `Wrapped`, or nil when no candidate or no single candidate provides it, when
  /// the chosen component has no initializer, or when it needs runtime arguments that
  /// were not passed. A failure further down the chosen component's graph is still an
  /// error. The nil path builds no error.
  package mutating func optionalValue<Wrapped>(
    _ type: Wrapped.Type, tag: Any.Type?
  ) throws(DIError) -> Wrapped? {
    let key = ServiceKey(Wrapped.self, tag: tag)
    if let entry = handle.table[key] {
      return try optionalInstance(Wrapped.self, of: entry)
    }
    if let parent = snapshot.parent, let entry = parent.snapshot.lookUp(key) {
      return try optionalInstance(Wrapped.self, of: entry)
    }
    try checkNotShutDown(Wrapped.self)
    guard let modifier = DIRequest.modifier(Wrapped.self) else { return nil }
    do throws(DIError) {
      return try resolve(modifier, as: Wrapped.self, tag: tag)
    } catch {
      // Only the request itself may come out empty: `Optional<DIByTag<Tag, T>>` with no
      // tagged candidate. A failure below a chosen component has a longer path.
      guard error.path.count == 1, error.reason.isNoUniqueCandidate else { throw error }
      return nil
    }
  }

  /// The instance of the component chosen among `entry`'s candidates, or nil
  /// when none is chosen or the chosen one cannot make one for this request.
  mutating func optionalInstance<Wrapped>(
    _ type: Wrapped.Type, of entry: ServiceEntry
  ) throws(DIError) -> Wrapped? {
    let chosen: Component?
    switch entry {
    case .single(let component): chosen = component
    case .multiple(let candidates):
      chosen = snapshot.choose(
        among: candidates, requester: requester, arguments: runtimeArguments)
    }
    guard let component = chosen, component.canMake,
      !component.requiresArguments || (depth == 0 && handle.argumentCount != nil)
        || addressedArguments?.hasValues(for: component) == true
    else { return nil }
    if depth == 0, handle.argumentCount != nil { try checkArguments(of: component) }
    return try instance(Wrapped.self, of: component)
  }

  /// Every instance of `T` (under `tag`), in registration order; only those of the
  /// requester's framework when `inFramework`. Components under construction in this
  /// request are left out: a `MainLogger(loggers: many($0))` registered as a `Logger`
  /// gets the other loggers.
  package mutating func all<T>(
    _ type: T.Type, tag: Any.Type?, inFramework: Bool
  ) throws(DIError) -> [T] {
    let key = ServiceKey(T.self, tag: tag)
    guard let components = snapshot.collection(key) else {
      try checkNotShutDown(T.self)
      // `Lazy`/`Provider`/`Optional` elements are never registered: they stand for the
      // components of their service.
      guard let element = T.self as? any ManyElement.Type else { return [] }
      return try Self.all(element, as: T.self, in: &self, tag: tag, inFramework: inFramework)
    }
    if depth == 0, handle.argumentCount != nil {
      for component in components { try checkArguments(of: component) }
    }
    var values: [T] = []
    values.reserveCapacity(components.count)
    for component in components where !inFramework || component.framework == requester {
      guard !request.isBuilding(component) else { continue }
      values.append(try instance(T.self, of: component))
    }
    return values
  }

  static func all<Element: ManyElement, T>(
    _ element: Element.Type, as type: T.Type, in context: inout DIResolutionContext,
    tag: Any.Type?, inFramework: Bool
  ) throws(DIError) -> [T] {
    // `Element` is `T`, opened from `T.self as? any ManyElement.Type`.
    try Element.all(in: &context, tag: tag, inFramework: inFramework).compactMap { $0 as? T }
  }

  /// The next runtime argument, which must be a `T`.
  package mutating func nextArgument<T>(_ type: T.Type) throws(DIError) -> T {
    nextArgument += 1
    let position = nextArgument
    // The error's path ends at the component that needs the argument: its request adds
    // that step.
    guard depth <= 1, let count = handle.argumentCount, position <= count else {
      // Arguments addressed by type (`DIArgument`) go to any component that gets no
      // positional ones.
      if depth > 1 || handle.argumentCount == nil,
        let addressed = try addressedArgument(T.self)
      {
        return addressed
      }
      throw DIError(
        .missingArgument(
          position: position, expected: String(describing: T.self), ofDependency: depth > 1))
    }
    let argument = handle.argument(at: position - 1)
    return try UnsafeExactCast.cast(argument, to: T.self) {
      DIError(
        .wrongArgument(
          position: position, expected: String(describing: T.self),
          actual: String(describing: Swift.type(of: argument))))
    }
  }

  mutating func resolve<T>(
    _ modifier: any DIParameterModifier.Type, as type: T.Type, tag: Any.Type?
  ) throws(DIError) -> T {
    try Self.open(modifier, as: T.self, in: &self, tag: tag)
  }

  static func open<M: DIParameterModifier, T>(
    _ modifier: M.Type, as type: T.Type, in context: inout DIResolutionContext, tag: Any.Type?
  ) throws(DIError) -> T {
    let value = try M.resolve(in: &context, tag: tag)
    // Only reached when `T` is the modifier type itself: the identity, with no dynamic
    // cast (an `Optional` request would pay one at every resolve).
    return try UnsafeExactCast.value(value, as: T.self) { () throws(DIError) -> T in
      value as! T
    }
  }

  static func name(of type: Any.Type, tag: Any.Type?) -> String {
    guard let tag else { return String(describing: type) }
    return "\(type) tagged \(TagSet.name(of: tag))"
  }

  /// The candidate that serves a request, by the rules of ``DIContainer``: a single
  /// `.test()` one, then the requester's framework, then the frameworks it imports, then
  /// the `.default()` one.
  func choose(
    _ entry: ServiceEntry, for type: Any.Type, tag: Any.Type?,
    arguments: RuntimeArguments? = nil
  ) throws(DIError) -> Component {
    switch entry {
    case .single(let component):
      return component
    case .multiple(let candidates):
      // Modularity by the imports this container knows (its own and its parents').
      if let chosen = snapshot.choose(
        among: candidates, requester: requester, arguments: arguments ?? runtimeArguments)
      {
        return chosen
      }
      var error = DIError(
        .ambiguous(candidates: candidates.all.map(\.summary)),
        requestedName: Self.name(of: type, tag: tag))
      error.requesterFramework = requester?.name
      throw error
    }
  }

  /// The types of the runtime arguments, when they go to the component chosen now (the
  /// one asked for): what the candidate rules match `arg` parameters against.
  var runtimeArguments: RuntimeArguments? {
    guard depth == 0, let arguments = handle.arguments else { return nil }
    return .values(arguments)
  }

  /// Resolves `T`, the service asked for with runtime arguments: like
  /// ``value(_:tag:)``, but the candidates are chosen by the arguments too, and arguments
  /// that no `arg` parameter of the chosen component takes are an error.
  package mutating func valueWithArguments<T>(_ type: T.Type, tag: Any.Type?) throws(DIError)
    -> T
  {
    guard depth == 0, handle.argumentCount != nil,
      let entry = snapshot.lookUp(ServiceKey(T.self, tag: tag))
    else { return try value(T.self, tag: tag) }
    let component = try choose(entry, for: T.self, tag: tag)
    do throws(DIError) {
      try checkArguments(of: component)
    } catch {
      var error = error
      error.enter(String(describing: T.self), component: component.summary)
      throw error
    }
    return try instance(T.self, of: component)
  }

  /// Throws when the request carries more runtime arguments than `component`, the one
  /// asked for, takes.
  func checkArguments(of component: Component) throws(DIError) {
    guard let count = handle.argumentCount, count > component.argumentTypes.count else { return }
    throw DIError(.extraArguments(passed: count, taken: component.argumentTypes.count))
  }
}
