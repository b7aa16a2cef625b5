/// The process-wide cells of `.perApplication` and `.single` components: one per
/// registration site, whichever container the registration is made in.
enum ApplicationCells {
  struct Key: Hashable {
    let implementation: ObjectIdentifier
    let file: String
    let line: UInt
    let weak: Bool
  }

  private static let cells = Locked<[Key: InstanceCell]>([:])

  /// The cell of the registration at `key`, made on first need.
  static func cell(for key: Key) -> InstanceCell {
    cells.withLock { cells in
      if let cell = cells[key] { return cell }
      let cell = InstanceCell(weak: key.weak)
      cells[key] = cell
      return cell
    }
  }
}
