/// Formats the measurements as Markdown tables.
struct Report {
  let scenarios: [Scenario]
  let timings: [[Implementation: [Double]]]
  /// Allocations per operation, by scenario index and implementation: nil where the counter
  /// is unavailable, absent for an implementation with no form of the scenario.
  let allocations: [[Implementation: Double?]]

  func markdown() -> String {
    var lines: [String] = []
    lines.append(
      "| scenario | hand-written ns/op | DIContainer ns/op | DIContainer ÷ hand | goal "
        + "| Swinject ns/op | Swinject ÷ hand | DIContainer ÷ Swinject "
        + "| DIContainer allocs/resolve |")
    lines.append("| --- | --: | --: | --: | --: | --: | --: | --: | --: |")
    for (index, scenario) in scenarios.enumerated() {
      let hand = Summary(timings[index][.handWritten]!)
      let ours = Summary(timings[index][.diContainer]!)
      let swinject = timings[index][.swinject].map(Summary.init)
      let ratio = ours.median / hand.median
      let goal = scenario.goal.map { "≤ \(Self.number($0))× (\(ratio <= $0 ? "met" : "missed"))" }
      let perResolve = allocations[index][.diContainer]!.map {
        Self.number($0 / Double(scenario.resolvesPerOperation))
      }
      lines.append(
        "| \(scenario.id) \(scenario.title) | \(Self.cell(hand)) | \(Self.cell(ours)) "
          + "| \(Self.ratio(ratio)) | \(goal ?? "—") "
          + "| \(swinject.map(Self.cell) ?? "—") "
          + "| \(swinject.map { Self.ratio($0.median / hand.median) } ?? "—") "
          + "| \(swinject.map { Self.ratio(ours.median / $0.median) } ?? "—") "
          + "| \(perResolve ?? "n/a") |")
    }
    lines.append("")
    lines.append(
      "ns/op: median (min–max) over the rounds; ratios of medians. An S6 operation is the "
        + "whole scenario (container, 1,000 registrations, 1,000 resolves); an S7 operation is "
        + "one S3 graph, counted over both threads; an S12 operation is a new container and "
        + "\(Scenarios.firstResolvers) tasks' first resolves; an S9 operation is the whole "
        + "start-up (10,000 registrations in 100 frameworks, validation, 10,000 resolves). "
        + "—: Swinject has no form of it (no frameworks or validation: S9; no async "
        + "resolution: S11, S12); its S10 is one container, store `.container`, handler "
        + "`.transient` (no frameworks).")
    if let scaling = scalingLine() { lines += ["", scaling] }
    if let async = asyncLine() { lines += ["", async] }
    lines += ["", "Heap allocations per operation (counted on one thread after a warm-up):", ""]
    lines.append("| scenario | hand-written | DIContainer | Swinject 2.10 |")
    lines.append("| --- | --: | --: | --: |")
    for (index, scenario) in scenarios.enumerated() {
      let cells = Implementation.allCases.map { implementation in
        switch allocations[index][implementation] {
        case nil: "—"
        case .some(nil): "n/a"
        case .some(let count?): Self.number(count)
        }
      }
      lines.append("| \(scenario.id) | \(cells.joined(separator: " | ")) |")
    }
    return lines.joined(separator: "\n")
  }

  /// S11 against S3: what resolving through `resolveAsync()` costs over `resolve()`.
  private func asyncLine() -> String? {
    guard let s3 = scenarios.firstIndex(where: { $0.id == "S3" }),
      let s11 = scenarios.firstIndex(where: { $0.id == "S11" })
    else { return nil }
    let sync = Summary(timings[s3][.diContainer]!).median
    let async = Summary(timings[s11][.diContainer]!).median
    return "S11 ÷ S3, DIContainer (`resolveAsync()` ÷ `resolve()`, medians): "
      + "\(Self.ratio(async / sync)) (the issue's goal, ≤ 1.5×, is in instructions: "
      + "Scripts/count-instructions.sh)."
  }

  /// S7 against S3: how much two threads gain over one.
  private func scalingLine() -> String? {
    guard let s3 = scenarios.firstIndex(where: { $0.id == "S3" }),
      let s7 = scenarios.firstIndex(where: { $0.id == "S7" })
    else { return nil }
    let parts = Implementation.allCases.map { implementation in
      let one = Summary(timings[s3][implementation]!).median
      let two = Summary(timings[s7][implementation]!).median
      return "\(implementation.title) \(Self.ratio(one / two))"
    }
    return "S7 scaling, throughput on 2 threads ÷ on 1 thread (S3 median ÷ S7 median; goal for "
      + "DIContainer ≥ 1.6×): " + parts.joined(separator: ", ")
      + " (Swinject's S7 uses its synchronized container, S3 the plain one)."
  }

  private static func cell(_ summary: Summary) -> String {
    "\(number(summary.median)) (\(number(summary.minimum))–\(number(summary.maximum)))"
  }

  private static func ratio(_ value: Double) -> String { "\(number(value))×" }

  /// Three significant digits, at most two decimals.
  static func number(_ value: Double) -> String {
    let decimals = value >= 100 ? 0 : value >= 10 ? 1 : 2
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let rounded = (value * scale).rounded() / scale
    if decimals == 0 { return String(Int(rounded)) }
    let whole = Int(rounded)
    let fraction = Int(((rounded - Double(whole)) * scale).rounded())
    let digits = String(fraction)
    return "\(whole)." + String(repeating: "0", count: decimals - digits.count) + digits
  }
}
