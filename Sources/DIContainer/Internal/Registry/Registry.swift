/// A container's registrations and module bookkeeping, edited under the container's lock.
struct Registry: Sendable {
  /// Every registration, in registration order.
  private var registrations: [Registration] = []
  /// The drafts of the registrations made or edited since the last snapshot: once
  /// compiled, a registration's draft is kept by its component only (compiling takes it
  /// out, leaving nil).
  private var pending = SegmentedArray<ComponentDraft?>()
  /// The snapshot requests read now (published unless a registration changed since).
  var current: Snapshot?
  /// Replaced snapshots that a request may still read (see ``UnsafeSnapshotAccess``).
  var retired: [Snapshot] = []
  /// The frameworks and parts whose `load` is running, innermost last, with the thread
  /// running it: a registration belongs to the innermost module of its own thread.
  var loading: [(module: DIModuleID, thread: ThreadIdentity)] = []
  /// Modules loaded into this container (each loads once).
  var loaded: Set<DIModuleID> = []
  /// The frameworks each framework imports.
  var imports: [DIModuleID: Set<DIModuleID>] = [:]
  /// The custom scopes this container knows by name (`.custom(name:)`, `clean(scope:)`).
  var scopes: [String: DIScope] = [:]
  /// The child containers (``DIContainer/init(parent:defaultLifetime:)``), weakly: a registration here
  /// makes them publish a new snapshot, which sees it.
  var children: [WeakReference] = []
  /// Whether a registration was made async (never cleared).
  private(set) var hasAsyncComponents = false
  /// For each component an asynchronous request started from, the async components its
  /// graph can reach in ``current`` (``AsyncPlan``), found on first need; emptied with
  /// each new snapshot. Kept here, under the container's lock, so that a snapshot of a
  /// container that never plans allocates nothing for it.
  var asyncReach: [ObjectIdentifier: [Component]] = [:]
  /// Whether ``DIContainer/shutdown()`` ran: the snapshot has no component any more.
  var isShutDown: Bool { shutDown != nil }
  /// Set when ``DIContainer/shutdown()`` begins: what happens once its hooks have all run,
  /// which a second, concurrent `shutdown()` awaits.
  var shutDown: AsyncEvent?

  /// The innermost module of `kind` being loaded on `thread`. A part counts only inside
  /// the innermost framework: a framework's components do not belong to the part that
  /// appended the framework.
  func innermost(_ kind: DIModuleID.Kind, on thread: ThreadIdentity) -> DIModuleID? {
    for entry in loading.reversed() where entry.thread == thread {
      if entry.module.kind == kind { return entry.module }
      if entry.module.kind == .framework { return nil }
    }
    return nil
  }

  /// Where a registration's draft is.
  private enum Registration {
    /// Made or edited since the last snapshot: `pending[index]`.
    case pending(index: Int)
    case compiled(Component)
  }

  /// How many registrations there are.
  var count: Int { registrations.count }

  /// What `body` reads of the draft of registration `index`.
  func withDraft<Result>(
    at index: Int, _ body: (borrowing ComponentDraft) -> Result
  ) -> Result {
    switch registrations[index] {
    case .pending(let pendingIndex): pending.withElement(at: pendingIndex) { body($0!) }
    case .compiled(let component): body(component.draft)
    }
  }

  /// Adds a registration.
  ///
  /// - Returns: Its index.
  mutating func append(_ draft: consuming ComponentDraft) -> Int {
    registrations.append(.pending(index: pending.count))
    pending.append(consume draft)
    return registrations.count - 1
  }

  /// Applies `change` to the draft of registration `index`, which the next snapshot
  /// compiles again.
  mutating func edit<Result>(
    at index: Int, _ change: (inout ComponentDraft) -> Result
  ) -> Result {
    let pendingIndex: Int
    switch registrations[index] {
    case .pending(let index):
      pendingIndex = index
    case .compiled(let component):
      pendingIndex = pending.count
      pending.append(component.draft)
      registrations[index] = .pending(index: pendingIndex)
    }
    return pending.update(at: pendingIndex) { change(&$0!) }
  }

  /// Applies `change`, which makes the draft of registration `index` async (an async
  /// factory, injection or `postInit`), like ``edit(at:_:)``, and records that the
  /// container has an async registration. Only the registration forms that make a
  /// component async call it: an edit that does not pays for no check.
  mutating func editMakingAsync(at index: Int, _ change: (inout ComponentDraft) -> Void) {
    hasAsyncComponents = true
    edit(at: index, change)
  }

  /// Compiles every draft that changed since the last snapshot, as registrations of
  /// `container`, and returns them all.
  mutating func compile(for container: DIContainer) -> [Component] {
    let owner = ObjectIdentifier(container)
    var components: [Component] = []
    components.reserveCapacity(registrations.count)
    for index in registrations.indices {
      switch registrations[index] {
      case .compiled(let component):
        components.append(component)
      case .pending(let pendingIndex):
        // Compiled where it lies: each copy of a draft out of its slot is a memcpy.
        let component = pending.update(at: pendingIndex) { (slot) -> Component in
          guard slot != nil else { preconditionFailure("a pending draft compiled twice") }
          let storage = Self.storage(for: &slot!, in: container)
          return Component(draft: slot.take()!, storage: storage, owner: owner)
        }
        registrations[index] = .compiled(component)
        components.append(component)
      }
    }
    pending.removeAll()
    return components
  }

  /// Where the instances of `draft`, a registration of `container`, are kept; its cell is
  /// made once and reused.
  private static func storage(
    for draft: inout ComponentDraft, in container: DIContainer
  ) -> InstanceStorage {
    let lifetime = draft.lifetime
    switch lifetime {
    case .prototype: return .none
    case .objectGraph: return .objectGraph
    case .multiton, .custom: return scopedStorage(for: &draft)!
    case .scoped:
      let key = draft.requestKey ?? RequestScopedKey()
      draft.requestKey = key
      return .requestScoped(key)
    default: break
    }
    let weak = lifetime.isWeak
    if lifetime.isProcessWide {
      return .cell(
        ApplicationCells.cell(
          for: .init(
            implementation: ObjectIdentifier(draft.implementation),
            file: "\(draft.file)", line: draft.line, weak: weak),
          heldBy: container))
    }
    if let cell = draft.cell, cell.isWeak == weak { return .cell(cell) }
    let cell = InstanceCell(weak: weak)
    draft.cell = cell
    return .cell(cell)
  }
}
