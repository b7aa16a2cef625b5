/// SplitMix64: a small seeded generator, so that a failing random test reproduces from the
/// seed it prints.
public struct SeededRandom: RandomNumberGenerator, Sendable {
  private var state: UInt64

  /// A generator whose sequence is fixed by `seed`.
  public init(seed: UInt64) { state = seed }

  /// The next number of the sequence.
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A number in `range`.
  public mutating func int(_ range: ClosedRange<Int>) -> Int {
    Int.random(in: range, using: &self)
  }

  /// True with probability `probability`.
  public mutating func chance(_ probability: Double) -> Bool {
    Double.random(in: 0..<1, using: &self) < probability
  }

  /// One element of a non-empty collection.
  public mutating func pick<C: Collection>(_ elements: C) -> C.Element {
    elements.randomElement(using: &self)!
  }

  /// The seed of case `index` of a test whose base seed is `base`.
  public static func caseSeed(base: UInt64, index: Int) -> UInt64 {
    var mixer = SeededRandom(seed: base ^ (UInt64(index) &* 0xD1B5_4A32_D192_ED03))
    return mixer.next()
  }
}
