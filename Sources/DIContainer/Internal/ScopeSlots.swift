/// What a request scope keeps per `.scoped` component, found by the component's key.
///
/// A scope holds a few entries: they sit in two parallel arrays searched from the start,
/// which costs less than hashing the key. Past ``indexedCount`` entries a dictionary
/// indexes them, so a scope with many components stays linear in their number.
struct ScopeSlots<Slot> {
  private var keys: [ObjectIdentifier] = []
  private var slots: [Slot] = []
  /// The position of each key, once there are more than ``indexedCount`` of them.
  private var positions: [ObjectIdentifier: Int]?

  /// How many entries are searched without an index.
  static var indexedCount: Int { 16 }

  /// Whether it holds nothing.
  var isEmpty: Bool { keys.isEmpty }

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

  /// Keeps only the slots for which `isIncluded` is true.
  mutating func filter(_ isIncluded: (Slot) -> Bool) {
    var kept = ScopeSlots()
    for (key, slot) in zip(keys, slots) where isIncluded(slot) { kept.append(slot, for: key) }
    self = kept
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
