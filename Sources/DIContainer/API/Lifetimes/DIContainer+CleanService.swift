extension DIContainer {
  /// Drops the cached instances of the components that answer `service`; the next request
  /// makes new ones (Swinject's `resetObjectScope(_:serviceType:)`).
  ///
  /// A component answers `service` when it provides that type, under any tag or none:
  /// its own type, or one it was registered `as`. Of those registered in this container,
  /// every instance kept by a lifetime of the container is dropped: `.perContainer` and
  /// `.perFramework`/`.perPart` (strong or weak), every `.multiton` key, and the instance
  /// its custom scope (``DILifetime/custom(_:)``) keeps for it, the scope's other
  /// instances staying. Other services' instances stay, dependencies of the dropped ones
  /// included. The `onClean` hooks of the dropped instances run before this returns,
  /// newest instance first, as for ``clean()``.
  ///
  /// As with ``clean()``, the process-wide instances of `.single` and `.perApplication`
  /// stay (other containers may hand them out), and so do the `.scoped` instances of
  /// request scopes, which their scope drops when it closes; `.prototype` and
  /// `.objectGraph` keep nothing. A child container drops only its own registrations'
  /// instances, never its parent's. A service no registration of this container answers
  /// is logged as a warning and nothing is dropped. A custom scope whose ``DIStorage``
  /// does not implement ``DIStorage/removeValue(for:)`` keeps its instance, with a
  /// warning.
  ///
  /// This does not guarantee the objects are destroyed (others may hold them), only that
  /// the container holds them no more.
  ///
  /// - Parameter service: The service type whose instances to drop.
  ///
  /// ```swift
  /// container.register(Session.init).lifetime(.perContainer(.single))
  /// let first: Session = container.resolve()
  /// container.clean(Session.self)
  /// let second: Session = container.resolve()   // a new Session
  /// ```
  public func clean<Service>(_ service: Service.Type) {
    let answering = snapshot.components.filter { $0.answers(Service.self) }
    guard !answering.isEmpty else {
      DISetting.Log.log(.warning, "clean(\(Service.self).self): " + unansweredReason(Service.self))
      return
    }
    // Run, and released, after every cell's lock.
    var teardowns = drop(answering) { !$0.lifetime.isProcessWide }
    for component in answering {
      guard case .scoped(let scope, let cell) = component.storage else { continue }
      if let teardown = scope.drop(cell.key) { teardowns.append(teardown) }
    }
    DISetting.Log.log(.info, "cleaned \(Service.self): \(answering.count) components")
    Teardown.run(teardowns)
  }

  /// Why no registration of this container answers `service`: a parent's does (which a
  /// child's clean never drops), or none at all.
  private func unansweredReason(_ service: Any.Type) -> String {
    var level = snapshot.parent
    while let current = level {
      if current.snapshot.components.contains(where: { $0.answers(service) }) {
        return
          "\(service) is registered in a parent container, whose instances a child's clean"
          + " never drops; clean it on the parent. Nothing was cleaned."
      }
      level = current.snapshot.parent
    }
    return "no registration of this container answers \(service); nothing was cleaned."
  }
}

extension Component {
  /// Whether it provides `service`, under any tag or none.
  fileprivate func answers(_ service: Any.Type) -> Bool {
    services.contains { $0.type == service }
  }
}
