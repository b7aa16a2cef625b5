/// The sample's command line: `run`, `graph`, `validate` and `modules`.
///
/// `main.swift` passes the process's arguments and prints the result, so tests call the
/// same code without spawning processes.
///
/// ```swift
/// let result = await SampleCLI.run(["run", "--orders", "5"])
/// print(result.output, terminator: "")
/// exit(result.status)
/// ```
public enum SampleCLI {
  /// The usage text `sample-app --help` prints.
  ///
  /// ```swift
  /// print(SampleCLI.usage)
  /// ```
  public static let usage = """
    usage: sample-app <command> [options]

    An order-processing backend made of three DI frameworks (Inventory, Billing,
    Notifications), each its own Swift module.

    commands:
      run [--orders N] [--seed S]        process N generated orders and print a summary
      graph [--format text|dot|mermaid]  print the dependency graph, grouped by framework
      validate [--missing-tracker]       check that every root and service resolves
      modules                            show each framework's implementations, then clean one

    Run 'sample-app <command> --help' for a command's options.

    """

  /// Runs the command line `arguments` (without the program name). It is `async`: the
  /// frameworks' connection pools connect and close asynchronously.
  ///
  /// - Parameter arguments: The command and its options, such as `["graph", "--format", "dot"]`.
  /// - Returns: What to print and the exit status: 0, 1 when `validate` finds problems, 64
  ///   for an unknown command or a bad option.
  ///
  /// ```swift
  /// let result = await SampleCLI.run(["modules"])
  /// ```
  public static func run(_ arguments: [String]) async -> CommandResult {
    guard let command = arguments.first else {
      return CommandResult(
        status: UsageError.status, output: "", errors: "sample-app: missing command\n\n" + usage)
    }
    var options = Arguments(command: command, Array(arguments.dropFirst()))
    do throws(UsageError) {
      switch command {
      case "--help", "-h", "help":
        return CommandResult(status: 0, output: usage)
      case "run":
        return options.wantsHelp ? help(RunCommand.help) : try await RunCommand.run(&options)
      case "graph":
        return options.wantsHelp ? help(GraphCommand.help) : try GraphCommand.run(&options)
      case "validate":
        return options.wantsHelp
          ? help(ValidateCommand.help) : try await ValidateCommand.run(&options)
      case "modules":
        return options.wantsHelp
          ? help(ModulesCommand.help) : try await ModulesCommand.run(&options)
      default:
        throw UsageError("unknown command '\(command)' (commands: run, graph, validate, modules)")
      }
    } catch {
      return error.result
    }
  }

  private static func help(_ text: String) -> CommandResult {
    CommandResult(status: 0, output: text)
  }
}
