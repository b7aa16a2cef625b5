public import Hummingbird
public import HummingbirdDIContainer

/// The API's routes, each resolving its handler in the request's scope.
public enum OrderRoutes {
  /// The `rounds` a stream may ask for.
  public static let streamRounds = 1...1_000
  /// The pause between streamed lines a stream may ask for, in milliseconds.
  public static let streamPauseMilliseconds = 0...10_000

  /// Adds the routes to `router`, whose context carries the request scope.
  ///
  /// - `POST /orders` (`NewOrder` JSON) → 201 `Order`; 400 for malformed JSON, an empty
  ///   order, a quantity below 1
  /// - `GET /orders/:id` → `Order`, or 404; 400 for an id that is not a number
  /// - `GET /stock` → `[StockItem]`
  /// - `GET /stock/stream?rounds=N&pauseMs=M` → the stock as JSON lines, streamed; 400 for
  ///   values that are not numbers or out of ``streamRounds`` / ``streamPauseMilliseconds``
  ///
  /// - Parameter router: A router with ``HummingbirdDIContainer/DIRequestScopeMiddleware``.
  public static func add<Context: DIRequestContext>(to router: Router<Context>) {
    router.post("orders") { request, context in
      let new = try await request.decode(as: NewOrder.self, context: context)
      try new.validate()
      let handler: CreateOrderHandler = try await context.resolve()
      return try await handler.create(new)
    }
    router.get("orders/:id") { _, context in
      let id = try context.parameters.require("id", as: Int.self)
      let handler: OrderQueryHandler = try await context.resolve()
      return try await handler.order(id)
    }
    router.get("stock") { _, context in
      let handler: StockHandler = try await context.resolve()
      return try await handler.list()
    }
    router.get("stock/stream") { request, context in
      let rounds = try query("rounds", of: request, in: streamRounds, default: 1)
      let pause = try query("pauseMs", of: request, in: streamPauseMilliseconds, default: 10)
      let handler: StockHandler = try await context.resolve()
      return try await handler.stream(rounds: rounds, pause: .milliseconds(pause))
    }
  }

  /// The integer query parameter `name`, `fallback` when absent.
  ///
  /// - Throws: `HTTPError(.badRequest)` for a value that is not an integer in `range`.
  static func query(
    _ name: String, of request: Request, in range: ClosedRange<Int>, default fallback: Int
  ) throws -> Int {
    guard let text = request.uri.queryParameters[name[...]] else { return fallback }
    guard let value = Int(String(text)), range.contains(value) else {
      throw HTTPError(
        .badRequest,
        message:
          "\(name): must be an integer from \(range.lowerBound) to \(range.upperBound), not '\(text)'"
      )
    }
    return value
  }
}
