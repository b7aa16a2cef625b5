/// Associates one value with each key object (owner): the value is made or set once and
/// lives while its owner lives.
///
/// ```swift
/// let storage = AssociatedStorage()
/// let session: Session = storage.get(for: request)                // Session: SimplyInitializable
/// let sameSession: Session = storage.get(for: request)            // the same object
/// let tracker: Tracker = storage.get(for: request) { _ in Tracker() }  // made once per owner
/// storage.set(Metrics(), for: request)
/// let metrics: Metrics? = storage.get(for: request)
/// ```
///
/// **When values are released.** Linux has no hook on an object's deallocation, so the
/// storage cannot learn at once that an owner died. Each entry holds its owner weakly;
/// every operation of the storage (any `get`, `set` or ``count``) first removes the
/// entries whose owner is gone and releases their values, after its lock. So a value is
/// released at the latest at the storage's next operation after its owner's death, and
/// stays in memory until then if there is none; it is never returned for another
/// object, even one allocated at the dead owner's address. An operation's cost grows with
/// the number of owners stored.
///
/// One value per owner per storage: keep one storage per value type. A `get` that finds
/// a value of another type treats it as absent (the making forms replace it). A value
/// that holds its owner strongly keeps it alive forever.
///
/// Thread-safe. Values need not be `Sendable`; a value shared by threads must be
/// thread-safe itself. A making closure runs once per owner even under concurrent calls;
/// it may use the storage.
public final class AssociatedStorage: Sendable {
  private struct Entry {
    let owner: WeakReference
    var value: Instance
  }

  private struct State {
    var entries: [ObjectIdentifier: Entry] = [:]
    /// The thread running a making closure, and the owners it is making values for.
    var maker: ThreadIdentity?
    var making: [ObjectIdentifier] = []
  }

  private let state = Locked(State())
  /// Held while a making closure runs, so each owner's value is made once.
  private let creation = Lock()

  /// Creates an empty storage.
  ///
  /// ```swift
  /// let storage = AssociatedStorage()
  /// ```
  public init() {}

  /// The value of `owner`, made with `init()` on first access.
  ///
  /// - Parameter owner: The key object.
  /// - Returns: The value associated with `owner`.
  ///
  /// ```swift
  /// let dependent: Dependent = storage.get(for: owner)
  /// ```
  public func get<Value: SimplyInitializable>(for owner: some AnyObject) -> Value {
    get(for: owner) { _ in Value() }
  }

  /// The value of `owner`, made with `init(with: owner)` on first access.
  ///
  /// - Parameter owner: The key object.
  /// - Returns: The value associated with `owner`.
  ///
  /// ```swift
  /// let dependent: Dependent = storage.get(for: owner)   // Dependent(with: owner)
  /// ```
  public func get<Value: KeyObjectInitializable>(for owner: Value.KeyObject) -> Value {
    get(for: owner) { owner in Value(with: owner) }
  }

  /// The value set for `owner`, or nil.
  ///
  /// - Parameter owner: The key object.
  /// - Returns: The value associated with `owner`, if there is one of type `Value`.
  ///
  /// ```swift
  /// let dependent: Dependent? = storage.get(for: owner)
  /// ```
  public func get<Value>(for owner: some AnyObject) -> Value? {
    lookup(owner)?.value as? Value
  }

  /// Associates `value` with `owner`, replacing its previous value.
  ///
  /// - Parameters:
  ///   - value: The value; it lives while `owner` does.
  ///   - owner: The key object.
  ///
  /// ```swift
  /// storage.set(Dependent(), for: owner)
  /// ```
  public func set<Value>(_ value: Value, for owner: some AnyObject) {
    store(Instance(value: value), for: owner)
  }

  /// The value of `owner`, made by `make` on first access.
  ///
  /// `make` runs once per owner, also when several threads ask at once; pass it at
  /// every call, since any call may be the first.
  ///
  /// - Parameters:
  ///   - owner: The key object.
  ///   - make: Makes the value from the owner; it may use this storage for other owners.
  /// - Returns: The value associated with `owner`.
  ///
  /// ```swift
  /// let dependent: Dependent = storage.get(for: owner) { owner in Dependent() }
  /// ```
  public func get<Owner: AnyObject, Value>(
    for owner: Owner, _ make: (Owner) -> Value
  ) -> Value {
    if let found = lookup(owner)?.value as? Value { return found }
    let me = ThreadIdentity.current
    let id = ObjectIdentifier(owner)
    let nested = state.withLock { state in
      guard state.maker == me else { return false }
      precondition(
        !state.making.contains(id),
        "AssociatedStorage: the value of \(Owner.self) is asked for while it is being made")
      return true
    }
    if nested {
      // A making closure of this thread asks for another owner's value.
      return makeValue(id: id, owner: owner, with: make)
    }
    return creation.withLock { () -> Instance in
      if let found = lookup(owner), found.value is Value { return found }
      state.withLock { $0.maker = me }
      defer { state.withLock { $0.maker = nil } }
      return Instance(value: makeValue(id: id, owner: owner, with: make))
    }.value as! Value
  }

  /// How many owners have a value (dead owners' values are released first).
  ///
  /// ```swift
  /// print(storage.count)
  /// ```
  public var count: Int {
    let (count, dropped) = state.withLock { state in
      (state.entries.count - Self.dead(in: state.entries).count, Self.purge(&state))
    }
    // Released here, after the lock.
    _ = dropped
    return count
  }

  // MARK: - Entries

  private func makeValue<Owner: AnyObject, Value>(
    id: ObjectIdentifier, owner: Owner, with make: (Owner) -> Value
  ) -> Value {
    state.withLock { $0.making.append(id) }
    defer { state.withLock { $0.making.removeAll { $0 == id } } }
    let value = make(owner)
    store(Instance(value: value), for: owner)
    return value
  }

  /// The live value of `owner`, after purging dead owners.
  private func lookup(_ owner: AnyObject) -> Instance? {
    let (found, dropped) = state.withLock { state -> (Instance?, [Instance]) in
      let dropped = Self.purge(&state)
      guard let entry = state.entries[ObjectIdentifier(owner)], entry.owner.object === owner
      else { return (nil, dropped) }
      return (entry.value, dropped)
    }
    // Released here, after the lock.
    _ = dropped
    return found
  }

  private func store(_ value: Instance, for owner: AnyObject) {
    let dropped = state.withLock { state -> [Instance] in
      var dropped = Self.purge(&state)
      let entry = Entry(owner: WeakReference(owner), value: value)
      if let replaced = state.entries.updateValue(entry, forKey: ObjectIdentifier(owner)) {
        dropped.append(replaced.value)
      }
      return dropped
    }
    // Released here, after the lock.
    _ = dropped
  }

  /// Removes the entries of dead owners and returns their values.
  private static func purge(_ state: inout State) -> [Instance] {
    let dead = dead(in: state.entries)
    return dead.compactMap { state.entries.removeValue(forKey: $0)?.value }
  }

  private static func dead(in entries: [ObjectIdentifier: Entry]) -> [ObjectIdentifier] {
    entries.compactMap { $0.value.owner.object == nil ? $0.key : nil }
  }
}
