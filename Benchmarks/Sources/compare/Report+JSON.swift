#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension Report {
  /// The table's figures as JSON, for tools to read (`compare --json FILE`): the run's
  /// settings, then per scenario and implementation the median, smallest and largest
  /// nanoseconds per operation, the ratio of medians to hand-written and the heap
  /// allocations per operation (`null` where the counter is unavailable). An implementation
  /// with no form of a scenario is absent from its `implementations`.
  ///
  /// ```json
  /// {"rounds": 7, "minimumMilliseconds": 100, "quick": false, "machine": {…},
  ///  "scenarios": [{"id": "S1", "title": "…", "goal": 4, "resolvesPerOperation": 1,
  ///    "implementations": {"handWritten": {"medianNs": 9.1, "minNs": 8.8, "maxNs": 9.5,
  ///      "ratioToHandWritten": 1, "allocationsPerOperation": 0}, "diContainer": {…}}}]}
  /// ```
  func json(rounds: Int, minimumMilliseconds: UInt64, quick: Bool) -> String {
    let scenarioObjects = scenarios.enumerated().map { index, scenario in
      let hand = Summary(timings[index][.handWritten]!)
      let implementations = scenario.implementations.map { implementation in
        let summary = Summary(timings[index][implementation]!)
        let allocations = allocations[index][implementation] ?? nil
        let figures = JSON.object([
          ("medianNs", JSON.number(summary.median)),
          ("minNs", JSON.number(summary.minimum)),
          ("maxNs", JSON.number(summary.maximum)),
          ("ratioToHandWritten", JSON.number(summary.median / hand.median)),
          ("allocationsPerOperation", allocations.map(JSON.number) ?? "null"),
        ])
        return ("\(implementation)", figures)
      }
      return JSON.object([
        ("id", JSON.string(scenario.id)),
        ("title", JSON.string(scenario.title)),
        ("goal", scenario.goal.map(JSON.number) ?? "null"),
        ("resolvesPerOperation", "\(scenario.resolvesPerOperation)"),
        ("implementations", JSON.object(implementations)),
      ])
    }
    return JSON.object([
      ("rounds", "\(rounds)"),
      ("minimumMilliseconds", "\(minimumMilliseconds)"),
      ("quick", "\(quick)"),
      (
        "machine",
        JSON.object([
          ("processors", "\(Machine.processors)"), ("cpuModel", JSON.string(Machine.cpuModel)),
        ])
      ),
      ("scenarios", "[\n" + scenarioObjects.joined(separator: ",\n") + "\n]"),
    ]) + "\n"
  }

  /// Writes `text` to the file at `path`, replacing it; false if it cannot be written.
  static func write(_ text: String, to path: String) -> Bool {
    guard let file = fopen(path, "w") else { return false }
    let written = fputs(text, file) >= 0
    return fclose(file) == 0 && written
  }
}

/// The few pieces of JSON text the report needs (the package uses no Foundation).
private enum JSON {
  /// `{"key": value, …}` from keys and already encoded values, in the given order.
  static func object(_ members: [(String, String)]) -> String {
    "{" + members.map { "\(string($0.0)): \($0.1)" }.joined(separator: ", ") + "}"
  }

  /// A number; `null` for infinity and NaN, which JSON cannot write.
  static func number(_ value: Double) -> String {
    value.isFinite ? "\(value)" : "null"
  }

  /// A quoted string with `"`, `\` and control characters escaped.
  static func string(_ text: String) -> String {
    var escaped = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": escaped += "\\\""
      case "\\": escaped += "\\\\"
      case "\n": escaped += "\\n"
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        escaped += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: escaped.unicodeScalars.append(scalar)
      }
    }
    return escaped + "\""
  }
}
