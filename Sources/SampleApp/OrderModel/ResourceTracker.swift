/// Numbers the resources of one container and records when each opens and closes.
///
/// The application registers one per container (`.perContainer(.single)`); every resource
/// takes it in its initializer. Its events are what the sample prints when a module's
/// resources are closed.
///
/// ```swift
/// container.register(ResourceTracker.init).lifetime(.perContainer(.single))
/// let tracker: ResourceTracker = container.resolve()
/// print(tracker.takeEvents())  // ["opened StockDatabase#1", …]
/// ```
public final class ResourceTracker: Sendable {
  private struct State {
    var serials: [String: Int] = [:]
    var open: [String] = []
    var events: [String] = []
  }

  private let state = LockedState(State())

  /// Makes a tracker with no resources.
  ///
  /// ```swift
  /// let tracker = ResourceTracker()
  /// ```
  public init() {}

  /// Records that a resource of `kind` opened, and names it.
  ///
  /// - Parameter kind: The resource's type name, such as `"StockDatabase"`.
  /// - Returns: Its label: the kind and the next serial number of that kind, from 1.
  ///
  /// ```swift
  /// let label = tracker.open("StockDatabase")  // StockDatabase#1
  /// ```
  public func open(_ kind: String) -> String {
    state.withLock { state in
      state.serials[kind, default: 0] += 1
      let label = "\(kind)#\(state.serials[kind, default: 0])"
      state.open.append(label)
      state.events.append("opened \(label)")
      return label
    }
  }

  /// Records that the resource `label` closed; a second call for it does nothing.
  ///
  /// - Parameter label: The label ``open(_:)`` gave the resource.
  ///
  /// ```swift
  /// tracker.close("StockDatabase#1")
  /// ```
  public func close(_ label: String) {
    state.withLock { state in
      guard let index = state.open.firstIndex(of: label) else { return }
      state.open.remove(at: index)
      state.events.append("closed \(label)")
    }
  }

  /// Whether the resource `label` was opened and is not closed.
  ///
  /// - Parameter label: The resource's label.
  /// - Returns: `true` while it is open.
  ///
  /// ```swift
  /// print(tracker.isOpen("StockDatabase#1"))
  /// ```
  public func isOpen(_ label: String) -> Bool {
    state.withLock { $0.open.contains(label) }
  }

  /// Returns the events recorded since the last call, oldest first, and forgets them.
  ///
  /// - Returns: Lines such as `"opened PaymentsDatabase#2"` and `"closed PaymentsDatabase#1"`.
  ///
  /// ```swift
  /// for event in tracker.takeEvents() { print(event) }
  /// ```
  public func takeEvents() -> [String] {
    state.withLock { state in
      defer { state.events.removeAll() }
      return state.events
    }
  }

  /// Suspends until the resource `label` is closed (at most about five seconds).
  ///
  /// A synchronous `clean(framework:)` hands a pool's `async` close to a task of its own;
  /// the `modules` command waits for it before it prints what was closed. (A server needs
  /// no such wait: `shutdown()` waits for those tasks.)
  ///
  /// - Parameter label: The label ``open(_:)`` gave the resource.
  ///
  /// ```swift
  /// await tracker.waitUntilClosed("PaymentsDatabase#1")
  /// ```
  public func waitUntilClosed(_ label: String) async {
    for _ in 0..<5_000 where isOpen(label) {
      try? await Task.sleep(for: .milliseconds(1))
    }
  }
}
