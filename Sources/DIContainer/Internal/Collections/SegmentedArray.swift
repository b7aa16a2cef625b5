/// A list that only grows at its end and whose elements never move: each segment holds
/// twice as many as the one before, so an append copies no element.
///
/// An `Array` copies every element into a new buffer each time it outgrows its own: for
/// the registry's drafts (over 200 bytes each) that was about 220 instructions per
/// registration (S6).
package struct SegmentedArray<Element> {
  private var segments: [[Element]] = []

  /// An empty list.
  package init() {}
  /// How many elements there are.
  package private(set) var count = 0

  /// How many elements the first segment holds.
  private static var firstSegmentSize: Int { 16 }

  /// Adds `element` at the end.
  package mutating func append(_ element: consuming Element) {
    let (segment, _) = Self.position(of: count)
    if segment == segments.count {
      var next: [Element] = []
      next.reserveCapacity(Self.firstSegmentSize << segment)
      segments.append(next)
    }
    segments[segment].append(element)
    count += 1
  }

  /// What `body` reads of the element at `index`, which is not copied.
  package func withElement<Result>(at index: Int, _ body: (borrowing Element) -> Result) -> Result {
    let (segment, offset) = Self.position(of: index)
    return body(segments[segment][offset])
  }

  /// Applies `change` to the element at `index` in place.
  package mutating func update<Result>(at index: Int, _ change: (inout Element) -> Result) -> Result
  {
    let (segment, offset) = Self.position(of: index)
    return change(&segments[segment][offset])
  }

  /// Removes every element, and the segments with them.
  package mutating func removeAll() {
    segments = []
    count = 0
  }

  /// The segment that holds the element at `index`, and where in it: segment `s` starts
  /// at `firstSegmentSize × (2^s − 1)`.
  private static func position(of index: Int) -> (segment: Int, offset: Int) {
    precondition(index >= 0, "negative index")
    let segment = Int.bitWidth - 1 - (index / firstSegmentSize + 1).leadingZeroBitCount
    return (segment, index - firstSegmentSize * ((1 << segment) - 1))
  }
}

extension SegmentedArray: Sendable where Element: Sendable {}
