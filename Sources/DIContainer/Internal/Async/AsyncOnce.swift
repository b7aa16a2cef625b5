/// One making at a time of an async component with a caching lifetime, across tasks:
/// the first request makes it, the others suspend (no thread blocks) until it is done.
///
/// A waiting request whose maker succeeded, or ended before it began to wait, tries again
/// and finds the instance kept; one whose maker failed gets the same error; one whose maker
/// was cancelled makes it itself (a cancellation is the maker's, not a failure to share). A
/// waiting request that is cancelled stops waiting at once and throws. A wait that would
/// close a loop between requests is a ``DIError``.
final class AsyncOnce: Sendable {
  private enum Outcome: Sendable {
    /// The making ended before the request waited (it may have kept an instance): the
    /// request looks again where the instance is kept, not here.
    case ended
    case done
    case failed(DIError)
    case cancelled
    /// The waiting request was cancelled.
    case stoppedWaiting
  }

  private struct Waiter {
    let id: UInt64
    let continuation: CheckedContinuation<Outcome, Never>
  }

  private struct Maker {
    let owner: ObjectIdentifier
    let token: UInt64
    var waiters: [Waiter] = []
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
  /// a second one. A wait that the request's task cancels throws `cancelled()`.
  func run(
    for request: AsyncRequest, isKept: () throws(DIError) -> Bool,
    make: () async throws(DIError) -> Void, cancelled: () -> DIError
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
      let outcome = await wait(for: maker.token)
      WaitGraph.end(request.identity)
      switch outcome {
      case .done, .ended: return
      case .failed(let error): throw error
      case .cancelled: continue
      case .stoppedWaiting: throw cancelled()
      }
    }
  }

  /// Waits for the end of the making `token`, or for the task's cancellation.
  private func wait(for token: UInt64) async -> Outcome {
    let id = CreateOnce.newToken()
    return await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        let outcome = state.withLock { current -> Outcome? in
          // Ended between the look and the wait: whatever it kept is there to find.
          guard current?.token == token else { return .ended }
          // Cancelled before it waited: the handler found nothing to resume.
          if Task.isCancelled { return .stoppedWaiting }
          current?.waiters.append(Waiter(id: id, continuation: continuation))
          return nil
        }
        if let outcome { continuation.resume(returning: outcome) }
      }
    } onCancel: {
      let waiter = state.withLock { current -> Waiter? in
        guard let index = current?.waiters.firstIndex(where: { $0.id == id }) else { return nil }
        return current?.waiters.remove(at: index)
      }
      waiter?.continuation.resume(returning: .stoppedWaiting)
    }
  }

  private func finish(_ token: UInt64, _ outcome: Outcome) {
    let waiters = state.withLock { maker -> [Waiter] in
      guard maker?.token == token else { return [] }
      defer { maker = nil }
      return maker?.waiters ?? []
    }
    WaitGraph.release(token)
    for waiter in waiters { waiter.continuation.resume(returning: outcome) }
  }
}
