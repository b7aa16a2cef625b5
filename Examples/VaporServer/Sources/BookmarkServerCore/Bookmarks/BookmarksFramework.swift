public import DIContainer
public import DIFrameworks

/// The bookmarks: the per-request log and handlers, and the server's counters. Needs a
/// ``BookmarkStore`` (``SQLiteStoragePart`` or ``PostgresStoragePart``) and a `Logger`.
public final class BookmarksFramework: DIFramework {
  /// Registers the framework's components.
  ///
  /// - Parameter container: The container the framework is appended to.
  public static func load(container: DIContainer) {
    container.register(RequestLog.init(logger:))
      .lifetime(.scoped)
      .onClean { log in log.flush() }
    container.register(ServerCounters.init)
      .lifetime(.perFramework(.single))
    container.register(BookmarkHandler.init(store:log:))
    container.register(StatsHandler.init(counters:log:))
  }
}
