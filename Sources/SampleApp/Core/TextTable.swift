/// Lines of columns, padded to line up; numbers are right-aligned.
struct TextTable {
  private let header: [String]
  private var rows: [[String]] = []
  private let rightAligned: Set<Int>

  init(_ header: [String], rightAligned: Set<Int> = []) {
    self.header = header
    self.rightAligned = rightAligned
  }

  mutating func append(_ row: [String]) {
    rows.append(row)
  }

  /// The table, two spaces between columns, no trailing spaces, a newline after each row.
  var text: String {
    let all = [header] + rows
    let widths = header.indices.map { column in
      all.map { $0.indices.contains(column) ? $0[column].count : 0 }.max() ?? 0
    }
    return all.map { row in
      var line = row.enumerated().map { column, cell in
        let padding = String(repeating: " ", count: widths[column] - cell.count)
        return rightAligned.contains(column) ? padding + cell : cell + padding
      }
      .joined(separator: "  ")
      while line.last == " " { line.removeLast() }
      return line + "\n"
    }
    .joined()
  }
}
