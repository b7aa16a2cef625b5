/// The candidates of every service key, in an open-addressing table built once per snapshot.
///
/// The hot path of every request: one multiplicative hash of two pointers and usually one
/// probe, where a `Dictionary` would run SipHash.
struct ServiceTable: Sendable {
  private let keys: [ServiceKey]
  private let entries: [ServiceEntry?]
  private let shift: UInt

  init(_ entries: [ServiceKey: ServiceEntry]) {
    var bits: UInt = 3
    while (1 << bits) < entries.count * 2 { bits += 1 }
    let capacity = 1 << Int(bits)
    shift = 64 - bits
    var keys = [ServiceKey](
      repeating: ServiceKey(Never.self), count: capacity)
    var slots = [ServiceEntry?](repeating: nil, count: capacity)
    for (key, entry) in entries {
      var index = Self.slot(of: key, shift: shift)
      while slots[index] != nil { index = (index + 1) & (capacity - 1) }
      keys[index] = key
      slots[index] = entry
    }
    self.keys = keys
    self.entries = slots
  }

  @inline(__always)
  private static func slot(of key: ServiceKey, shift: UInt) -> Int {
    let type = UInt(bitPattern: ObjectIdentifier(key.type))
    let tag = key.tag.map { UInt(bitPattern: ObjectIdentifier($0)) } ?? 0
    return Int(truncatingIfNeeded: ((type ^ (tag &* 31)) &* 0x9E37_79B9_7F4A_7C15) >> shift)
  }

  /// The candidates of `key`, if any component provides it.
  @inline(__always)
  subscript(key: ServiceKey) -> ServiceEntry? {
    let mask = keys.count - 1
    var index = Self.slot(of: key, shift: shift)
    while let entry = entries[index] {
      if keys[index] == key { return entry }
      index = (index + 1) & mask
    }
    return nil
  }
}
