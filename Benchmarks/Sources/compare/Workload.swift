/// Runs `count` operations of a scenario on state made beforehand.
typealias Operation = (_ count: Int) -> Void

/// Runs `count` operations of an async scenario on state made beforehand.
typealias AsyncOperation = @Sendable (_ count: Int) async -> Void

/// One scenario run one way.
struct Workload {
  /// Makes fresh state (a new container with its registrations) outside the timed region
  /// and returns the operation to time on it.
  let setup: () -> Operation
  /// How many threads run the operation at once on the same state.
  var threads = 1

  /// A workload whose operation awaits: `setup` makes the state (outside the timed region)
  /// and returns the async operation, which runs on a task of its own while the harness's
  /// thread waits. The task is one per call of the operation, not per operation, so its
  /// cost is spread over all of them.
  ///
  /// ```swift
  /// Workload.awaiting {
  ///   let container = Scenarios.makeGraphContainer(sharedD: false)
  ///   return { count in for _ in 0..<count { sink(try! await container.resolveAsync() as A) } }
  /// }
  /// ```
  static func awaiting(_ setup: @escaping () -> AsyncOperation) -> Workload {
    Workload {
      let operation = setup()
      return { count in runBlocking { await operation(count) } }
    }
  }
}

/// A scenario of the issues, with its goal.
struct Scenario: Sendable {
  let id: String
  let title: String
  /// The largest acceptable DIContainer ÷ hand-written ratio, or nil where the issue sets
  /// the goal otherwise (S11: against S3) or sets none.
  let goal: Double?
  /// Resolves in one operation, to report allocations per resolve.
  var resolvesPerOperation = 1
  /// How each implementation runs the scenario; nil for one that has no form of it
  /// (Swinject cannot resolve asynchronously).
  let workload: @Sendable (Implementation) -> Workload?

  /// The implementations that have a form of the scenario, in `Implementation` order.
  var implementations: [Implementation] {
    Implementation.allCases.filter { workload($0) != nil }
  }
}
