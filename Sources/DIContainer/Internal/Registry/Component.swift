/// How a component makes a new instance: resolves the initializer's parameters from the
/// context and calls it.
@usableFromInline
typealias Factory = @Sendable (inout DIResolutionContext) throws(DIError) -> MadeInstance

/// How an async component is made: its parameters resolved through `AsyncParameters`,
/// then its `async` initializer.
typealias AsyncFactory = @Sendable (AsyncParameters) async throws(DIError) -> Any

/// Where a component's instances are kept, decided once when the component is compiled.
enum InstanceStorage: Sendable {
  case none
  case objectGraph
  case cell(InstanceCell)
  /// `.multiton`: one cell per set of runtime arguments.
  case multiton(MultitonCells)
  /// `.custom(scope)`: kept by the scope's storage under the cell's key.
  case scoped(DIScope, ScopedCell)
  /// `.scoped`: kept by the request scope of the resolution, under this key.
  case requestScoped(RequestScopedKey)
}

/// A registration as resolution sees it: immutable, shared by every thread.
///
/// Compiled from a ``ComponentDraft`` when the registry publishes a new snapshot, and the
/// only keeper of that draft from then on (the registry keeps no copy): an edit after that
/// starts from ``draft`` again. The draft's cells are the component's storage, so they
/// survive recompilation.
final class Component: Sendable {
  /// The registration it was compiled from.
  let draft: ComponentDraft
  let factory: Factory?
  /// The factory of an async component (`register { … async … }`); `factory` is nil then.
  let asyncFactory: AsyncFactory?
  /// The `postInit` steps, all synchronous, as one closure (nil: none, or `completion`
  /// runs them).
  let postInit: (@Sendable (Any) throws(DIError) -> Void)?
  /// For a component with an `async` injection or `postInit`: its injections and
  /// `postInit`, which its `asyncFactory` runs (its `factory` is nil then).
  let completion: AsyncCompletion?
  /// The `onClean` hook, if any, made once with the component.
  let onClean: CleanHook?
  let storage: InstanceStorage
  /// The cell of `storage`, unretained (`storage` keeps it), for the hot path.
  let cell: Unretained<InstanceCell>?
  /// The key of a `.scoped` component in every request scope, unretained (`storage`
  /// keeps it), for the hot path: reading its identity copies no reference.
  private let requestScopedKey: Unretained<RequestScopedKey>?
  /// The container that registered it: the one that makes its cached instances, also
  /// when a child container asks (see ``DIContainer/init(parent:defaultLifetime:)``).
  let owner: ObjectIdentifier
  /// Its `arg` parameters, when it has any.
  private let arguments: ComponentArguments?
  /// Whether it is an async component whose lifetime keeps its instance: one making at a
  /// time across tasks, through the ``AsyncOnce`` of the place that keeps it
  /// (``AsyncNeed/once``).
  let isAsyncCached: Bool
  let hasCycleBreaks: Bool
  /// Whether a new instance has anything to run after its initializer: injections or
  /// `postInit`.
  let needsInjection: Bool
  /// Whether it is a `.prototype` with a synchronous factory and no `arg` parameter: a
  /// request of it only builds a new instance.
  let isPlainPrototype: Bool
  /// Which bit is ``buildingBit``: one byte, which fits beside the flags (a whole word
  /// made each registration 16 bytes larger), read with no look at the draft (reading
  /// the draft's order cost S3 130 instructions).
  private let buildingBitIndex: UInt8

  init(draft: consuming ComponentDraft, storage: InstanceStorage, owner: ObjectIdentifier) {
    let completion = AsyncCompletion.of(draft)
    self.completion = completion
    let arguments = ComponentArguments.of(draft)
    if let completion {
      factory = nil
      let parameters = draft.parameters
      let make =
        draft.asyncFactory
        ?? draft.factory.map { AsyncParameters.making(with: $0, parameters: parameters) }
      asyncFactory = make.map(completion.factory(making:))
    } else {
      // Only a component with `arg` parameters pays for arguments addressed by type.
      factory =
        arguments == nil ? draft.factory : draft.factory.map(AddressedArguments.restarting)
      asyncFactory = draft.asyncFactory
    }
    switch storage {
    case .none, .objectGraph: isAsyncCached = false
    default: isAsyncCached = asyncFactory != nil
    }
    hasCycleBreaks = draft.injections.contains { $0.isCycleBreak }
    self.arguments = arguments
    self.owner = owner
    needsInjection = completion == nil && (!draft.injections.isEmpty || !draft.postInit.isEmpty)
    postInit =
      completion == nil ? Self.synchronousPostInit(draft.postInit, draft.implementation) : nil
    self.storage = storage
    if case .none = storage {
      isPlainPrototype = factory != nil && arguments == nil
    } else {
      isPlainPrototype = false
    }
    if case .cell(let cell) = storage { self.cell = Unretained(cell) } else { cell = nil }
    if case .requestScoped(let key) = storage {
      requestScopedKey = Unretained(key)
    } else {
      requestScopedKey = nil
    }
    // Named once, and only for a component with a hook.
    onClean =
      draft.onClean.isEmpty
      ? nil
      : CleanHook(
        steps: draft.onClean,
        name: Name(
          implementation: draft.implementation, file: draft.file, line: draft.line,
          framework: draft.framework, part: draft.part
        ).description)
    buildingBitIndex = UInt8(truncatingIfNeeded: draft.order & 63)
    self.draft = draft
  }

