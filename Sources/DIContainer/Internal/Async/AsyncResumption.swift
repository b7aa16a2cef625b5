/// A making an asynchronous request does before its synchronous pass: one its plan found
/// (``AsyncPlan``), or the async component a pass met unmade (see
/// ``DIContainer/resolvingAsync(requester:arguments:requestScope:addressed:graph:root:resuming:_:)``).
///
/// The pass of a container with no async registration is inlined where `resolveAsync()`
/// of a container or a scope is called: the request costs a synchronous resolve, not a
/// chain of async calls (Benchmarks/PROFILE.md, "An async request that has nothing to
/// await does not suspend"). The pass returns its value as a synchronous request does and
/// signals an async component with its error, so nothing generic over the value is built
/// for it: an enum of the value or the need had its metadata looked up at each call.
struct AsyncResumption: Sendable {
  let need: AsyncNeed
  /// The type the component was asked for as (its service: `Store`, where the component
  /// is `PostgresStore`), which the error of a failed making names, as a synchronous
  /// request's does.
  let requested: String
  /// The requests that led to it, outermost first, for the error of a failed making.
  let leadingTo: ArraySlice<DIError.Step>

  /// The making of `need`'s component, asked for as `requested` after `leadingTo`.
  init(need: AsyncNeed, requested: String, leadingTo: ArraySlice<DIError.Step>) {
    self.need = need
    self.requested = requested
    self.leadingTo = leadingTo
  }

  /// Where a request goes on after `error`, which an attempt threw; the error itself when
  /// it is not the signal of an async component to make.
  init(after error: DIError) throws(DIError) {
    guard let need = error.asyncNeed else { throw error }
    self.need = need
    // The path's last step is the request of the async component itself.
    requested = error.path.last?.requested ?? need.component.name
    leadingTo = error.path.dropLast()
  }
}

extension DIContainer {
  /// Goes on with the request of `T` whose first pass threw `error`, in `requestScope`
  /// when there is one: rethrows `error` unless it signals an async component to make.
  /// With no `error` (no pass was run: the container has async registrations), plans the
  /// request first (see ``resolveAsync(_:from:arguments:requestScope:)``). One call for
  /// both, so the inlined `resolveAsync()` has one suspension point (a second one cost a
  /// task switch per request).
  @usableFromInline
  func resolveAsync<T>(
    _ type: T.Type, after error: DIError?, requestScope: DIRequestScope?
  ) async throws(DIError) -> T {
    guard let error else {
      return try await resolveAsync(
        T.self, from: nil, arguments: nil, requestScope: requestScope, addressed: nil)
    }
    // The first pass ran on the task's override level, if it has one: the request goes on
    // there.
    if requestScope == nil, let level = overrideLevel {
      return try await level.resolveAsync(T.self, after: error, requestScope: nil)
    }
    let resumption = try AsyncResumption(after: error)
    return try await resolvingAsync(
      requester: nil, arguments: nil, requestScope: requestScope, resuming: resumption
    ) { (context) throws(DIError) -> T in
      try context.valueWithArguments(T.self, tag: nil)
    }
  }
}

extension DIRequestScope {
  /// Goes on with the request of `T` in this scope whose first pass threw `error`; plans
  /// it first when no pass was run (nil).
  @usableFromInline
  func resolveAsync<T>(_ type: T.Type, after error: DIError?) async throws(DIError) -> T {
    // The attempt found the scope open: its container is there unless it went since.
    let container = try openContainer(for: T.self)
    return try await container.resolveAsync(T.self, after: error, requestScope: self)
  }
}
