/// How a request gets out of a wait loop between requests without failing.
///
/// Two requests can each make a cached instance that the other's making needs: request A
/// makes X and, before X is kept (its injections or postponed work still running), asks
/// for Y, which B is making; B's making of Y then asks for X. Neither can wait for the
/// other. The request whose wait would close the loop (``WaitGraph``) backs off instead:
///
/// 1. ``CreateOnce`` records the ``Backoff`` on the request and throws a ``DIError``
///    (`.waitLoop`).
/// 2. On the way out, every making of the request ends: one under way fails (an instance
///    it published, its factory having run, is dropped with its `onClean`), one left open
///    for postponed work is abandoned (dropped the same way). The other request wakes and
///    makes them itself.
/// 3. The request's outermost resolution (``DIResolutionContext/backOff(after:)``) waits
///    for the end of the making it needed, then starts the request again from the top,
///    and finds the other's instances kept.
///
/// A request that was handed the partial instance of one of its makings still under way
/// (a cycle through injections) may have kept an instance that holds it, so it cannot
/// drop that making: it fails with the `.waitLoop` error (shown as `.cycle`). The retry
/// is keyed on the request, not on the error, so a factory that wraps the error on its
/// way out does not stop it; one that swallows it leaves the request going on with the
/// makings it still has, and the recorded backoff is used (waiting for a making long
/// ended) by the thread's next failing outermost resolution.
struct Backoff {
  /// Blocks until the making the request would have waited for has ended.
  let awaitEnd: () -> Void
}

extension ResolutionRequest {
  /// The making `token`, whose partial instance the request was handed, ended.
  func forgetServedPartial(_ token: UInt64) {
    guard !servedPartials.isEmpty else { return }
    servedPartials.removeAll { $0 == token }
  }
}

extension DIResolutionContext {
  /// After a resolution failed with `error`: when it was the thread's outermost one and
  /// its request backed off from a wait loop, waits for the making it backed off from and
  /// returns, for the caller to start the request again (an async request's attempt finds
  /// its prepared instances from the first again); else throws `error`.
  @inline(never)
  static func backOff(after error: DIError) throws(DIError) {
    let request = ResolutionRequest.current
    guard request.state.contexts == 0, let backoff = request.backoff.take() else { throw error }
    backoff.awaitEnd()
    request.state.prepared?.rewind()
  }
}
