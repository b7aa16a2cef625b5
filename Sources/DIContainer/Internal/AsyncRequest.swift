/// One asynchronous request: a `resolveAsync` and everything its async factories resolve,
/// on any task that inherits it. Its identity stands in the wait graph; it knows which
/// async components it is making, so a loop through them is an error, not a hang.
final class AsyncRequest: Sendable {
  /// The request of the calling task, if it runs inside one.
  @TaskLocal static var current: AsyncRequest?

  /// The async components being made, outermost first.
  private let making = Locked<[Component]>([])

  var identity: ObjectIdentifier { ObjectIdentifier(self) }

  /// Records that the request makes `component` now, unless it is making it already.
  ///
  /// - Returns: nil, or for a loop, the components from the first making of `component`
  ///   to its return.
  func begin(_ component: Component) -> [Component]? {
    making.withLock { making in
      if let start = making.firstIndex(where: { $0 === component }) {
        return Array(making[start...]) + [component]
      }
      making.append(component)
      return nil
    }
  }

  /// The request made `component`, or failed to.
  func end(_ component: Component) {
    making.withLock { making in
      if let index = making.lastIndex(where: { $0 === component }) { making.remove(at: index) }
    }
  }
}
