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
/// storage cannot learn at once that an owner died. Each entry holds its owner weakly, so
/// a dead owner's value is never returned, not even for a new object allocated at the
/// dead owner's address. The storage sweeps out dead owners' values during its
/// operations. While it holds at most 64 values, every operation sweeps, so a value is
/// released at the latest at the storage's next operation after its owner's death. A
/// larger storage sweeps once the operations since the last sweep outnumber the values
/// that sweep left, so each operation costs O(1) amortized however many owners there are,
/// and a dead owner's value is released within that many later operations. ``count``
/// sweeps at once. Values are released after the storage's lock.
///
/// One value per owner per storage: keep one storage per value type. A `get` that finds
/// a value of another type treats it as absent (the making forms replace it). A value
/// that holds its owner strongly keeps it alive forever.
///
/// Thread-safe. Values need not be `Sendable`; a value shared by threads must be
/// thread-safe itself. A making closure runs once per owner even under concurrent calls,
/// never under the storage's lock; it may use the storage for other owners. Asking for an
/// owner's value inside its own making (directly, or through another thread's making that
/// waits for it) is a broken contract and stops the program with a message.
public final class AssociatedStorage: Sendable {
  private struct Entry {
    let owner: WeakReference
    var value: Instance
  }

  private struct State: CreationState {
    var entries: [ObjectIdentifier: Entry] = [:]
    var makings: [ObjectIdentifier: Making] = [:]
    /// Operations since the last sweep of dead owners, and the entries it left.
    var operations = 0
    var sweptCount = 0

    func ready(_ key: ObjectIdentifier) -> Instance? {
      guard let entry = entries[key], entry.owner.object != nil else { return nil }
      return entry.value
    }

    /// The making of `key`'s value under way, else the live owner's value. Both may be
    /// there: a value ``AssociatedStorage/set(_:for:)`` while the owner's is being made,
    /// which the making's value replaces when it ends (what its waiters get).
    subscript(key: ObjectIdentifier) -> Creation {
      if let making = makings[key] { return .making(making) }
      return ready(key).map(Creation.ready) ?? .absent
    }

    subscript(making key: ObjectIdentifier) -> Making? {
      get { makings[key] }
      set { makings[key] = newValue }
    }

    func _checkInvariants() {
      #if DI_INTERNAL_CHECKS
        var tokens = Set<UInt64>()
        for making in makings.values {
          making._checkInvariants()
          precondition(tokens.insert(making.token).inserted, "two makings, one token")
        }
        for (key, entry) in entries {
          // A dead owner's entry waits for a sweep; a live one is under its own key.
          guard let owner = entry.owner.object else { continue }
          precondition(ObjectIdentifier(owner) == key, "a value kept under another owner's key")
        }
        precondition(operations >= 0 && sweptCount >= 0, "negative sweep counts")
      #endif
    }

    /// Counts an operation; sweeps when due. Returns the dead owners' values, to release
    /// after the lock.
    mutating func operate() -> [Instance] {
      operations += 1
      guard operations > sweptCount || entries.count <= Self.alwaysSwept else { return [] }
      return sweep()
    }

    /// Up to this many values, every operation sweeps: it costs little, and a dead
    /// owner's value goes at once.
    static let alwaysSwept = 64

    /// Removes the entries of dead owners and returns their values.
    mutating func sweep() -> [Instance] {
      var dropped: [Instance] = []
      entries = entries.filter { _, entry in
        guard entry.owner.object == nil else { return true }
        dropped.append(entry.value)
        return false
      }
      operations = 0
      sweptCount = entries.count
      _checkInvariants()
      return dropped
    }
  }

  private let state = Locked(State())

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
  /// let state: OwnerState = storage.get(for: owner)   // OwnerState(with: owner)
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
    let entry = Entry(owner: WeakReference(owner), value: Instance(value: value))
    // What the lock returns is released after it.
    _ = state.withLock { state in
      var dropped = state.operate()
      if let replaced = state.entries.updateValue(entry, forKey: ObjectIdentifier(owner)) {
        dropped.append(replaced.value)
      }
      state._checkInvariants()
      return dropped
    }
  }

  /// The value of `owner`, made by `make` on first access.
  ///
  /// `make` runs once per owner, also when several threads ask at once, and never under
  /// the storage's lock; pass it at every call, since any call may be the first.
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
    let id = ObjectIdentifier(owner)
    // What the lock returns to drop is released after it: a value's deinit may use the
    // storage.
    let (found, _) = state.withLock { state -> (Value?, [Instance]) in
      var dropped = state.operate()
      guard let found = state.ready(id) else { return (nil, dropped) }
      // A value of another type is absent for this form, which replaces it.
      guard let typed = found.value as? Value else {
        if let removed = state.entries.removeValue(forKey: id) { dropped.append(removed.value) }
        state._checkInvariants()
        return (nil, dropped)
      }
      return (typed, dropped)
    }
    if let found { return found }
    do throws(DIError) {
      // A value set meanwhile, or a dead owner's, is released after the lock.
      let (made, _) = try CreateOnce.value(
        in: state, key: id, for: ResolutionRequest.current,
        make: { _ in Instance(value: make(owner)) },
        store: { state, made in
          state.entries.updateValue(Entry(owner: WeakReference(owner), value: made), forKey: id)
        })
      // What this form or another one of the same type made.
      if let value = made.value as? Value { return value }
      return get(for: owner, make)
    } catch {
      preconditionFailure(
        "AssociatedStorage: the value of \(Owner.self) is asked for while it is being made"
          + " (by this thread, or by another one that waits for this one)")
    }
  }

  /// How many owners have a value (dead owners' values are released first).
  ///
  /// ```swift
  /// print(storage.count)
  /// ```
  public var count: Int {
    // What the lock returns to drop is released after it.
    let (count, _) = state.withLock { state in
      let dropped = state.sweep()
      return (state.entries.count, dropped)
    }
    return count
  }

  // MARK: - Entries

  /// The live value of `owner`.
  private func lookup(_ owner: AnyObject) -> Instance? {
    // What the lock returns to drop is released after it.
    let (found, _) = state.withLock { state -> (Instance?, [Instance]) in
      (state.ready(ObjectIdentifier(owner)), state.operate())
    }
    return found
  }
}
