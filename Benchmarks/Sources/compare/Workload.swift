/// Runs `count` operations of a scenario on state made beforehand.
typealias Operation = (_ count: Int) -> Void

/// One scenario run one way.
struct Workload {
  /// Makes fresh state (a new container with its registrations) outside the timed region
  /// and returns the operation to time on it.
  let setup: () -> Operation
  /// How many threads run the operation at once on the same state.
  var threads = 1
}

/// A scenario of the issue, with its goal.
struct Scenario: Sendable {
  let id: String
  let title: String
  /// The largest acceptable DIContainer ÷ hand-written ratio.
  let goal: Double
  /// Resolves in one operation, to report allocations per resolve.
  var resolvesPerOperation = 1
  let workload: @Sendable (Implementation) -> Workload
}
