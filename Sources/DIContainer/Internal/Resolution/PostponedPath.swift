/// The components under construction on the way to an instance whose work was postponed,
/// outermost first, after the path of the postponed work that led there: what a failure of
/// that work names (see ``DIError/postponed(_:path:)``).
///
/// Bounded, so a deep graph whose every component postpones work records a few steps per
/// postponement, not its whole depth each time: past ``limit`` steps it keeps the first one
/// (what was asked) and the innermost ones, and the gap after the first is shown as `…`.
struct PostponedPath: Sendable {
  /// The most steps kept.
  static var limit: Int { 32 }

  /// The steps kept, outermost first.
  private(set) var steps: [Component.Name] = []
  /// Whether steps between the first and the second were left out.
  private(set) var isElided: Bool

  /// An empty path; `isElided` when the steps it will get follow a gap after the first.
  init(isElided: Bool = false) {
    self.isElided = isElided
  }

  /// Adds the innermost step.
  mutating func append(_ step: Component.Name) {
    if steps.count == Self.limit {
      steps.remove(at: 1)
      isElided = true
    }
    steps.append(step)
  }

  /// Adds `count` innermost steps, `step(i)` for `i` in `0..<count`, reading only the last
  /// ones when there are more than the path keeps.
  mutating func append(count: Int, _ step: (Int) -> Component.Name) {
    var first = 0
    if steps.count + count > Self.limit {
      // Only the first step and the innermost ones stay.
      if steps.isEmpty {
        steps.append(step(0))
        first = 1
      } else {
        steps.removeSubrange(1...)
      }
      first = max(first, count - (Self.limit - 1))
      isElided = true
    }
    for index in first..<count { append(step(index)) }
  }
}
