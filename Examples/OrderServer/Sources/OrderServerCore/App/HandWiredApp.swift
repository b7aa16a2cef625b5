public import Hummingbird
public import HummingbirdDIContainer
public import Logging

/// The same `GET /stock` route wired by hand, without the container: what the load script
/// compares the container's server with. It opens the SQLite database itself, builds each
/// request's log and handler itself, and closes the log after the body.
public struct HandWiredApp: Sendable {
  /// The tracker its logs report to.
  public let tracker: ResourceTracker
  private let database: any OrderDatabase
  private let stock: any StockService

  /// Opens the SQLite database (creating and seeding it if needed) and makes the warehouse.
  ///
  /// - Parameters:
  ///   - databasePath: The SQLite file; `:memory:` keeps it in memory.
  ///   - tracker: Where the logs report.
  ///   - logger: The database's logger.
  /// - Throws: What opening the database throws.
  public init(databasePath: String, tracker: ResourceTracker, logger: Logger) async throws {
    self.tracker = tracker
    database = try await SQLiteOrderDatabase.open(path: databasePath, logger: logger)
    stock = Warehouse(database: database)
  }

  /// Makes the handler of one request, as the container's graph would.
  ///
  /// - Parameter request: The request.
  /// - Returns: The handler and its request log, which the caller closes.
  public func stockHandler(for request: HTTPRequestInfo) -> (StockHandler, RequestLog) {
    let log = RequestLog(request: request, tracker: tracker)
    return (StockHandler(stock: stock, log: log), log)
  }

  /// Closes the database, for a caller that made no ``application(configuration:logger:)``
  /// (whose service closes it on shutdown).
  public func close() async {
    await database.close()
  }

  /// Makes the application: `GET /stock` only; the database closes once the server has
  /// stopped.
  ///
  /// - Parameters:
  ///   - configuration: Address and server name.
  ///   - logger: The server's logger.
  /// - Returns: The application.
  public func application(configuration: ApplicationConfiguration, logger: Logger)
    -> some ApplicationProtocol
  {
    let router = Router()
    router.get("stock") { request, context -> Response in
      let info = HTTPRequestInfo(
        id: context.id, method: request.method, path: request.uri.path, logger: context.logger)
      let (handler, log) = stockHandler(for: info)
      var response: Response
      do {
        response = try await handler.list().response(from: request, context: context)
      } catch {
        log.close()
        throw error
      }
      // Closed once the body is written, as the container's request scope is: the two
      // wirings differ by the container only, not by when the request's log closes.
      let body = response.body
      response.body = ResponseBody(contentLength: body.contentLength) { writer in
        defer { log.close() }
        try await body.write(writer)
      }
      return response
    }
    return Application(
      router: router, configuration: configuration,
      services: [DatabaseService(database: database)],
      logger: logger)
  }
}
