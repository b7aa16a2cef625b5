/// One asynchronous request: a `resolveAsync` (or a first `AsyncLazy` read) and what its
/// async factories resolve. Its identity stands in the wait graph; it knows which async
/// components it is making, so a loop through them is an error, not a hang.
///
/// A request made while another one runs on the task (an async factory or hook that
/// resolves, or a task it starts, which inherits the task-local) records that one as its
/// parent: sibling requests (child tasks of one `postInit`) wait for each other's makings
/// like unrelated requests, while a request that needs a making of one of its ancestors,
/// which may be awaiting it, fails with a cycle instead of a hang.
final class AsyncRequest: Sendable {
  /// The request of the calling task, if it runs inside one.
  @TaskLocal static var current: AsyncRequest?

  /// The request this one runs inside, if any.
  let parent: AsyncRequest?

  /// The async components being made, outermost first.
  private let making = Locked<[Component]>([])

  /// A request inside the calling task's request, if there is one.
  init() {
    parent = Self.current
  }

  var identity: ObjectIdentifier { ObjectIdentifier(self) }

  /// The identities of the requests this one runs inside, innermost first: each may be
  /// awaiting it.
  var ancestors: [ObjectIdentifier] {
    sequence(first: self, next: \.parent).dropFirst().map(\.identity)
  }

  /// Whether `identity` is this request or one it runs inside.
  func isSelfOrAncestor(_ identity: ObjectIdentifier) -> Bool {
    sequence(first: self, next: \.parent).contains { $0.identity == identity }
  }

  /// Records that the request makes `component` now, unless it or a request it runs inside
  /// is making it already.
  ///
  /// - Returns: nil, or for a loop, the components from the first making of `component`
  ///   to its return.
  func begin(_ component: Component) -> [Component]? {
    let outer = parent.map { $0.chain() } ?? []
    return making.withLock { making in
      let chain = outer + making
      if let start = chain.firstIndex(where: { $0 === component }) {
        return Array(chain[start...]) + [component]
      }
      making.append(component)
      return nil
    }
  }

  /// The components this request and the ones it runs inside are making, outermost first.
  private func chain() -> [Component] {
    (parent.map { $0.chain() } ?? []) + making.withLock { $0 }
  }

  /// The request made `component`, or failed to.
  func end(_ component: Component) {
    making.withLock { making in
      if let index = making.lastIndex(where: { $0 === component }) { making.remove(at: index) }
    }
  }
}
