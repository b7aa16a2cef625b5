import DIContainer
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdDIContainer
import HummingbirdTesting
import Logging
import OrderServerCore
import Testing

/// The order server, running for real on 127.0.0.1: one suite, serialized, since the
/// concurrency test wants the cores.
@Suite(.serialized, .timeLimit(.minutes(1)))
struct OrderServerTests {
  static let json: HTTPFields = [.contentType: "application/json"]

  static func order(_ customer: String, _ sku: String, _ quantity: Int) -> ByteBuffer {
    ByteBuffer(
      string: #"{"customer":"\#(customer)","items":[{"sku":"\#(sku)","quantity":\#(quantity)}]}"#)
  }

  @Test func routesCreateAndReadOrdersAndShowStock() async throws {
    let server = try LiveServer()
    try await server.run { port in
      try await TestClient.withClient(host: "127.0.0.1", port: port) { client in
        // Other suites share a PostgreSQL database: the coffee is this test's alone.
        let coffee = try #require(try await available(client)["coffee"])
        let created = try await client.post(
          "/orders", headers: Self.json, body: Self.order("ada", "coffee", 2))
        #expect(created.status == .created)
        let order = try JSONDecoder().decode(
          Order.self, from: Data(buffer: try #require(created.body)))
        #expect(order.status == .paid)
        #expect(order.total == 25_92)  // 2 × $12.00 + 8% tax

        let read = try await client.get("/orders/\(order.id)")
        #expect(read.status == .ok)
        #expect(
          try JSONDecoder().decode(Order.self, from: Data(buffer: try #require(read.body))) == order
        )
        #expect(try await client.get("/orders/999").status == .notFound)

        let declined = try await client.post(
          "/orders", headers: Self.json, body: Self.order("bob", "coffee", 20))
        #expect(declined.body.map { String(buffer: $0) }?.contains(#""status":"declined""#) == true)
        let short = try await client.post(
          "/orders", headers: Self.json, body: Self.order("eve", "tea", 6))
        #expect(short.body.map { String(buffer: $0) }?.contains(#""status":"outOfStock""#) == true)

        let stock = try await available(client)
        #expect(stock.keys.sorted() == ["apple", "bread", "coffee", "tea"])
        #expect(stock["coffee"] == coffee - 2)  // the declined 20 released
      }
    }
    #expect(server.tracker.problems == [])
  }

  @Test func theScopeClosesAfterAStreamedBodyIsWritten() async throws {
    let server = try LiveServer()
    try await server.run { port in
      try await TestClient.withClient(host: "127.0.0.1", port: port) { client in
        let response = try await client.get("/stock/stream?rounds=3&pauseMs=5")
        let body = lines(of: try #require(response.body))
        #expect(body.count == 12)
        #expect(body.allSatisfy { $0.hasSuffix(#""logOpen":true}"#) })
      }
      #expect(await eventually { server.tracker.closeCounts["request-log"] == 1 })
    }
    #expect(server.tracker.problems == [])
  }

  @Test func theNaiveMiddlewareWouldCloseTheScopeBeforeTheBody() async throws {
    // What this suite guards against: closing the scope when the route returns. No service
    // group runs here, so the database is SQLite's (a PostgresClient would wait for run()).
    let tracker = ResourceTracker()
    var config = LiveServer.config()
    config.databaseURL = nil
    let container = try OrderContainer.make(config: config, tracker: tracker)
    try await OrderContainer.boot(container)
    let router = Router(context: DIBasicRequestContext.self)
    router.add(middleware: NaiveScopeMiddleware(container: container))
    OrderRoutes.add(to: router)
    try await Application(router: router).test(.live) { client in
      let response = try await client.execute(uri: "/stock/stream?rounds=1&pauseMs=5", method: .get)
      #expect(lines(of: response.body).allSatisfy { $0.hasSuffix(#""logOpen":false}"#) })
    }
    #expect(tracker.problems.count == 4)  // every line written to a closed log
    await container.shutdown()
  }

  @Test func theScopeClosesWhenTheClientGoesAwayMidStream() async throws {
    let server = try LiveServer()
    try await server.run { port in
      let client = TestClient(host: "127.0.0.1", port: port)
      client.connect()
      // 800 lines, 5 ms apart: the client goes away long before the body ends.
      let request = Task { try await client.get("/stock/stream?rounds=200&pauseMs=5") }
      #expect(await eventually { server.tracker.openCounts["request-log"] == 1 })
      try await Task.sleep(for: .milliseconds(100))
      let closing = ContinuousClock.now
      try? await client.shutdown()
      #expect(await eventually { server.tracker.closeCounts["request-log"] == 1 })
      // Closed when the write failed, long before the 4 s the whole body would take.
      #expect(ContinuousClock.now - closing < .seconds(2))
      request.cancel()
      _ = await request.result
    }
  }

  @Test func concurrentRequestsShareNoScopedInstance() async throws {
    let server = try LiveServer()
    let count = 100
    let heads = try await server.run { port in
      try await withThrowingTaskGroup(of: HTTPFields.self) { group in
        for index in 0..<count {
          group.addTask {
            try await TestClient.withClient(host: "127.0.0.1", port: port) { client in
              let response = try await client.post(
                "/orders", headers: Self.json, body: Self.order("c\(index)", "apple", 1))
              #expect(response.status == .created)
              return response.headers
            }
          }
        }
        return try await group.reduce(into: []) { $0.append($1) }
      }
    }
    let field = { (name: String) in heads.map { $0[HTTPField.Name(name)!] ?? "" } }
    #expect(heads.count == count)
    #expect(Set(field("x-unit-of-work")).count == count)
    #expect(Set(field("x-request-log")).count == count)
    #expect(Set(field("x-request-id")).count == count)
    #expect(field("x-request-log") == field("x-unit-of-work-log"))  // one log per request
    #expect(server.tracker.closeCounts["request-log"] == count)
    #expect(server.tracker.problems == [])
  }

  @Test func gracefulShutdownWaitsForTheServerThenClosesEveryPoolOnce() async throws {
    let server = try LiveServer()
    let streamed = try await server.run(
      { port in
        // A slow streamed response in flight when the shutdown begins.
        let response = Task {
          try await TestClient.withClient(host: "127.0.0.1", port: port) { client in
            try await client.get("/stock/stream?rounds=10&pauseMs=10")
          }
        }
        #expect(await eventually { server.tracker.openCounts["request-log"] == 1 })
        return response
      },
      whileShuttingDown: { _ in
        #expect(server.tracker.closeCounts["billing-db"] == nil)
      })
    let response = try await streamed.value
    let body = lines(of: try #require(response.body))
    #expect(body.count == 40)
    #expect(body.allSatisfy { $0.hasSuffix(#""logOpen":true}"#) })
    #expect(server.tracker.openCounts == ["billing-db": 1, "request-log": 1])
    #expect(server.tracker.closeCounts == ["billing-db": 1, "request-log": 1])
    #expect(server.tracker.problems == [])
    await #expect(throws: DIError.self) {
      let _: any StockService = try await server.container.resolveAsync()
    }
  }

  @Test func aBrokenGraphFailsStartUpWithTheReport() async throws {
    let tracker = ResourceTracker()
    var config = LiveServer.config()
    config.withNotifications = false
    let container = try OrderContainer.make(config: config, tracker: tracker)
    let error = await #expect(throws: DIGraphValidationError.self) {
      try await OrderContainer.boot(container)
    }
    let report = "\(try #require(error))"
    #expect(report.contains("CreateOrderHandler"))
    #expect(report.contains("needs Notifier"))
    #expect(tracker.openCounts.isEmpty)  // no pool connected before the graph was checked
  }

  @Test func aRouteWithoutTheMiddlewareAnswers500NotACrash() async throws {
    let router = Router(context: DIBasicRequestContext.self)
    router.get("stock") { _, context in
      let handler: StockHandler = try await context.resolve()
      return try await handler.list()
    }
    try await Application(router: router).test(.router) { client in
      let response = try await client.execute(uri: "/stock", method: .get)
      #expect(response.status == .internalServerError)
    }
  }
}
