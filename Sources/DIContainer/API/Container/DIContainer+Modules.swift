import Synchronization

extension DIContainer {
  /// Runs `load` with `module` as the innermost module of the calling thread, unless
  /// `module` was loaded into this container or one of its parents before (a module loads
  /// once: a child container uses its parent's).
  ///
  /// Components registered by `load` belong to `module` (and to the enclosing module of
  /// the other kind, if any).
  ///
  /// - Returns: Whether `load` ran.
  @discardableResult
  package func load(_ module: DIModuleID, _ load: () -> Void) -> Bool {
    if let parent, parent.hasLoaded(module) {
      DISetting.Log.log(.verbose, "\(module) is already loaded by a parent container")
      return false
    }
    let thread = ThreadIdentity.current
    let start = edit { registry -> Int? in
      guard registry.loaded.insert(module).inserted else { return nil }
      registry.loading.append((module, thread))
      return registry.count
    }
    guard let start else {
      DISetting.Log.log(.verbose, "\(module) is already loaded")
      return false
    }
    load()
    let registered = edit { registry -> Set<ServiceKey>? in
      if let index = registry.loading.lastIndex(where: { $0.module == module }) {
        registry.loading.remove(at: index)
      }
      guard !ModuleCatalog.knows(module) else { return nil }
      var services = Set<ServiceKey>()
      for index in start..<registry.count {
        registry.withDraft(at: index) { draft in
          guard draft.framework == module || draft.part == module else { return }
          services.formUnion(draft.services)
        }
      }
      return services
    }
    if let registered { ModuleCatalog.record(module, registers: registered) }
    DISetting.Log.log(.info, "loaded \(module)")
    return true
  }

  /// Loads the framework or part `type` (of `kind`) by calling `load` with this
  /// container, unless it was loaded before: `append(framework:)` and `append(part:)`.
  @discardableResult
  package func append(
    _ kind: DIModuleID.Kind, _ type: Any.Type, load: (DIContainer) -> Void
  ) -> DIContainer {
    self.load(DIModuleID(kind, type: type)) { load(self) }
    return self
  }

  /// Drops the instances of the framework or part `type` (of `kind`) kept for it:
  /// `clean(framework:)` and `clean(part:)`.
  package func clean(_ kind: DIModuleID.Kind, _ type: Any.Type) {
    clean(module: DIModuleID(kind, type: type))
  }

  /// The innermost framework whose `load` is running on the calling thread.
  package var loadingFramework: DIModuleID? {
    let thread = ThreadIdentity.current
    return registry.withLock { $0.innermost(.framework, on: thread) }
  }

  /// Records that `framework` imports `imported`: its components fall back on the
  /// imported framework's candidates.
  package func addImport(_ imported: DIModuleID, to framework: DIModuleID) {
    edit { registry in
      _ = registry.imports[framework, default: []].insert(imported)
    }
  }

  /// Whether `module` was loaded into this container or one of its parents.
  package func hasLoaded(_ module: DIModuleID) -> Bool {
    // Relaxed: the word only says a module is loaded, which stays true; nothing else is
    // read through it.
    if lastLoadedModule.load(ordering: .relaxed) == module.bits { return true }
    guard registry.withLock({ $0.loaded.contains(module) }) || parent?.hasLoaded(module) == true
    else { return false }
    lastLoadedModule.store(module.bits, ordering: .relaxed)
    return true
  }
}
