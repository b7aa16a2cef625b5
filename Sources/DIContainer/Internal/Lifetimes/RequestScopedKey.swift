/// The identity of one `.scoped` component (one registration in one container) in the
/// table of every request scope.
///
/// Lives in the component's draft, so it survives recompilation.
final class RequestScopedKey: Sendable {
  init() {}
}
