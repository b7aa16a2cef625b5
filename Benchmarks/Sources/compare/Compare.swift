// `swift run -c release --package-path Benchmarks compare [--quick] [--rounds N]
//   [--min-ms N] [--only S1,S3] [--json FILE] [--profile S3 --count N [--override-elsewhere]]
//   [--memory]`
//
// Compares hand-written construction, DIContainer and Swinject 2.10 on the scenarios of
// the issue and prints Markdown tables. See Benchmarks/README.md.

import BenchSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The `compare` command.
@main
enum Compare {
  static func main() {
    let arguments = Array(CommandLine.arguments.dropFirst())
    func option(_ name: String) -> String? {
      guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else {
        return nil
      }
      return arguments[index + 1]
    }

    let quick = arguments.contains("--quick")
    var scenarios = Scenarios.all
    if let only = option("--only") {
      let ids = only.split(separator: ",").map { String($0).uppercased() }
      scenarios = scenarios.filter { ids.contains($0.id) }
    }

    // Profiling: run one implementation's operation of one scenario (default DIContainer),
    // untimed, for a profiler.
    if let id = option("--profile") {
      guard let scenario = Scenarios.all.first(where: { $0.id == id.uppercased() }) else {
        print("unknown scenario \(id)")
        exit(2)
      }
      let count = option("--count").flatMap { Int($0) } ?? 100_000
      let implementation =
        option("--implementation").flatMap { name in
          Implementation.allCases.first { "\($0)".lowercased() == name.lowercased() }
        } ?? .diContainer
      guard let workload = scenario.workload(implementation) else {
        print("\(scenario.id) has no form with \(implementation.title)")
        exit(2)
      }
      // With `--override-elsewhere`, another thread holds a `withOverrides` level meanwhile.
      if arguments.contains("--override-elsewhere") { holdAnOverrideElsewhere() }
      let operation = workload.setup()
      bench_allocations_start()
      operation(count)
      let allocations = bench_allocations_stop()
      // Scripts/count-instructions.sh reads this line: the allocations of the `count`
      // operations (not of the set-up), or "n/a" where the counter is unavailable.
      print(
        "ran \(count) operations of \(scenario.id) with \(implementation.title); allocations: "
          + (allocations == UInt64.max ? "n/a" : "\(allocations)"))
      exit(0)
    }

    // The heap kept per registration only (also printed after a full run's tables).
    if arguments.contains("--memory") {
      guard let figures = Memory.measure() else {
        print("the live heap cannot be read here (glibc 2.33 or later is needed)")
        exit(2)
      }
      print(Memory.markdown(figures))
      exit(0)
    }

    let problems = checkScenarios()
    guard problems.isEmpty else {
      for problem in problems { print("check failed: \(problem)") }
      exit(1)
    }

    let harness = Harness(
      minimumNanoseconds: UInt64(
        option("--min-ms").flatMap { Double($0) } ?? (quick ? 1 : 100)
          * 1_000_000),
      rounds: option("--rounds").flatMap { Int($0) } ?? (quick ? 1 : 7),
      allocationOperations: quick ? 100 : 10_000)

    log(
      "measuring \(scenarios.count) scenarios × up to 3 implementations, \(harness.rounds) rounds, "
        + "≥ \(harness.minimumNanoseconds / 1_000_000) ms each\(quick ? " (quick: CI check only)" : "")"
    )
    let timings = harness.run(scenarios, log: log)
    let allocations = scenarios.map { scenario in
      Dictionary(
        uniqueKeysWithValues: scenario.implementations.map {
          ($0, harness.allocations(scenario, $0))
        })
    }

    print(
      "Machine: \(Machine.processors) processors (nproc), \(Machine.cpuModel); release build; "
        + "\(harness.rounds) rounds, each measurement ≥ \(harness.minimumNanoseconds / 1_000_000) ms"
        + (quick ? " — QUICK MODE: numbers are not meaningful" : ""))
    print("")
    let report = Report(scenarios: scenarios, timings: timings, allocations: allocations)
    print(report.markdown())
    // A quick run checks the scenarios only (CI reports the heap with `--memory`).
    if !quick, let figures = Memory.measure() {
      print("")
      print(Memory.markdown(figures))
    }
    if let path = option("--json") {
      let json = report.json(
        rounds: harness.rounds, minimumMilliseconds: harness.minimumNanoseconds / 1_000_000,
        quick: quick)
      guard Report.write(json, to: path) else {
        log("cannot write \(path)")
        exit(1)
      }
      log("wrote \(path)")
    }
  }

  /// Progress, on standard error so standard output keeps only the tables.
  static func log(_ message: String) {
    let line = message + "\n"
    _ = line.withCString { write(2, $0, strlen($0)) }
  }
}
