/// The hooks of a closing request scope when one of them has an `async` step: what
/// ``DIRequestScope/closeAwaitingHooks()`` awaits.
@usableFromInline
struct AwaitedHooks: Sendable {
  let teardowns: [Teardown]

  /// Runs the hooks, newest instance first, awaiting the `async` steps.
  @usableFromInline
  func run() async {
    await Teardown.runAwaiting(teardowns)
  }
}
