public import Hummingbird

/// `GET /stock` and `GET /stock/stream`: the stock, at once or one line at a time.
public final class StockHandler: Sendable {
  private let stock: any StockService
  private let log: RequestLog

  /// Makes the handler of a request.
  ///
  /// - Parameters:
  ///   - stock: Inventory's stock.
  ///   - log: The request's log.
  public init(stock: any StockService, log: RequestLog) {
    self.stock = stock
    self.log = log
  }

  /// Every product with its price and how many are left.
  ///
  /// - Returns: The stock, by SKU.
  /// - Throws: The database's error.
  public func list() async throws -> [StockItem] {
    log.record("listed stock")
    return try await stock.list()
  }

  /// Streams the stock as JSON lines, `rounds` times over, pausing between lines: the body
  /// is written after the route has returned, while the request's log is still open. Each
  /// line says whether the log was open when it was written (`"logOpen":true`).
  ///
  /// - Parameters:
  ///   - rounds: How many times the whole stock is sent.
  ///   - pause: The pause before each line.
  /// - Returns: A streamed response (no content length).
  /// - Throws: The database's error while the stock is read (before the body starts).
  public func stream(rounds: Int, pause: Duration) async throws -> Response {
    let items = try await stock.list()
    let log = self.log
    let body = ResponseBody { writer in
      for _ in 0..<rounds {
        for item in items {
          try await Task.sleep(for: pause)
          log.record("streamed \(item.sku)")
          let line =
            #"{"sku":"\#(item.sku)","available":\#(item.available),"logOpen":\#(!log.isClosed)}"#
          try await writer.write(ByteBuffer(string: line + "\n"))
        }
      }
      try await writer.finish(nil)
    }
    return Response(
      status: .ok, headers: [.contentType: "application/x-ndjson"], body: body)
  }
}
