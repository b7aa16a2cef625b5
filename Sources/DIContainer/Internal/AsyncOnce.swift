/// One making at a time of an async component with a caching lifetime, across tasks:
/// the first request makes it, the others suspend (no thread blocks) until it is done.
///
/// A waiting request whose maker succeeded, or ended before it began to wait, tries again
/// and finds the instance kept; one whose maker failed gets the same error; one whose maker
/// was cancelled makes it itself (a cancellation is the maker's, not a failure to share). A
/// wait that would close a loop between requests is a ``DIError``.
final class AsyncOnce: Sendable {
  private enum Outcome: Sendable {
    /// The making ended before the request waited (it may have kept an instance): the
    /// request looks again where the instance is kept, not here.
    case ended
    case done
    case failed(DIError)
    case cancelled
  }

  private struct Maker {
    let owner: ObjectIdentifier
    let token: UInt64
    var waiters: [CheckedContinuation<Outcome, Never>] = []
  }

  private let state = Locked<Maker?>(nil)

  /// The primitive in `slot`, made there on first need. It lives where the instance is
  /// kept (a cell, a request scope), so every component that keeps its instance there
  /// shares it: the same registration in two containers (a process-wide cell), or
  /// compiled again after an edit while a making is under way.
  static func shared(in slot: inout AsyncOnce?) -> AsyncOnce {
    if let once = slot { return once }
    let once = AsyncOnce()
    slot = once
    return once
  }

  /// Runs `make` for `request`, or waits for the request that runs it. `isKept` says
  /// whether an instance is kept already: a request that looked before another one's
  /// making ended, and becomes the maker after it, finds that instance instead of making
  /// a second one.
  func run(
    for request: AsyncRequest, isKept: () throws(DIError) -> Bool,
    make: () async throws(DIError) -> Void
  ) async throws(DIError) {
    while true {
      let token = CreateOnce.newToken()
      let maker = state.withLock { maker -> Maker? in
        if let maker { return maker }
        maker = Maker(owner: request.identity, token: token)
        return nil
      }
      guard let maker else {
        do throws(DIError) {
          if try !isKept() { try await make() }
          finish(token, .done)
          return
        } catch {
          finish(token, Task.isCancelled ? .cancelled : .failed(error))
          throw error
        }
      }
      // The maker is this request, or one it runs inside, which may be awaiting it.
      guard !request.isSelfOrAncestor(maker.owner) else { throw DIError(.cycle) }
      guard
        WaitGraph.begin(
          request.identity, waitingFor: maker.owner, token: maker.token,
          awaitedBy: request.ancestors)
      else { throw DIError(.waitLoop) }
      let outcome = await withCheckedContinuation { continuation in
        let waiting = state.withLock { current -> Bool in
          guard current?.token == maker.token else { return false }
          current?.waiters.append(continuation)
          return true
        }
        // Ended between the look and the wait: whatever it kept is there to find.
        if !waiting { continuation.resume(returning: .ended) }
      }
      WaitGraph.end(request.identity)
      switch outcome {
      case .done, .ended: return
      case .failed(let error): throw error
      case .cancelled: continue
      }
    }
  }

  private func finish(_ token: UInt64, _ outcome: Outcome) {
    let waiters = state.withLock { maker -> [CheckedContinuation<Outcome, Never>] in
      guard maker?.token == token else { return [] }
      defer { maker = nil }
      return maker?.waiters ?? []
    }
    WaitGraph.release(token)
    for waiter in waiters { waiter.resume(returning: outcome) }
  }
}
