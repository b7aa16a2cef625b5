/// Runs `body` as synchronous code and returns what it returns: how an async test (an exit
/// test's body, a task) calls a trapping form — `resolve()`, `*container`, `inject(into:)`,
/// `Lazy.value` — which is `@available(*, noasync)` because it stops the program on a
/// `DIError` instead of throwing.
///
/// ```swift
/// await #expect(processExitsWith: .failure) {
///   let container = DIContainer()
///   synchronously { let _: Cat = container.resolve() }
/// }
/// ```
public func synchronously<Result>(_ body: () throws -> Result) rethrows -> Result {
  try body()
}
