extension DIContainer {
  /// Creates every `.single` component now, as singletons for the rest of the process.
  ///
  /// A component that cannot be made is logged as an error and left to fail again at
  /// its first request. Without this call, `.single` behaves as
  /// `.perApplication(.single)`.
  ///
  /// ```swift
  /// container.register(Config.init).lifetime(.single)
  /// container.initializeSingletonObjects()
  /// ```
  public func initializeSingletonObjects() {
    initializeObjects(for: "initializeSingletonObjects") { component in
      if case .single = component.lifetime { return true }
      return false
    }
  }

  /// Creates the instances of the components `selected` picks, as their lifetimes keep
  /// them; a component that cannot be made is logged as an error of `caller`.
  func initializeObjects(for caller: String, where selected: (Component) -> Bool) {
    for component in snapshot.components where selected(component) {
      do throws(DIError) {
        try DIResolutionContext.with(self, requester: component.framework) {
          (context) throws(DIError) in _ = try context.instance(of: component)
        }
      } catch {
        var error = error
        error.enter(component.name, component: component.summary)
        DISetting.Log.log(.error, "\(caller): \(error)")
      }
    }
  }

  /// Drops every `.perContainer` and `.multiton` instance; the next request makes a new
  /// one.
  ///
  /// The `onClean` hooks of the dropped instances run before this returns, newest
  /// instance first (see ``DIComponentBuilder/onClean(_:)-3sk0e``).
  ///
  /// This does not guarantee the objects are destroyed (others may hold them), only that
  /// the container holds them no more. `.perApplication` and `.single` instances stay.
  ///
  /// ```swift
  /// container.clean()
  /// ```
  public func clean() {
    clean { component in
      switch component.lifetime {
      case .perContainer, .multiton: true
      default: false
      }
    }
  }

  /// Drops the `.perFramework` instances of framework `module`, or the `.perPart`
  /// instances of part `module`.
  package func clean(module: DIModuleID) {
    guard registry.withLock({ $0.loaded.contains(module) }) else {
      if parent?.hasLoaded(module) == true {
        DISetting.Log.log(
          .warning,
          "clean(\(module.kind == .framework ? "framework" : "part"): \(module.name).self):"
            + " \(module.name) was appended to a parent container, whose instances a child's"
            + " clean never drops; clean it on the parent. Nothing was cleaned.")
        return
      }
      let label = module.kind == .framework ? "framework" : "part"
      let known = registry.withLock { $0.loaded.filter { $0.kind == module.kind }.map(\.name) }
      DISetting.Log.log(
        .warning,
        "clean(\(label): \(module.name).self): \(module.name) was never appended to this"
          + " container" + Self.suggestion(ClosestName.to(module.name, in: known), among: known)
          + "; nothing was cleaned.")
      return
    }
    clean { component in
      switch component.lifetime {
      case .perFramework: component.framework == module
      case .perPart: component.part == module
      default: false
      }
    }
  }

  /// `; did you mean Session? (known: Session, Request)` for a warning about an unknown
  /// name; what is known when nothing is close.
  static func suggestion(_ closest: String?, among known: [String]) -> String {
    let list = known.sorted().joined(separator: ", ")
    if let closest { return "; did you mean \(closest)? (known: \(list))" }
    return known.isEmpty ? " (it knows none)" : " (known: \(list))"
  }

  /// Drops the cached instances of the components `matching` selects, then runs their
  /// `onClean` hooks, newest instance first.
  func clean(where matching: (Component) -> Bool) {
    // Run, and released, after every cell's lock.
    Teardown.run(drop(snapshot.components, where: matching))
  }

  /// Drops the cached instances of `components` that `matching` selects and returns their
  /// teardowns, for the caller to run after the cells' locks.
  ///
  /// - Parameter retiring: The container shuts down: its own cells (a `.multiton`'s too)
  ///   keep nothing from now on, so an instance that a request still under way makes is
  ///   dropped, its hook run, instead of being kept where nothing would ever clean it.
  ///   Process-wide cells (`.single`, `.perApplication`) serve other containers too: they
  ///   are cleared only, and only by the last open container that compiled them.
  func drop(
    _ components: [Component], retiring: Bool = false, where matching: (Component) -> Bool
  ) -> [Teardown] {
    var dropped: [(instance: Instance, sequence: UInt64)] = []
    var teardowns: [Teardown] = []
    for component in components where matching(component) {
      let start = dropped.count
      switch component.storage {
      case .cell(let cell) where retiring && component.lifetime.isProcessWide:
        // Cleared by the last open container that hands it out.
        if ApplicationCells.release(cell, by: self), let kept = cell.clear() {
          dropped.append(kept)
        }
      case .cell(let cell):
        if let kept = retiring ? cell.retire() : cell.clear() { dropped.append(kept) }
      case .multiton(let cells): dropped.append(contentsOf: cells.clear(retiring: retiring))
      default: break
      }
      guard let hook = component.onClean else { continue }
      for kept in dropped[start...] {
        teardowns.append(Teardown(instance: kept.instance, sequence: kept.sequence, hook: hook))
      }
    }
    return teardowns
  }
}

extension DIContainer {
  /// Creates every `.single` component now, awaiting async factories: the form for
  /// servers whose singletons connect asynchronously. Afterwards synchronous requests read
  /// them.
  ///
  /// - Throws: The first ``DIError``: a server should not start without its singletons.
  ///
  /// ```swift
  /// try await container.initializeSingletonObjectsAsync()
  /// ```
  public func initializeSingletonObjectsAsync() async throws(DIError) {
    try await initializeObjectsAsync { component in
      if case .single = component.lifetime { return true }
      return false
    }
  }

  /// Creates the instances of the components `selected` picks, as their lifetimes keep
  /// them, awaiting async factories.
  func initializeObjectsAsync(where selected: (Component) -> Bool) async throws(DIError) {
    let snapshot = snapshot
    if snapshot.isShutDown { throw DIError(.containerShutDown, requestedName: "singletons") }
    for component in snapshot.components where selected(component) {
      do throws(DIError) {
        try await resolvingAsync(
          requester: component.framework, arguments: nil, requestScope: nil,
          root: .component(component)
        ) { (context) throws(DIError) in _ = try context.instance(of: component) }
      } catch {
        var error = error
        error.enter(component.name, component: component.summary)
        throw error
      }
    }
  }
}
