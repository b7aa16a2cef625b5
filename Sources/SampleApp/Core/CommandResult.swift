/// What a command printed and the status the process exits with.
///
/// ```swift
/// let result = SampleCLI.run(["validate"])
/// print(result.output, terminator: "")
/// print(result.status)  // 0
/// ```
public struct CommandResult: Sendable, Equatable {
  /// The exit status: 0 on success, 1 when validation fails, 64 for a usage error.
  public var status: Int32
  /// What the command writes to standard output.
  public var output: String
  /// What the command writes to standard error.
  public var errors: String

  /// Makes a result.
  ///
  /// - Parameters:
  ///   - status: The exit status.
  ///   - output: The standard output text.
  ///   - errors: The standard error text.
  ///
  /// ```swift
  /// let ok = CommandResult(status: 0, output: "done\n")
  /// ```
  public init(status: Int32, output: String, errors: String = "") {
    self.status = status
    self.output = output
    self.errors = errors
  }
}
