/// A container's registrations and module bookkeeping, edited under the container's lock.
struct Registry {
  var drafts: [ComponentDraft] = []
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
  /// The child containers (``DIContainer/init(parent:)``), weakly: a registration here
  /// makes them publish a new snapshot, which sees it.
  var children: [WeakReference] = []
  /// Whether ``DIContainer/shutdown()`` ran: the snapshot has no component any more.
  var isShutDown = false

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

  /// Compiles every draft that changed since the last snapshot, as registrations of
  /// `owner`, and returns them all.
  mutating func compile(owner: ObjectIdentifier) -> [Component] {
    var components: [Component] = []
    components.reserveCapacity(drafts.count)
    for index in drafts.indices {
      if let compiled = drafts[index].compiled {
        components.append(compiled)
        continue
      }
      let component = Component(draft: drafts[index], storage: storage(for: index), owner: owner)
      drafts[index].compiled = component
      components.append(component)
    }
    return components
  }

  /// Where the instances of draft `index` are kept; its cell is made once and reused.
  private mutating func storage(for index: Int) -> InstanceStorage {
    let lifetime = drafts[index].lifetime
    switch lifetime {
    case .prototype: return .none
    case .objectGraph: return .objectGraph
    case .multiton, .custom: return scopedStorage(for: index)!
    case .scoped:
      let key = drafts[index].requestKey ?? RequestScopedKey()
      drafts[index].requestKey = key
      return .requestScoped(key)
    default: break
    }
    let weak = lifetime.isWeak
    if lifetime.isProcessWide {
      return .cell(
        ApplicationCells.cell(
          for: .init(
            implementation: ObjectIdentifier(drafts[index].implementation),
            file: "\(drafts[index].file)", line: drafts[index].line, weak: weak)))
    }
    if let cell = drafts[index].cell, cell.isWeak == weak { return .cell(cell) }
    let cell = InstanceCell(weak: weak)
    drafts[index].cell = cell
    return .cell(cell)
  }
}
