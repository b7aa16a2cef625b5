/// The report ``DIGraph/validate()`` throws: every problem of the graph, errors first.
///
/// ```swift
/// do {
///   try container.makeGraph().validate()
/// } catch {
///   print(error)   // "The dependency graph has 2 errors and 1 warning:" and each problem
///   #expect(error.errors.count == 2)
/// }
/// ```
public struct DIGraphValidationError: Error, Sendable, CustomStringConvertible {
  /// Every problem found, errors first, each group in the order found.
  ///
  /// ```swift
  /// for problem in report.problems { print(problem) }
  /// ```
  public let problems: [DIGraph.Problem]

  /// The problems that fail a request.
  ///
  /// ```swift
  /// for problem in report.errors { print(problem.message) }
  /// ```
  public var errors: [DIGraph.Problem] { problems.filter { $0.severity == .error } }

  /// The problems that are only suspicious.
  ///
  /// ```swift
  /// for problem in report.warnings { print(problem.message) }
  /// ```
  public var warnings: [DIGraph.Problem] { problems.filter { $0.severity == .warning } }

  /// The report: a count line, then one line per problem.
  ///
  /// ```swift
  /// print(report)
  /// ```
  public var description: String {
    let errors = errors.count
    let warnings = warnings.count
    var text = "The dependency graph has \(Self.count(errors, "error"))"
    if warnings > 0 { text += " and \(Self.count(warnings, "warning"))" }
    text += ":"
    for problem in problems { text += "\n  \(problem)" }
    return text
  }

  private static func count(_ count: Int, _ noun: String) -> String {
    "\(count) \(noun)\(count == 1 ? "" : "s")"
  }
}
