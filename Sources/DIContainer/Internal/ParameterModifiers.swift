/// The parameter types of a snapshot's components that are modifiers (`Optional`, `Lazy`,
/// `Provider`, `DIMany`, …), each with its modifier, as its registration classified it.
///
/// A request for a type no component provides asks whether the type is a modifier. The
/// runtime answers that from its process-wide conformance cache, about 280 instructions
/// per request (Benchmarks/PROFILE.md); this table answers for every type a component's
/// parameter or injection has, with one multiplicative hash and usually one probe. Other
/// types (a modifier asked for at the top level, or nested in another) are asked of the
/// runtime as before.
struct ParameterModifiers: Sendable {
  /// The types' identities by slot (0: empty).
  private let keys: [UInt]
  private let modifiers: [(any DIParameterModifier.Type)?]
  private let shift: UInt

  /// The table of the modifier parameters of `components`.
  init(_ components: [Component]) {
    var entries: [(type: Any.Type, modifier: any DIParameterModifier.Type)] = []
    func add(_ requests: [DIRequest]) {
      for request in requests {
        guard let modifier = request.parameter.modifier else { continue }
        entries.append((request.parameter.type, modifier))
      }
    }
    for component in components {
      add(component.parameters)
      for injection in component.injections { add(injection.dependencies) }
    }
    guard !entries.isEmpty else {
      (keys, modifiers, shift) = ([], [], 0)
      return
    }
    var bits: UInt = 3
    while (1 << bits) < entries.count * 2 { bits += 1 }
    let mask = (1 << Int(bits)) - 1
    var keys = [UInt](repeating: 0, count: mask + 1)
    var modifiers = [(any DIParameterModifier.Type)?](repeating: nil, count: mask + 1)
    for (type, modifier) in entries {
      let key = Self.key(type)
      var slot = ServiceTable.Slots.slot(of: ServiceKey(type), shift: 64 - bits)
      while keys[slot] != 0, keys[slot] != key { slot = (slot + 1) & mask }
      keys[slot] = key
      modifiers[slot] = modifier
    }
    (self.keys, self.modifiers, shift) = (keys, modifiers, 64 - bits)
  }

  /// The modifier of `type`, when a component has a parameter of that type; nil for any
  /// other type, modifier or not.
  func modifier(of type: Any.Type) -> (any DIParameterModifier.Type)? {
    guard !keys.isEmpty else { return nil }
    let key = Self.key(type)
    let mask = keys.count - 1
    var slot = ServiceTable.Slots.slot(of: ServiceKey(type), shift: shift)
    while keys[slot] != 0 {
      if keys[slot] == key { return modifiers[slot] }
      slot = (slot + 1) & mask
    }
    return nil
  }

  private static func key(_ type: Any.Type) -> UInt {
    UInt(bitPattern: ObjectIdentifier(type))
  }
}
