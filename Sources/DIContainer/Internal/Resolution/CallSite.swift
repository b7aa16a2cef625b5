/// Where a user's code made a request: the `file:line` a failure shows as "requested at".
@usableFromInline
package struct CallSite: Sendable, CustomStringConvertible {
  package let file: StaticString
  package let line: UInt

  /// The place of a request made through the `*` operator, which cannot receive its
  /// caller's `#fileID` and `#line`.
  static let starOperator = CallSite(file: "(unknown: the * operator)", line: 0)

  /// `App/main.swift:12`; for the `*` operator, that the line is unknown.
  @usableFromInline
  package var description: String {
    guard line == 0 else { return "\(file):\(line)" }
    return "an unknown line: the * operator cannot receive its caller's #fileID and #line;"
      + " container.resolve() shows them"
  }

  /// The place `file:line`.
  @usableFromInline
  package init(file: StaticString, line: UInt) {
    self.file = file
    self.line = line
  }
}
