public import Hummingbird
public import HummingbirdDIContainer
public import Logging

/// The same `GET /stock` route wired by hand, without the container: what the load script
/// compares the container's server with. It builds each request's log and handler itself,
/// and closes the log after the body.
public struct HandWiredApp: Sendable {
  /// The tracker its pool and logs report to.
  public let tracker: ResourceTracker
  private let pool: ConnectionPool
  private let stock: any StockService

  /// Connects Inventory's pool and makes the warehouse.
  ///
  /// - Parameter tracker: Where the pool and the logs report.
  /// - Throws: What connecting throws.
  public init(tracker: ResourceTracker) async throws {
    self.tracker = tracker
    pool = try await ConnectionPool.connect("inventory-db", tracker: tracker)
    stock = Warehouse(pool: pool)
  }

  /// Makes the handler of one request, as the container's graph would.
  ///
  /// - Parameter request: The request.
  /// - Returns: The handler and its request log, which the caller closes.
  public func stockHandler(for request: HTTPRequestInfo) -> (StockHandler, RequestLog) {
    let log = RequestLog(request: request, tracker: tracker)
    return (StockHandler(stock: stock, log: log), log)
  }

  /// Makes the application: `GET /stock` only; the pool closes once the server has stopped.
  ///
  /// - Parameters:
  ///   - configuration: Address and server name.
  ///   - logger: The server's logger.
  /// - Returns: The application.
  public func application(configuration: ApplicationConfiguration, logger: Logger)
    -> some ApplicationProtocol
  {
    let router = Router()
    router.get("stock") { request, context in
      let info = HTTPRequestInfo(
        id: context.id, method: request.method, path: request.uri.path, logger: context.logger)
      let (handler, log) = stockHandler(for: info)
      defer { log.close() }
      return handler.list()
    }
    return Application(
      router: router, configuration: configuration, services: [PoolService(pool: pool)],
      logger: logger)
  }
}
