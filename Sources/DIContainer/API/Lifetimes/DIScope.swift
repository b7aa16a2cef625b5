/// A named place that keeps the instances of the components registered with
/// ``DILifetime/custom(_:)``, in a ``DIStorage`` of your choice, until you clean it.
///
/// One scope holds one instance per component (per registration, so two containers using
/// one scope keep two instances). With the ``DILifetime/ReferenceKind/single`` policy the
/// scope keeps the instance until ``clean()``; with ``DILifetime/ReferenceKind/weak`` it
/// reuses the instance while anyone else holds it.
///
/// ```swift
/// let session = DIScope(name: "Session", storage: DICacheStorage(), policy: .single)
/// container.register(Cart.init).lifetime(.custom(session))
/// let cart: Cart = container.resolve()   // the same Cart until...
/// session.clean()                        // ...the scope is cleaned
/// ```
///
/// Scopes nest: a scope made with a `parent` is cleaned whenever its parent is (a request
/// scope inside a session scope inside a tenant scope); the parent holds its children
/// weakly, so a child nobody else keeps goes away.
///
/// ```swift
/// let session = DIScope(name: "Session")
/// let screen = DIScope(name: "Screen", parent: session)
/// session.clean()   // cleans screen too, then session
/// ```
///
/// A container also finds a scope by its name: ``DILifetime/custom(name:)`` and
/// ``DIContainer/clean(scope:)`` use the first scope of that name the container met (see
/// ``DILifetime/custom(name:)``).
public final class DIScope: Sendable, CustomStringConvertible {
  /// The scope's name, by which a container finds it.
  ///
  /// ```swift
  /// print(session.name)   // "Session"
  /// ```
  public let name: String
  /// Where the scope keeps its instances.
  ///
  /// ```swift
  /// let storage = session.storage
  /// ```
  public let storage: any DIStorage
  /// Whether the scope holds its instances strongly (`.single`) or weakly (`.weak`).
  ///
  /// ```swift
  /// if session.policy == .weak { print("reused while held elsewhere") }
  /// ```
  public let policy: DILifetime.ReferenceKind
  /// The scope whose ``clean()`` cleans this one too, if any.
  ///
  /// ```swift
  /// let screen = DIScope(name: "Screen", parent: session)
  /// print(screen.parent?.name ?? "none")   // Session
  /// ```
  public let parent: DIScope?
  /// The scopes made with this one as their parent, held weakly; the dead ones are dropped
  /// when a new child comes and when this scope is cleaned.
  private let children = Locked<[WeakReference]>([])
  /// True for the placeholder `.custom(name:)` makes, which the container replaces with
  /// the scope of that name.
  let isNameOnly: Bool

  /// Creates a scope.
  ///
  /// - Parameters:
  ///   - name: The name a container finds the scope by (``DILifetime/custom(name:)``,
  ///     ``DIContainer/clean(scope:)``).
  ///   - storage: Where the instances are kept; ``DICacheStorage`` keeps them until
  ///     cleaned, a storage of your own may forget them earlier.
  ///   - policy: `.single` keeps each instance; `.weak` keeps it only while someone else
  ///     holds it (value types are then not shared).
  ///   - parent: A scope whose ``clean()`` cleans this one first. The child keeps its
  ///     parent alive; the parent does not keep the child.
  ///
  /// ```swift
  /// let session = DIScope(name: "Session", storage: DICacheStorage(), policy: .weak)
  /// let screen = DIScope(name: "Screen", storage: DICacheStorage(), policy: .single, parent: session)
  /// ```
  public init(
    name: String, storage: any DIStorage = DICacheStorage(),
    policy: DILifetime.ReferenceKind = .single, parent: DIScope? = nil
  ) {
    self.name = name
    self.storage = storage
    self.policy = policy
    self.parent = parent
    self.isNameOnly = false
    parent?.adopt(self)
  }

  /// The placeholder of ``DILifetime/custom(name:)``.
  init(lookingUp name: String) {
    self.name = name
    self.storage = DICacheStorage()
    self.policy = .single
    self.parent = nil
    self.isNameOnly = true
  }

