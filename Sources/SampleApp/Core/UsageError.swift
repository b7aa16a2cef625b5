/// A command line the sample cannot run: unknown command, unknown option, bad value.
struct UsageError: Error {
  /// The exit status of a usage error (`EX_USAGE` of sysexits.h).
  static let status: Int32 = 64

  /// What is wrong, for standard error.
  let message: String
  /// The command whose help to point at, if any.
  let command: String?

  init(_ message: String, command: String? = nil) {
    self.message = message
    self.command = command
  }

  var result: CommandResult {
    let help = command.map { "sample-app \($0) --help" } ?? "sample-app --help"
    return CommandResult(
      status: Self.status, output: "", errors: "sample-app: \(message)\nRun '\(help)' for usage.\n")
  }
}
