/// The candidates of every service key, in an open-addressing table built once per snapshot.
///
/// The hot path of every request: one multiplicative hash of two pointers and usually one
/// probe, where a `Dictionary` would run SipHash. The slots live in buffers of their own, so
/// a lookup touches no reference count. The table's buffers are its unsafe part: written
/// once in `init`, freed in `deinit`, read only through ``Slots``' safe look-ups.
final class ServiceTable: @unchecked Sendable {
  /// The table's slots, read in place: written once in `init`, then only read. A
  /// resolution holds them for as long as its snapshot keeps this table.
  let slots: Slots

  /// What a component provides: one of its service keys. Not retained: the snapshot's
  /// component list keeps the component while its table is built.
  typealias Provision = (key: ServiceKey, component: Unretained<Component>)

  /// The table of the components providing each service key, in the order `provisions`
  /// lists them (registration order): built in one pass over them, with no dictionary of
  /// groups first. The few keys several components provide collect their other candidates
  /// on the side.
  init(_ provisions: [Provision]) {
    var bits: UInt = 3
    while (1 << bits) < provisions.count * 2 { bits += 1 }
    let capacity = 1 << Int(bits)
    let mask = capacity - 1
    let shift = 64 - bits
    let keys = UnsafeMutableBufferPointer<ServiceKey>.allocate(capacity: capacity)
    unsafe keys.initialize(repeating: ServiceKey(Never.self))
    let entries = UnsafeMutableBufferPointer<ServiceEntry?>.allocate(capacity: capacity)
    unsafe entries.initialize(repeating: nil)
    let singles = UnsafeMutableBufferPointer<Unretained<Component>?>.allocate(capacity: capacity)
    unsafe singles.initialize(repeating: nil)
    // The candidates after the first of each slot several components share.
    var others: [Int: [Component]] = [:]
    for (key, component) in provisions {
      var index = Slots.slot(of: key, shift: shift)
      while unsafe entries[index] != nil, unsafe keys[index] != key { index = (index + 1) & mask }
      if unsafe entries[index] == nil {
        unsafe keys[index] = key
        unsafe entries[index] = .single(component.object)
        unsafe singles[index] = component
      } else {
        others[index, default: []].append(component.object)
      }
    }
    for (index, rest) in others {
      guard case .single(let first) = unsafe entries[index] else { continue }
      unsafe entries[index] = .multiple(Candidates([first] + rest))
      unsafe singles[index] = nil
    }
    slots = unsafe Slots(
      keys: keys.baseAddress!, entries: entries.baseAddress!, singles: singles.baseAddress!,
      mask: mask, shift: shift)
  }

  deinit {
    let capacity = slots.mask + 1
    unsafe slots.keys.deinitialize(count: capacity).deallocate()
    // Slot by slot, in code specialized for the entry: the buffer's `deinitialize()`
    // destroys each slot, empty ones too, through `Optional`'s value witnesses.
    for slot in 0..<capacity { _ = unsafe (slots.entries + slot).move() }
    unsafe slots.entries.deallocate()
    unsafe slots.singles.deinitialize(count: capacity).deallocate()
  }

  /// The slots of a ``ServiceTable``, valid while the table lives: a resolution keeps them
  /// on its stack, so a look-up reaches no object (and counts no reference on it).
  ///
  /// Three arrays of `mask + 1` slots, held by their first element only (a buffer's count
  /// would be three words more for every resolution context to copy): an index is always
  /// masked, or one `index(of:)` returned.
  @safe
  struct Slots {
    fileprivate let keys: UnsafeMutablePointer<ServiceKey>
    fileprivate let entries: UnsafeMutablePointer<ServiceEntry?>
    /// The only candidate of each key that has one, unretained: `entries` keeps it.
    fileprivate let singles: UnsafeMutablePointer<Unretained<Component>?>
    fileprivate let mask: Int
    fileprivate let shift: UInt

    /// The first slot to probe for `key` in a table of `64 - shift` bits: a multiplicative
    /// hash of the type and tag pointers.
    @inline(__always)
    static func slot(of key: ServiceKey, shift: UInt) -> Int {
      let type = UInt(bitPattern: ObjectIdentifier(key.type))
      let tag = key.tag.map { UInt(bitPattern: ObjectIdentifier($0)) } ?? 0
      return Int(truncatingIfNeeded: ((type ^ (tag &* 31)) &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    /// Where `key` is, if any component provides it.
    @inline(__always)
    func index(of key: ServiceKey) -> Int? {
      var index = Self.slot(of: key, shift: shift)
      while unsafe entries[index] != nil {
        if unsafe keys[index] == key { return index }
        index = (index + 1) & mask
      }
      return nil
    }

    /// The candidates at `index`.
    @inline(__always)
    func entry(at index: Int) -> ServiceEntry {
      // `index(of:)` only returns occupied slots.
      unsafe entries[index]!
    }

    /// The only candidate at `index`, if there is exactly one.
    @inline(__always)
    func single(at index: Int) -> Unretained<Component>? {
      unsafe singles[index]
    }

    /// The candidates of `key`, if any component provides it.
    @inline(__always)
    subscript(key: ServiceKey) -> ServiceEntry? {
      index(of: key).map(entry(at:))
    }
  }
}
