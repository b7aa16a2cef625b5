import Testing

@testable import DIContainer

/// The path a postponement records is bounded: a deep graph whose components postpone work
/// records a few steps each time, and a failure still names what was asked.
@Suite struct PostponedPathBoundTests {
  private static func name(_ index: Int) -> Component.Name {
    Component.Name(
      implementation: Int.self, file: "Steps.swift", line: UInt(index), framework: nil,
      part: nil)
  }

  private static func lines(_ path: PostponedPath) -> [UInt] { path.steps.map(\.line) }

  @Test func aShortPathKeepsEveryStep() {
    var path = PostponedPath()
    path.append(count: 10) { Self.name($0) }
    path.append(Self.name(10))
    #expect(Self.lines(path) == Array(0...10))
    #expect(!path.isElided)
  }

  @Test func aLongPathKeepsTheFirstStepAndTheInnermostOnes() {
    let limit = PostponedPath.limit
    var path = PostponedPath()
    path.append(count: 1_000) { Self.name($0) }
    #expect(path.steps.count == limit)
    #expect(Self.lines(path) == [0] + (1_000 - (limit - 1)..<1_000).map(UInt.init))
    #expect(path.isElided)
    // One step more drops the oldest after the first.
    path.append(Self.name(1_000))
    #expect(path.steps.count == limit)
    #expect(Self.lines(path).first == 0 && Self.lines(path).last == 1_000)
    #expect(Self.lines(path)[1] == UInt(1_000 - (limit - 2)))
  }

  @Test func stepsAfterAnEarlierPathKeepItsFirstStep() {
    var path = PostponedPath()
    path.append(count: 5) { Self.name(100 + $0) }
    path.append(count: 40) { Self.name($0) }
    #expect(path.steps.count == PostponedPath.limit)
    #expect(Self.lines(path).first == 100 && Self.lines(path).last == 39)
    #expect(path.isElided)
  }

  @Test func aFailureOfDeepPostponedWorkNamesTheRequestAndTheGap() throws {
    let container = DIContainer()
    let depth = 200
    for level in 0..<depth {
      let next = level + 1
      if next < depth {
        ppbRegisterLink(
          scDigit(level / 100), scDigit(level / 10 % 10), scDigit(level % 10),
          scDigit(next / 100), scDigit(next / 10 % 10), scDigit(next % 10), in: container)
      } else {
        ppbRegisterLast(
          scDigit(level / 100), scDigit(level / 10 % 10), scDigit(level % 10), in: container)
      }
    }
    let outcome = SCDeepChain.resolve(from: container)
    guard case .failed(let error) = outcome else {
      Issue.record("a missing dependency resolved")
      return
    }
    #expect(error.code == .notRegistered)
    #expect(error.requested == "SCLevel<SCDigit0, SCDigit0, SCDigit0>")
    let steps = error.path.map(\.requested)
    #expect(steps.count == PostponedPath.limit + 2, "the kept steps, the gap, the missing one")
    #expect(steps[1] == "…")
    #expect(steps[steps.count - 2] == "SCLevel<SCDigit1, SCDigit9, SCDigit9>")
    #expect(steps.last == "PPBMissing")
  }
}

private final class PPBMissing {}

private func ppbRegisterLink<
  H: SCDigit, T: SCDigit, O: SCDigit, NH: SCDigit, NT: SCDigit, NO: SCDigit
>(
  _: H.Type, _: T.Type, _: O.Type, _: NH.Type, _: NT.Type, _: NO.Type,
  in container: DIContainer
) {
  container.register { (next: SCLevel<NH, NT, NO>) in SCLevel<H, T, O>(next: next) }
    .lifetime(.objectGraph)
}

/// The last level postpones work that needs a type nobody registered.
private func ppbRegisterLast<H: SCDigit, T: SCDigit, O: SCDigit>(
  _: H.Type, _: T.Type, _: O.Type, in container: DIContainer
) {
  container.register { SCLevel<H, T, O>(next: nil) }.lifetime(.objectGraph)
    .injection(cycle: true) { (_: SCLevel<H, T, O>, _: PPBMissing) in }
}
