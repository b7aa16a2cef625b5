/// A map keyed by object identity for the few entries of a request scope or an object
/// graph (their instances, by component).
///
/// The entries sit in one array searched from the start, which costs less than hashing the
/// key when there are few; its first allocation has room for several, so a small map
/// allocates once. Past ``indexedCount`` entries a dictionary indexes them, so a map with
/// many entries stays linear in their number.
struct SmallIdentityMap<Slot> {
  struct Entry {
    let key: ObjectIdentifier
    var slot: Slot
  }

  private(set) var entries: [Entry] = []
  /// The position of each key, once there are more than ``indexedCount`` of them.
  private var positions: [ObjectIdentifier: Int]?

  /// How many entries are searched without an index.
  static var indexedCount: Int { 16 }

  /// The room the first entry allocates: a request scope's or a graph's usual few.
  static var initialCapacity: Int { 4 }

  /// The slot of `key`.
  @inline(__always)
  subscript(key: ObjectIdentifier) -> Slot? {
    guard let position = position(of: key) else { return nil }
    return entries[position].slot
  }

  /// Makes `slot` the slot of `key`.
  mutating func set(_ slot: consuming Slot, for key: ObjectIdentifier) {
    if let position = position(of: key) {
      entries[position].slot = slot
    } else {
      append(slot, for: key)
    }
  }

  /// Adds `slot` for `key`, which has none (checked in debug builds): ``set(_:for:)``
  /// without its search.
  mutating func insertNew(_ slot: consuming Slot, for key: ObjectIdentifier) {
    assert(position(of: key) == nil, "a key added twice")
    append(slot, for: key)
  }

  /// Whether the map has no entry.
  var isEmpty: Bool { entries.isEmpty }

  /// Removes every entry, keeping the storage when it is no larger than an unindexed
  /// map's, for the map to be reused.
  ///
  /// - Returns: Whether the storage is kept (false: it is released, or there was none).
  mutating func removeAllKeepingSmallStorage() -> Bool {
    let keeps = entries.capacity > 0 && entries.capacity <= Self.indexedCount
    entries.removeAll(keepingCapacity: keeps)
    positions = nil
    return keeps
  }

  /// Replaces every slot with what `transform` makes of it, in place; nil removes it.
  mutating func update(_ transform: (Slot) -> Slot?) {
    var kept = 0
    for index in entries.indices {
      guard let slot = transform(entries[index].slot) else { continue }
      entries[kept] = Entry(key: entries[index].key, slot: slot)
      kept += 1
    }
    guard kept < entries.count else { return }
    entries.removeLast(entries.count - kept)
    if positions != nil { reindex() }
  }

  @inline(__always)
  func position(of key: ObjectIdentifier) -> Int? {
    if let positions { return positions[key] }
    // An index loop reads each key in place; `firstIndex(where:)` copied every entry.
    var position = 0
    while position < entries.count {
      if entries[position].key == key { return position }
      position += 1
    }
    return nil
  }

  private mutating func append(_ slot: consuming Slot, for key: ObjectIdentifier) {
    if entries.capacity == 0 { entries.reserveCapacity(Self.initialCapacity) }
    entries.append(Entry(key: key, slot: slot))
    if positions != nil {
      positions?[key] = entries.count - 1
    } else if entries.count > Self.indexedCount {
      reindex()
    }
  }

  private mutating func reindex() {
    positions = Dictionary(uniqueKeysWithValues: zip(entries.map(\.key), entries.indices))
  }
}

extension SmallIdentityMap: Sendable where Slot: Sendable {}
extension SmallIdentityMap.Entry: Sendable where Slot: Sendable {}
