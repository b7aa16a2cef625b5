import ServiceLifecycle

/// Closes a pool on graceful shutdown: the hand-wired server's `DIContainerService`.
struct PoolService: Service {
  let pool: ConnectionPool

  func run() async throws {
    try? await gracefulShutdown()
    await pool.close()
  }
}
