import Synchronization

/// Whether a type is a parameter modifier, and which, as the runtime answered once per type
/// for the whole process.
///
/// A request for a type no component provides (`Cat?`, `Lazy<Cat>`, `Provider<Cat>`, as a
/// parameter or at the top level) asks whether the type is a modifier, and so does a
/// registration for each parameter whose metadata does not settle it
/// (``DIRequest/modifier(_:)``). The runtime answers from its own conformance cache, about
/// 280 instructions a time (Benchmarks/PROFILE.md). This table keeps the answers: open
/// addressing on the type's metadata address, hashed as the lookup table hashes a key
/// (``ServiceTable``); each slot is written once and read with two atomic loads, with no
/// lock. An answer is never removed: a type's conformances do not change, and its metadata
/// is never freed. Once three quarters of the slots are taken, a type not in the table is
/// asked of the runtime at each request.
enum ModifierCache {
  /// The modifier of `type`, nil when it is none.
  static func modifier(of type: Any.Type) -> (any DIParameterModifier.Type)? {
    table.modifier(of: type)
  }

  private static let table = Table(bits: 10)

  /// An answer, kept for the life of the process once published.
  private final class Answer: Sendable {
    let modifier: (any DIParameterModifier.Type)?

    init(_ modifier: (any DIParameterModifier.Type)?) {
      self.modifier = modifier
    }
  }

  /// The table, of `1 << bits` slots: the process's one, and small ones in tests.
  @safe
  final class Table: @unchecked Sendable {
    /// The metadata address of each slot's type, 0 while the slot is free; written once.
    private let keys: UnsafeMutablePointer<Atomic<UInt>>
    /// The address of each slot's ``Answer``, 0 until the thread that took the slot
    /// publishes it; written once.
    private let answers: UnsafeMutablePointer<Atomic<UInt>>
    private let mask: Int
    private let shift: UInt
    /// How many types may be added: three quarters of the slots, so a probe always ends.
    let limit: Int
    private let added = Atomic<Int>(0)

    /// An empty table of `1 << bits` slots (at least 4).
    init(bits: UInt) {
      let count = 1 << Int(bits)
      unsafe keys = .allocate(capacity: count)
      unsafe answers = .allocate(capacity: count)
      for slot in 0..<count {
        unsafe (keys + slot).initialize(to: Atomic(0))
        unsafe (answers + slot).initialize(to: Atomic(0))
      }
      mask = count - 1
      shift = 64 - bits
      limit = count / 4 * 3
    }

    // The process's table lives as long as the process; a test's is never freed either
    // (its answers are shared with no one, but the slots would need freeing one by one).

    /// The modifier of `type`, nil when it is none.
    func modifier(of type: Any.Type) -> (any DIParameterModifier.Type)? {
      let key = UInt(bitPattern: ObjectIdentifier(type))
      var slot = ServiceTable.Slots.slot(of: ServiceKey(type), shift: shift)
      while true {
        switch unsafe keys[slot].load(ordering: .acquiring) {
        case key:
          let answer = unsafe answers[slot].load(ordering: .acquiring)
          // Taken, not published yet: the runtime answers this once more.
          guard let address = unsafe UnsafeRawPointer(bitPattern: answer) else {
            return Self.ask(type)
          }
          return unsafe Unmanaged<Answer>.fromOpaque(address)._withUnsafeGuaranteedRef(\.modifier)
        case 0:
          return add(type, key: key, from: slot)
        default:
          slot = (slot + 1) & mask
        }
      }
    }

    /// Asks the runtime about `type` and keeps the answer from `slot` on, unless the table
    /// is full or another thread adds it first.
    private func add(
      _ type: Any.Type, key: UInt, from slot: Int
    ) -> (any DIParameterModifier.Type)? {
      let modifier = Self.ask(type)
      guard added.add(1, ordering: .relaxed).newValue <= limit else { return modifier }
      var slot = slot
      while true {
        let (taken, found) = unsafe keys[slot].compareExchange(
          expected: 0, desired: key, ordering: .acquiringAndReleasing)
        if taken {
          let answer = unsafe Unmanaged.passRetained(Answer(modifier)).toOpaque()
          unsafe answers[slot].store(UInt(bitPattern: answer), ordering: .releasing)
          return modifier
        }
        if found == key { return modifier }
        slot = (slot + 1) & mask
      }
    }

    private static func ask(_ type: Any.Type) -> (any DIParameterModifier.Type)? {
      type as? any DIParameterModifier.Type
    }
  }
}
