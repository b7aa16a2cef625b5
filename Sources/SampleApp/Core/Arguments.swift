/// A command's options, read by hand: `--name value`, `--name=value` and flags.
struct Arguments {
  let command: String
  private var remaining: [String]

  init(command: String, _ arguments: [String]) {
    self.command = command
    remaining = arguments
  }

  /// Whether `--help` or `-h` was given.
  var wantsHelp: Bool { remaining.contains("--help") || remaining.contains("-h") }

  /// Takes the flag `name`; `true` when it was given.
  mutating func flag(_ name: String) -> Bool {
    guard let index = remaining.firstIndex(of: name) else { return false }
    remaining.remove(at: index)
    return true
  }

  /// Takes the value of the option `name`, or nil when it was not given.
  mutating func value(_ name: String) throws(UsageError) -> String? {
    if let index = remaining.firstIndex(where: { $0.hasPrefix(name + "=") }) {
      let value = String(remaining.remove(at: index).dropFirst(name.count + 1))
      return value
    }
    guard let index = remaining.firstIndex(of: name) else { return nil }
    guard index + 1 < remaining.count, !remaining[index + 1].hasPrefix("--") else {
      throw UsageError("\(name) needs a value", command: command)
    }
    let value = remaining[index + 1]
    remaining.removeSubrange(index...index + 1)
    return value
  }

  /// Takes the whole-number option `name`, which must lie in `range`.
  mutating func number(_ name: String, in range: ClosedRange<Int>) throws(UsageError) -> Int? {
    guard let text = try value(name) else { return nil }
    guard let number = Int(text), range.contains(number) else {
      throw UsageError(
        "\(name) takes a whole number from \(range.lowerBound) to \(range.upperBound),"
          + " not '\(text)'", command: command)
    }
    return number
  }

  /// Fails when anything is left that no option took.
  func finish() throws(UsageError) {
    guard let first = remaining.first else { return }
    let kind = first.hasPrefix("-") ? "unknown option" : "unexpected argument"
    throw UsageError("\(kind) '\(first)' for \(command)", command: command)
  }
}