  /// Records `child`, made with this scope as its parent.
  private func adopt(_ child: DIScope) {
    children.withLock { children in
      children.removeAll { $0.object == nil }
      children.append(WeakReference(child))
    }
  }

  /// The children still alive, once the dead ones are forgotten.
  private var liveChildren: [DIScope] {
    children.withLock { children in
      children.removeAll { $0.object == nil }
      return children.compactMap { $0.object as? DIScope }
    }
  }

  /// Drops every instance the scope keeps, and those of its child scopes (made with this
  /// one as their `parent`, at any depth); the next request makes a new one.
  ///
  /// Objects still held elsewhere live on; the scope simply holds them no more. The
  /// `onClean` hooks of the instances dropped, the children's with the scope's own, run
  /// before this returns, newest instance first, as for every clean (with a storage of your
  /// own, only if it implements ``DIStorage/removeAll()``); `async` hooks start on a task
  /// of their own.
  ///
  /// ```swift
  /// session.clean()
  /// ```
  public func clean() {
    Teardown.run(drop())
  }

  /// Drops every instance the scope and its child scopes keep, and returns their
  /// teardowns, for the caller to run.
  func drop() -> [Teardown] {
    var teardowns = liveChildren.flatMap { $0.drop() }
    DISetting.Log.log(.info, "cleaned scope \(name)")
    var dropped = storage.removeAll()
    teardowns += dropped.compactMap(\.teardown)
    dropped.removeAll()
    return teardowns
  }

  /// Drops the instance the scope keeps for `key` (one component's), leaving the others,
  /// and returns its teardown, for the caller to run: ``DIContainer/clean(_:)``.
  func drop(_ key: DIStorageKey) -> Teardown? {
    if let removed = storage.removeValue(for: key) { return removed.teardown }
    if storage.value(for: key) != nil {
      DISetting.Log.log(
        .warning,
        "the storage of scope \(name) (\(Swift.type(of: storage))) does not implement"
          + " removeValue(for:), so the instance of \(key) stays; implement it to drop one"
          + " component's instance, or clean the whole scope.")
    }
    return nil
  }

  /// `Session`, with its policy when weak: `Session (weak)`.
  ///
  /// ```swift
  /// print(session)   // Session
  /// ```
  public var description: String {
    policy == .weak ? "\(name) (weak)" : name
  }

  /// The instance kept for `key`, if it is still there (and, for a weak scope, alive).
  ///
  /// - Throws: ``DIError`` when the storage hands out the value of another component (a
  ///   storage of your own may misbehave; the value is never used as this component's).
  func instance(for key: DIStorageKey) throws(DIError) -> Instance? {
    guard let value = storage.value(for: key) else { return nil }
    guard value.key == key else {
      throw DIError(
        .storageMismatch(
          "the storage of scope \(name) (\(Swift.type(of: storage))) returned the value"
            + " of \(value.key) when asked for \(key); a DIStorage must return the value"
            + " it was given for that key, or nil."))
    }
    return value.instance
  }

  /// Keeps `instance` for `key` as the policy says, with the component's `onClean` hook.
  func keep(_ instance: Instance, for key: DIStorageKey, hook: CleanHook?) {
    guard let value = DIStorageValue(instance, for: key, weak: policy == .weak, hook: hook)
    else { return }
    storage.setValue(value, for: key)
  }
}

extension DILifetime {
  /// The lifetime of a custom scope that the container finds by `name`.
  ///
  /// The name is looked up in the container when ``DIComponentBuilder/lifetime(_:)`` is
  /// called: it is the first scope of that name the container met, either a ``DIScope``
  /// an earlier registration used with ``custom(_:)`` or, when there is none, a new scope
  /// with a ``DICacheStorage`` and the `.single` policy that the container makes then and
  /// keeps under that name. Later `.custom(name:)` registrations and
  /// ``DIContainer/clean(scope:)`` use the same one. Names are per container.
  ///
  /// - Parameter name: The scope's name.
  /// - Returns: `.custom` of the container's scope named `name`.
  ///
  /// ```swift
  /// container.register(Cart.init).lifetime(.custom(name: "Session"))
  /// container.clean(scope: "Session")
  /// ```
  public static func custom(name: String) -> DILifetime {
    .custom(DIScope(lookingUp: name))
  }
}
