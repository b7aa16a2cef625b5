import BenchSupport

/// Times workloads: calibrates each to the minimum measurement time, then measures every
/// scenario's implementations interleaved, in an order that rotates from round to round.
struct Harness {
  /// The shortest acceptable measurement.
  let minimumNanoseconds: UInt64
  let rounds: Int
  /// Operations run while counting allocations (after a warm-up).
  let allocationOperations: Int

  /// One timed measurement of `operations` operations per thread; returns the elapsed
  /// nanoseconds. The workload's state is made fresh, outside the timed region.
  func measure(_ workload: Workload, operations: Int) -> UInt64 {
    let operation = workload.setup()
    if workload.threads == 1 {
      let start = now()
      operation(operations)
      return now() - start
    }
    let shared = Unchecked(value: operation)
    return timeOnThreads(workload.threads) { shared.value(operations) }
  }

  /// How many operations per thread make a measurement last at least the minimum time
  /// (with a margin); also warms the code up.
  func calibrate(_ workload: Workload) -> Int {
    let target = Double(minimumNanoseconds) * 1.15
    var operations = 1
    while true {
      let elapsed = Double(max(measure(workload, operations: operations), 1))
      if elapsed >= target { return operations }
      let factor = min(max(target * 1.1 / elapsed, 2), 100)
      operations = Int((Double(operations) * factor).rounded(.up))
    }
  }

  /// Runs every round and returns the nanoseconds per operation of each measurement, by
  /// scenario index and implementation (the implementations that have a form of the
  /// scenario).
  func run(_ scenarios: [Scenario], log: (String) -> Void) -> [[Implementation: [Double]]] {
    var operations: [[Implementation: Int]] = []
    for scenario in scenarios {
      var counts: [Implementation: Int] = [:]
      for implementation in scenario.implementations {
        counts[implementation] = calibrate(scenario.workload(implementation)!)
      }
      operations.append(counts)
      log("calibrated \(scenario.id)")
    }
    var results = Array(repeating: [Implementation: [Double]](), count: scenarios.count)
    for round in 0..<rounds {
      for (index, scenario) in scenarios.enumerated() {
        let implementations = scenario.implementations
        for position in 0..<implementations.count {
          let implementation =
            implementations[(round + index + position) % implementations.count]
          let workload = scenario.workload(implementation)!
          var count = operations[index][implementation]!
          var elapsed = measure(workload, operations: count)
          while elapsed < minimumNanoseconds {
            // Faster than at calibration: measure again, longer.
            count = count * 2
            operations[index][implementation] = count
            elapsed = measure(workload, operations: count)
          }
          let total = Double(count * workload.threads)
          results[index][implementation, default: []].append(Double(elapsed) / total)
        }
      }
      log("round \(round + 1)/\(rounds) done")
    }
    return results
  }

  /// Heap allocations per operation, counted on one thread (an async operation: on the
  /// threads its tasks run on) after a warm-up, or nil where the counter is unavailable.
  /// `implementation` is one of the scenario's.
  func allocations(_ scenario: Scenario, _ implementation: Implementation) -> Double? {
    let operation = scenario.workload(implementation)!.setup()
    let count = max(1, allocationOperations / scenario.resolvesPerOperation)
    operation(min(count, 16))
    bench_allocations_start()
    operation(count)
    let allocations = bench_allocations_stop()
    guard allocations != UInt64.max else { return nil }
    return Double(allocations) / Double(count)
  }
}

/// The middle value, and the smallest and largest.
struct Summary {
  let median: Double
  let minimum: Double
  let maximum: Double

  init(_ values: [Double]) {
    let sorted = values.sorted()
    let middle = sorted.count / 2
    median = sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    minimum = sorted.first!
    maximum = sorted.last!
  }
}
