extension DIError {
  /// Why a request failed, with the details its text needs. The library's own: programs
  /// read ``DIError/code`` and the public fields, so a new reason breaks no `switch`.
  package enum Reason: Sendable, Equatable {
    /// No component provides the service (under the tag, if one was asked for).
    case notRegistered
    /// Several components provide the service and none is preferred; their summaries.
    case ambiguous(candidates: [String])
    /// The request needs itself before it exists; the path shows the loop.
    case cycle
    /// `depth` components were under construction, one inside the other, when the
    /// thread's stack ran short.
    case tooDeep(depth: Int)
    /// Two requests each wait for an instance the other one is making; the path ends at
    /// the instance this request waited for.
    case waitLoop
    /// Runtime argument `position` is an `actual`, its `arg` parameter takes `expected`.
    case wrongArgument(position: Int, expected: String, actual: String)
    /// The `arg` parameter `position` (of type `expected`) has no runtime argument; when
    /// `ofDependency`, its component is not the one asked for, which alone gets them.
    case missingArgument(position: Int, expected: String, ofDependency: Bool)
    /// `passed` runtime arguments went to a component whose `arg` parameters take `taken`.
    case extraArguments(passed: Int, taken: Int)
    /// `passed` runtime arguments were addressed to `type` (``DIArgument``), and the
    /// request built no component of that type.
    case argumentsNotTaken(type: String, passed: Int)
    /// Runtime argument `position`, a `type`, is not `Hashable` (a `.multiton` needs it).
    case argumentNotHashable(position: Int, type: String)
    /// The factory of `component` threw (the error's ``DIError/underlyingError``).
    case factoryFailed(component: String)
    /// The request's task was cancelled while it waited for another request's making of
    /// `component`, which goes on for the others.
    case waitCancelled(component: String)
    /// The factory of `implementation`, which returns an `implementation?`, returned nil.
    case factoryReturnedNil(implementation: String)
    /// The delayed value `delayed` takes its runtime arguments at `value(…)`, yet was asked
    /// for with `resolve(args:)`, whose arguments it would drop.
    case argumentsToDelayedValue(delayed: String)
    /// The component was registered without an initializer.
    case noInitializer
    /// The component was registered `as` a service its instances do not conform to.
    case notAService
    /// `inject(into:)` chose a component making `expected` for an instance of `actual`.
    case wrongInjectionTarget(expected: String, actual: String)
    /// The `.scoped` `component` was asked for outside every request scope.
    case outsideScope(component: String)
    /// A closed request scope was used, directly or by the delayed value `delayed`.
    case scopeClosed(delayed: String?)
    /// The container of `owner` (a request scope, a `Lazy`…) is gone.
    case containerReleased(owner: String)
    /// A synchronous request needs `component`, whose factory is `async` and whose instance
    /// is not made yet.
    case asyncFactory
    /// A synchronous `inject(into:)` met a component whose injections or `postInit`
    /// include an `async` one.
    case asyncInjection
    /// The container was shut down.
    case containerShutDown
    /// A custom scope's storage misbehaved, as `message` says.
    case storageMismatch(String)

    /// The public kind of this reason.
    var code: Code {
      switch self {
      case .notRegistered: .notRegistered
      case .ambiguous: .ambiguous
      case .cycle, .waitLoop: .cycle
      case .tooDeep: .tooDeep
      case .wrongArgument: .wrongArgument
      case .missingArgument: .missingArgument
      case .extraArguments, .argumentsNotTaken: .extraArguments
      case .argumentNotHashable: .argumentNotHashable
      case .factoryFailed: .factoryFailed
      case .waitCancelled: .cancelled
      case .factoryReturnedNil: .factoryReturnedNil
      case .argumentsToDelayedValue: .extraArguments
      case .noInitializer: .noInitializer
      case .notAService: .notAService
      case .wrongInjectionTarget: .wrongInjectionTarget
      case .outsideScope: .outsideScope
      case .scopeClosed: .scopeClosed
      case .containerReleased: .containerReleased
      case .containerShutDown: .containerShutDown
      case .asyncFactory, .asyncInjection: .asyncFactory
      case .storageMismatch: .storageMismatch
      }
    }

    /// No component, or no single component, provides the service.
    var isNoUniqueCandidate: Bool {
      switch self {
      case .notRegistered, .ambiguous: true
      default: false
      }
    }
  }
}
