/// Something the library runs on an instance it made or drops: one `postInit` or one
/// `onClean` call's closure, synchronous or `async`.
enum InstanceStep: Sendable {
  case sync(@Sendable (Any) throws -> Void)
  case async(@Sendable (Any) async throws -> Void)

  /// Whether the step must be awaited.
  var isAsync: Bool {
    if case .async = self { return true }
    return false
  }
}
