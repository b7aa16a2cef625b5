extension DIContainer {
  /// Opens a request scope: `.scoped` components get one instance in it, dropped (with
  /// their `onClean` hooks) by ``DIRequestScope/close()``.
  ///
  /// Cheap: the scope shares this container's registrations (nothing is copied) and
  /// allocates its table of instances only when it makes the first one. The scope keeps
  /// the container alive. Close it when the request ends; a scope released unclosed
  /// closes itself.
  ///
  /// - Returns: A new, open scope.
  ///
  /// ```swift
  /// container.register(RequestLog.init).lifetime(.scoped)
  /// let scope = container.makeScope()
  /// defer { scope.close() }
  /// let log: RequestLog = scope.resolve()
  /// ```
  public func makeScope() -> DIRequestScope {
    // Not `overrideLevel ?? self`: that retained and released the container 3 times more
    // (S8 +98 instructions).
    if let level = overrideLevel { return DIRequestScope(container: level) }
    return DIRequestScope(container: self)
  }

  /// The request scope of `owner` (a request, a connection, a job): made on first call,
  /// the same scope at every later call for this owner, closed once the owner is gone.
  ///
  /// The scopes are kept in an ``AssociatedStorage`` of this container, which learns of an
  /// owner's death at its next operation. So an owner's scope is closed (its `.scoped`
  /// instances dropped and their `onClean` hooks run) during the first `scope(for:)` call
  /// on this container, for any owner, after the owner is gone, or when the container is
  /// released, whichever comes first. Call ``DIRequestScope/close()`` yourself to close it
  /// earlier; a closed scope stays the owner's scope (it does not reopen). The scope holds
  /// the container weakly.
  ///
  /// - Parameter owner: The object whose lifetime the scope follows.
  /// - Returns: The owner's scope.
  ///
  /// ```swift
  /// final class Request {}   // your request, connection or job type
  /// let request = Request()
  /// let log: RequestLog = container.scope(for: request).resolve()
  /// let same: RequestLog = container.scope(for: request).resolve()   // the same log
  /// ```
  public func scope(for owner: some AnyObject) -> DIRequestScope {
    if let level = overrideLevel { return level.scope(for: owner) }
    let owned: OwnedScope = ownerScopes.get(for: owner) { _ in
      OwnedScope(DIRequestScope(container: self, holdingWeakly: true))
    }
    return owned.scope
  }
}
