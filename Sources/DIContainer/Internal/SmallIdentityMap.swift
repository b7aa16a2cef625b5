/// A map keyed by object identity for the few entries of a request scope or an object
/// graph (their instances, by component).
///
/// The entries sit in two parallel arrays searched from the start, which costs less than
/// hashing the key when there are few. Past ``indexedCount`` entries a dictionary indexes
/// them, so a map with many entries stays linear in their number.
struct SmallIdentityMap<Slot> {
  private var keys: [ObjectIdentifier] = []
  private var slots: [Slot] = []
  /// The position of each key, once there are more than ``indexedCount`` of them.
  private var positions: [ObjectIdentifier: Int]?

  /// How many entries are searched without an index.
  static var indexedCount: Int { 16 }

  /// The slot of `key`; setting nil removes it.
  subscript(key: ObjectIdentifier) -> Slot? {
    get {
      guard let position = position(of: key) else { return nil }
      return slots[position]
    }
    set {
      switch (position(of: key), newValue) {
      case (let position?, let slot?): slots[position] = slot
      case (let position?, nil): remove(at: position)
      case (nil, let slot?): append(slot, for: key)
      case (nil, nil): break
      }
    }
  }

  /// Every slot, in the order they were added (but for removals).
  var all: [Slot] { slots }

  /// Replaces every slot with what `transform` makes of it; nil removes it.
  mutating func update(_ transform: (Slot) -> Slot?) {
    var updated = SmallIdentityMap()
    for (key, slot) in zip(keys, slots) {
      if let new = transform(slot) { updated.append(new, for: key) }
    }
    self = updated
  }

  private func position(of key: ObjectIdentifier) -> Int? {
    if let positions { return positions[key] }
    return keys.firstIndex(of: key)
  }

  private mutating func append(_ slot: Slot, for key: ObjectIdentifier) {
    keys.append(key)
    slots.append(slot)
    if positions != nil {
      positions?[key] = keys.count - 1
    } else if keys.count > Self.indexedCount {
      positions = Dictionary(uniqueKeysWithValues: zip(keys, keys.indices))
    }
  }

  /// Removes the entry at `position`, moving the last one into its place.
  private mutating func remove(at position: Int) {
    let removed = keys[position]
    let last = keys.count - 1
    if position != last {
      keys.swapAt(position, last)
      slots.swapAt(position, last)
      positions?[keys[position]] = position
    }
    keys.removeLast()
    slots.removeLast()
    positions?[removed] = nil
  }
}
