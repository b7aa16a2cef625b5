/// The request scopes a container opened that are not closed yet, held weakly: what
/// `shutdown()` closes.
final class OpenScopes: Sendable {
  private let scopes = Locked<[ObjectIdentifier: WeakReference]>([:])

  /// Records `scope`, open now.
  func add(_ scope: DIRequestScope) {
    scopes.withLock { $0[ObjectIdentifier(scope)] = WeakReference(scope) }
  }

  /// Forgets `scope`, closed now.
  func forget(_ scope: DIRequestScope) {
    _ = scopes.withLock { $0.removeValue(forKey: ObjectIdentifier(scope)) }
  }

  /// The scopes still open and alive, forgotten now.
  func takeAll() -> [DIRequestScope] {
    scopes.withLock { scopes in
      defer { scopes.removeAll() }
      return scopes.values.compactMap { $0.object as? DIRequestScope }
    }
  }
}
