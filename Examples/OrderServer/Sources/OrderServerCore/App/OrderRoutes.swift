public import Hummingbird
public import HummingbirdDIContainer

/// The API's routes, each resolving its handler in the request's scope.
public enum OrderRoutes {
  /// Adds the routes to `router`, whose context carries the request scope.
  ///
  /// - `POST /orders` (`NewOrder` JSON) → 201 `Order`
  /// - `GET /orders/:id` → `Order`, or 404
  /// - `GET /stock` → `[StockItem]`
  /// - `GET /stock/stream?rounds=N&pauseMs=M` → the stock as JSON lines, streamed
  ///
  /// - Parameter router: A router with ``HummingbirdDIContainer/DIRequestScopeMiddleware``.
  public static func add<Context: DIRequestContext>(to router: Router<Context>) {
    router.post("orders") { request, context in
      let new = try await request.decode(as: NewOrder.self, context: context)
      let handler: CreateOrderHandler = try await context.resolve()
      return handler.create(new)
    }
    router.get("orders/:id") { _, context in
      let id = try context.parameters.require("id", as: Int.self)
      let handler: OrderQueryHandler = try await context.resolve()
      return try handler.order(id)
    }
    router.get("stock") { _, context in
      let handler: StockHandler = try await context.resolve()
      return handler.list()
    }
    router.get("stock/stream") { request, context in
      let rounds = request.uri.queryParameters.get("rounds", as: Int.self) ?? 1
      let pause = request.uri.queryParameters.get("pauseMs", as: Int.self) ?? 10
      let handler: StockHandler = try await context.resolve()
      return handler.stream(rounds: rounds, pause: .milliseconds(pause))
    }
  }
}
