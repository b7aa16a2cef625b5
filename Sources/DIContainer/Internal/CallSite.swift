/// Where a user's code made a request: the `file:line` a failure shows as "requested at".
package struct CallSite: Sendable, CustomStringConvertible {
  package let file: StaticString
  package let line: UInt

  /// `App/main.swift:12`.
  package var description: String { "\(file):\(line)" }

  package init(file: StaticString, line: UInt) {
    self.file = file
    self.line = line
  }
}
