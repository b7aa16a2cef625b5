/// A value made on first need by an asynchronous request and kept: what `AsyncLazy` and
/// `AsyncLazy1…5` share.
///
/// Made through ``AsyncOnce``: concurrent first reads make one value, the others suspend
/// until it is made; a failed or cancelled making leaves nothing, so a later read tries
/// again.
final class AsyncMadeOnce: Sendable {
  private let made = Locked<Instance?>(nil)
  private let once = AsyncOnce()

  /// The kept value, or the one `make` makes now (and is kept), a `type`; a read whose
  /// task is cancelled while it waits for another read's making throws.
  func value(
    _ type: Any.Type, _ make: () async throws(DIError) -> Any
  ) async throws(DIError) -> Any {
    let request = AsyncRequest()
    while true {
      if let made = made.withLock({ $0 }) { return made.value }
      try await once.run(
        for: request, isKept: { made.withLock { $0 != nil } },
        make: { () async throws(DIError) in
          let value = try await make()
          made.withLock { $0 = Instance(value: value) }
        },
        cancelled: { DIError(waitCancelledFor: type) })
    }
  }

  /// Forgets the kept value, so the next ``value(_:)`` makes one again.
  func clear() {
    made.withLock { $0 = nil }
  }

  /// Whether the value was made.
  var wasMade: Bool {
    made.withLock { $0 != nil }
  }

  /// How a delayed value named `name` describes itself: with the kept value, or saying it
  /// is not made yet; never makes it.
  func describe(_ name: String) -> String {
    MadeOnce.describe(name, made: made.withLock { $0 })
  }
}