  var implementation: Any.Type { draft.implementation }
  var file: StaticString { draft.file }
  var line: UInt { draft.line }
  var framework: DIModuleID? { draft.framework }
  var part: DIModuleID? { draft.part }
  var lifetime: DILifetime { draft.lifetime }
  var parameters: [DIRequest] { draft.parameters }
  var services: ServiceList { draft.services }
  var injections: [Injection] { draft.injections }
  var isDefault: Bool { draft.isDefault }
  var isTest: Bool { draft.isTest }
  var isRoot: Bool { draft.isRoot }
  /// Registration order within the container.
  var order: Int { draft.order }
  /// Its bit in a request's filter of the components under construction
  /// (``ResolutionRequest``): from its registration order, so the first 64 components of
  /// a container have bits of their own, and the filter does not depend on where the
  /// components lie in memory.
  @inline(__always)
  var buildingBit: UInt64 { 1 << UInt64(buildingBitIndex) }

  /// The cast of this component's objects into `service`, made where it was registered
  /// `as` that type (see ``ServiceCast``), if it was.
  func serviceCast(to service: Any.Type) -> ServiceCast? {
    draft.services.cast(to: service)
  }

  /// The identity of a `.scoped` component's key in every request scope.
  var requestScopedID: ObjectIdentifier? {
    requestScopedKey?.identity
  }

  /// The types of its `arg` parameters, in the order they take runtime arguments: the
  /// initializer's, then the injections'.
  var argumentTypes: [ObjectIdentifier] { arguments?.types ?? [] }
  /// Whether the initializer or an injection takes a runtime argument (`arg`).
  var takesArguments: Bool { arguments != nil }
  /// How many of its `arg` parameters are the initializer's (the rest are its
  /// injections').
  var initializerArgumentCount: Int { arguments?.initializerCount ?? 0 }
  /// Whether it has an `arg` parameter that is not optional: one that cannot do without a
  /// runtime argument.
  var requiresArguments: Bool { arguments?.required ?? false }

  /// Whether its `arg` parameters take `arguments`: as many, and each a value its
  /// parameter accepts (as `arg` casts it: an `Int` goes to an `Int?` parameter, a
  /// conforming type to a protocol one); for types only, the same types.
  func takes(_ arguments: RuntimeArguments) -> Bool {
    switch arguments {
    case .types(let types): return types == argumentTypes
    case .values(let values):
      let parameters = self.arguments?.parameters ?? []
      guard values.count == parameters.count else { return false }
      return zip(values, parameters).allSatisfy { value, type in
        func accepts<Parameter>(_: Parameter.Type) -> Bool { value is Parameter }
        return accepts(type)
      }
    }
  }

  /// The synchronous `steps` as one closure, nil for none.
  private static func synchronousPostInit(
    _ steps: [InstanceStep], _ implementation: Any.Type
  ) -> (@Sendable (Any) throws(DIError) -> Void)? {
    guard !steps.isEmpty else { return nil }
    let runs = steps.compactMap { step -> (@Sendable (Any) throws -> Void)? in
      guard case .sync(let run) = step else { return nil }
      return run
    }
    return { (instance) throws(DIError) in
      do {
        for run in runs { try run(instance) }
      } catch {
        throw DIError(thrownBy: implementation, error)
      }
    }
  }

  /// Whether the component can make instances: it has an initializer, synchronous or not.
  var canMake: Bool { factory != nil || asyncFactory != nil }

  /// `Cat`, for errors and logs.
  var name: String { String(describing: implementation) }

  /// `Tests/CatTests.swift:12`.
  var location: String { "\(file):\(line)" }

  /// `Cat (CatTests.swift:12)`, with the framework and part when there are any.
  var summary: String { identity.description }

  /// What names the component in messages, without holding it.
  var identity: Name {
    Name(implementation: implementation, file: file, line: line, framework: framework, part: part)
  }

  /// What names a component in messages: a value that holds no object, so whatever keeps
  /// it (a delayed value, a clean hook) keeps nothing alive.
  struct Name: Sendable, CustomStringConvertible {
    let implementation: Any.Type
    let file: StaticString
    let line: UInt
    let framework: DIModuleID?
    let part: DIModuleID?

    /// `Cat (CatTests.swift:12)`, with the framework and part when there are any.
    var description: String {
      let modules = [framework?.name, part?.name].compactMap { $0 }
      let owner = modules.isEmpty ? "" : modules.joined(separator: ", ") + ", "
      return "\(implementation) (\(owner)\(file):\(line))"
    }
  }
}

/// The runtime arguments of a request, as the candidate rules match `arg` parameters
/// against them: the values passed, or, for a delayed value that passes them later, their
/// types.
enum RuntimeArguments {
  case values([Any])
  case types([ObjectIdentifier])
}
