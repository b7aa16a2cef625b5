// The registry's list of pending drafts (`SegmentedArray`): elements found where they were
// put across every segment boundary, changed in place, and released when removed.

import DIContainer
import Testing

/// Counts how many of its instances are alive.
private final class SAToken {
  nonisolated(unsafe) static var alive = 0
  let value: Int
  init(_ value: Int) {
    self.value = value
    Self.alive += 1
  }
  deinit { Self.alive -= 1 }
}

@Suite(.serialized) struct SegmentedArrayTests {
  @Test func everyElementIsFoundAtItsIndexAcrossSegmentBoundaries() {
    var list = SegmentedArray<Int>()
    // Segments of 16, 32, 64, …: 1,000 elements fill six and start a seventh.
    for value in 0..<1_000 { list.append(value * 3) }
    #expect(list.count == 1_000)
    for index in [0, 15, 16, 47, 48, 111, 112, 239, 240, 495, 496, 999] {
      #expect(list.withElement(at: index) { $0 } == index * 3)
    }
    let all = (0..<list.count).map { index in list.withElement(at: index) { $0 } }
    #expect(all == (0..<1_000).map { $0 * 3 })
  }

  @Test func updateChangesOneElementInPlace() {
    var list = SegmentedArray<String?>()
    for value in 0..<100 { list.append("draft \(value)") }
    let taken = list.update(at: 47) { $0.take() }
    list.update(at: 48) { $0! += " edited" }
    #expect(taken == "draft 47")
    #expect(list.withElement(at: 47) { $0 } == nil)
    #expect(list.withElement(at: 48) { $0 } == "draft 48 edited")
    #expect(list.withElement(at: 46) { $0 } == "draft 46")
    #expect(list.count == 100)
  }

  @Test func removeAllReleasesTheElementsAndStartsOver() {
    var list = SegmentedArray<SAToken>()
    for value in 0..<50 { list.append(SAToken(value)) }
    #expect(SAToken.alive == 50)
    list.removeAll()
    #expect(SAToken.alive == 0)
    #expect(list.count == 0)
    list.append(SAToken(7))
    #expect(list.withElement(at: 0) { $0.value } == 7)
    list.removeAll()
    #expect(SAToken.alive == 0)
  }
}
