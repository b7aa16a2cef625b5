/// The request scope of one owner (``DIContainer/scope(for:)``), as the container's
/// ``AssociatedStorage`` keeps it: closes the scope when the storage drops it, even if
/// someone still holds the scope.
final class OwnedScope: Sendable {
  let scope: DIRequestScope

  init(_ scope: DIRequestScope) {
    self.scope = scope
  }

  deinit {
    scope.close()
  }
}
