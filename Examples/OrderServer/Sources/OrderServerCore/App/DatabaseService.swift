import ServiceLifecycle

/// Closes the database on graceful shutdown: the hand-wired server's `DIContainerService`.
struct DatabaseService: Service {
  let database: any OrderDatabase

  func run() async throws {
    try? await gracefulShutdown()
    await database.close()
  }
}
