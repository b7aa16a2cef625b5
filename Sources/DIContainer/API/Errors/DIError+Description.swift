extension DIError {
  /// The text a person acts on: what was asked, why it failed, the path, the
  /// registrations involved and the hints (see the type's documentation for an example).
  ///
  /// ```swift
  /// print(error.description)
  /// ```
  public var description: String {
    let failing = path.last?.requested ?? "?"
    var text = "Cannot resolve \(requested): \(explanation(failing: failing))"
    text += "\n  path: " + shownPath.map(\.requested).joined(separator: " → ")
    // Each registration once, however often the path (a cycle's) comes back to it.
    var seen: Set<String> = []
    let involved = shownPath.compactMap { step -> String? in
      guard let component = step.component, seen.insert(component).inserted else { return nil }
      return "\(step.requested): \(component)"
    }
    if !involved.isEmpty {
      text += "\n  registrations involved:" + involved.map { "\n    " + $0 }.joined()
    }
    for hint in hints {
      text += "\n  hint: " + hint
    }
    return text
  }

  private func explanation(failing: String) -> String {
    switch reason {
    case .notRegistered:
      return "\(failing) is not registered."
    case .ambiguous(let candidates):
      return "\(failing) is ambiguous\(asker): \(candidates.joined(separator: ", "));"
        + " none is preferred (mark one .default(), or use a tag)."
    case .cycle:
      return "the cycle " + loop.map(\.requested).joined(separator: " → ")
        + " cannot be built (use .objectGraph or a cached lifetime with"
        + " injection(cycle: true), or a Lazy/Provider)."
    case .tooDeep(let depth):
      return "the graph is deeper than this thread's stack can hold at \(failing)"
        + " (\(depth) components under construction, one inside the other); resolve it on a"
        + " thread with a larger stack, or break the chain with a Lazy/Provider."
    case .waitLoop:
      return "\(failing) is being made by another thread's request, which waits (directly or"
        + " through others) for an instance this request is making; building both would"
        + " deadlock (break the loop with injection(cycle: true, …) or a Lazy/Provider, or"
        + " create these instances ahead, e.g. with initializeSingletonObjects())."
    case .wrongArgument(let position, let expected, let actual):
      return "runtime argument \(position) for \(failing) is of type \(actual); its arg"
        + " parameter \(position) takes \(expected)."
    case .missingArgument(let position, let expected, let ofDependency):
      let needs = "\(failing) needs runtime argument \(position) (\(expected)), which"
      guard ofDependency else {
        return needs + " was not passed; pass it with resolve(arg:) or resolve(args:)."
      }
      return needs + " it cannot get: runtime arguments go only to the component asked for,"
        + " not to its dependencies; inject a provider of \(failing) with its arguments"
        + " (Provider1 … Provider5) and pass them through it, or address them to it by type:"
        + " resolve(arguments: .for(\(failing).self, …))."
    case .extraArguments(let passed, let taken):
      let takes = taken == 0 ? "takes none" : "takes \(taken)"
      return "\(passed) runtime arguments were passed, and \(failing) \(takes) (its arg"
        + " parameters); pass only the arguments it takes, or register the component that"
        + " takes them."
    case .argumentsNotTaken(let type, let passed):
      let arguments = passed == 1 ? "1 runtime argument was" : "\(passed) runtime arguments were"
      return "\(arguments) addressed to \(type), and the request built no \(type): its instance"
        + " was kept already, or nothing asked for \(type) in this graph; address arguments"
        + " only to the components the request builds."
    case .argumentNotHashable(let position, let type):
      return "runtime argument \(position) for \(failing) is a \(type), which is not"
        + " Hashable; a .multiton component keeps one instance per set of arguments, so they"
        + " must be Hashable."
    case .factoryFailed(let component):
      return "the factory of \(component) threw: \(underlyingError.map { "\($0)" } ?? "an error")."
    case .waitCancelled(let component):
      return "the task was cancelled while it waited for another request making \(component),"
        + " which goes on making it for the others; ask again from a task that is not"
        + " cancelled."
    case .factoryReturnedNil(let type):
      return "the factory of \(type) returned nil; a factory returning \(type)? provides"
        + " \(type), so nil leaves nothing to give (an optional request fails too: the"
        + " component was chosen); return an instance, or register the alternatives as"
        + " separate components."
    case .argumentsToDelayedValue(let delayed):
      return "\(delayed) takes its runtime arguments at value(…), so the arguments passed to"
        + " resolve(arg:)/resolve(args:) have nowhere to go; resolve the \(delayed) without"
        + " arguments and pass them to its value(…)."
    case .noInitializer:
      // Asked for directly, the component's own instances are the way; below another
      // component, the container would have to make one.
      guard path.count > 1 else {
        return "\(failing) was registered without an initializer (register(\(failing).self));"
          + " make the instance yourself and call container.inject(into:) to run its"
          + " injections, or register an initializer."
      }
      return "\(failing) was registered without an initializer (register(\(failing).self)),"
        + " so the container cannot make one for \(path[path.count - 2].requested); register"
        + " it with an initializer, e.g. container.register(\(failing).init)."
    case .notAService:
      return "the component registered for \(failing) does not conform to it."
    case .wrongInjectionTarget(let expected, let actual):
      return "inject(into:) was given a \(actual), but the component chosen for \(failing)"
        + " makes a \(expected), whose injections cannot run on it; register \(actual) itself"
        + " (container.register(\(actual).self)) to inject into it."
    case .outsideScope(let component):
      return "\(component) is .scoped: it lives in a request scope, and this request runs in"
        + " none; resolve it from a scope: container.makeScope() or container.scope(for:"
        + " owner) (a Lazy or Provider made in a scope resolves there while the scope is"
        + " open)."
    case .scopeClosed(let delayed?):
      return "the request scope this \(delayed) was made in is closed; a Lazy or Provider"
        + " made in a scope resolves in that scope only while it is open."
    case .scopeClosed(nil):
      return "the request scope was closed; resolve from an open scope"
        + " (container.makeScope())."
    case .containerReleased(let owner):
      return "the container of \(owner) was released; keep the container alive while"
        + " \(owner) is used."
    case .asyncFactory:
      // Named only when shown: an asynchronous request meets this error at every async
      // component it makes, and never shows it.
      let component = asyncNeed?.component.summary ?? failing
      return "\(component) is made asynchronously (an async factory, injection or postInit),"
        + " and this request is synchronous;"
        + " resolve it with try await resolveAsync(), or make it at boot (try await"
        + " container.initializeSingletonObjectsAsync() for .single components), after which"
        + " synchronous requests read it."
    case .asyncInjection:
      return "\(failing) has an async injection or postInit, and inject(into:) is"
        + " synchronous; use try await container.injectAsync(into:)."
    case .containerShutDown:
      return "the container was shut down (shutdown()); its requests fail from then on."
    case .storageMismatch(let message):
      return message
    }
  }

  /// ` for CheckoutService (CheckoutFramework)`: who made the failing request.
  private var asker: String {
    switch (path.count > 1 ? path[path.count - 2].requested : nil, requesterFramework) {
    case (let component?, let framework?): " for \(component) (\(framework))"
    case (let component?, nil): " for \(component)"
    case (nil, let framework?): " for \(framework)"
    case (nil, nil): ""
    }
  }

  /// The path as shown: a cycle is cut where it first comes back to a request.
  private var shownPath: ArraySlice<Step> {
    guard reason == .cycle else { return path[...] }
    let names = path.map { $0.component ?? $0.requested }
    for end in names.indices where names[..<end].contains(names[end]) {
      return path[...end]
    }
    return path[...]
  }

  /// The loop of a cycle: from the first repeated request to its repetition.
  var loop: ArraySlice<Step> {
    let shown = shownPath
    guard let last = shown.last,
      let start = shown.dropLast().firstIndex(where: {
        ($0.component ?? $0.requested) == (last.component ?? last.requested)
      })
    else { return shown }
    return path[start...shown.endIndex - 1]
  }
}
