import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import OrderServerCore
import Testing

/// The orders and the stock are kept in a database that outlives the server: SQLite (a file
/// created on first start) by default, PostgreSQL when `DATABASE_URL` is set. The stock
/// tests read the stock before they change it: under PostgreSQL the suites share one
/// database (this suite owns the bread and the tea, `OrderServerTests` the coffee and apples).
@Suite(.serialized, .timeLimit(.minutes(2)))
struct DatabaseTests {
  static let json: HTTPFields = [.contentType: "application/json"]

  /// Places an order on a new server and returns its number.
  static func place(_ config: Config) async throws -> Order {
    let server = try LiveServer(config: config)
    return try await server.run { port in
      try await TestClient.withClient(host: "127.0.0.1", port: port) { client in
        let response = try await client.post(
          "/orders", headers: json,
          body: ByteBuffer(string: #"{"customer":"ada","items":[{"sku":"bread","quantity":3}]}"#))
        #expect(response.status == .created)
        return try JSONDecoder().decode(Order.self, from: Data(buffer: try #require(response.body)))
      }
    }
  }

  /// Reads an order on a new server.
  static func read(_ id: Int, _ config: Config) async throws -> (HTTPResponse.Status, Order?) {
    let server = try LiveServer(config: config)
    return try await server.run { port in
      try await TestClient.withClient(host: "127.0.0.1", port: port) { client in
        let response = try await client.get("/orders/\(id)")
        let order = try? JSONDecoder().decode(
          Order.self, from: Data(buffer: response.body ?? ByteBuffer()))
        return (response.status, order)
      }
    }
  }

  @Test func anOrderOutlivesTheServerThatSavedIt() async throws {
    let config = LiveServer.config()
    let placed = try await Self.place(config)
    #expect(placed.status == .paid)
    #expect(placed.items == [OrderLine(sku: "bread", quantity: 3)])
    let (status, read) = try await Self.read(placed.id, config)
    #expect(status == .ok)
    #expect(read == placed)
  }

  @Test func theSQLiteFileIsCreatedOnFirstStart() async throws {
    var config = LiveServer.config()
    config.databaseURL = nil
    #expect(!FileManager.default.fileExists(atPath: config.databasePath))
    let placed = try await Self.place(config)
    #expect(FileManager.default.fileExists(atPath: config.databasePath))
    let (_, read) = try await Self.read(placed.id, config)
    #expect(read == placed)
  }

  /// The stock on a new server.
  static func stock(_ config: Config) async throws -> [String: Int] {
    try await LiveServer(config: config).run { port in
      try await TestClient.withClient(host: "127.0.0.1", port: port) { try await available($0) }
    }
  }

  @Test func theStockIsSeededOnFirstStartAndARestartKeepsWhatWasTaken() async throws {
    let config = LiveServer.config()
    let before = try await Self.stock(config)
    #expect(before.keys.sorted() == ["apple", "bread", "coffee", "tea"])
    if config.databaseURL == nil {
      #expect(before == ["apple": 1_000_000, "bread": 1_000_000, "coffee": 1_000, "tea": 5])
    }
    let bread = try #require(before["bread"])
    let placed = try await Self.place(config)  // 3 bread
    #expect(placed.status == .paid)
    let after = try await Self.stock(config)  // a new server: not seeded again
    #expect(after["bread"] == bread - 3)
  }

  @Test func anOrderThatCannotBeFilledTakesNothing() async throws {
    try await LiveServer().run { port in
      try await TestClient.withClient(host: "127.0.0.1", port: port) { client in
        let before = try await available(client)
        let tea = try #require(before["tea"])
        let short = try await placeOrder([("bread", 2), ("tea", tea + 1)], with: client)
        #expect(short.status == .outOfStock)
        let unknown = try await placeOrder([("bread", 2), ("caviar", 1)], with: client)
        #expect(unknown.status == .outOfStock)
        let after = try await available(client)
        #expect(after["bread"] == before["bread"])
        #expect(after["tea"] == tea)
        // Two lines of one product count together.
        let doubled = try await placeOrder([("bread", 2), ("bread", 3)], with: client)
        #expect(doubled.status == .paid)
        #expect(doubled.total == 18_90)  // 5 × $3.50 + 8% tax
        #expect(try await available(client)["bread"] == before["bread"].map { $0 - 5 })
      }
    }
  }

  @Test func ordersPlacedAtOnceNeverTakeMoreThanThereIs() async throws {
    try await LiveServer().run { port in
      let tea = try await TestClient.withClient(host: "127.0.0.1", port: port) { client in
        try #require(try await available(client)["tea"])
      }
      let statuses = try await withThrowingTaskGroup(of: OrderStatus.self) { group in
        for index in 0..<tea + 3 {
          group.addTask {
            try await TestClient.withClient(host: "127.0.0.1", port: port) { client in
              try await placeOrder([("tea", 1)], customer: "c\(index)", with: client).status
            }
          }
        }
        return try await group.reduce(into: []) { $0.append($1) }
      }
      #expect(statuses.filter { $0 == .paid }.count == tea)
      #expect(statuses.filter { $0 == .outOfStock }.count == 3)
      let left = try await TestClient.withClient(host: "127.0.0.1", port: port) { client in
        try await available(client)["tea"]
      }
      #expect(left == 0)
    }
  }

  @Test func anUnreachableDatabaseFailsStartUp() async throws {
    var config = LiveServer.config()
    config.databaseURL = nil
    config.databasePath = "/nonexistent-folder/orders.sqlite"
    let server = try LiveServer(config: config)
    await #expect(throws: (any Error).self) {
      try await server.run { _ in Issue.record("the server should not have started") }
    }
  }

  @Test func aDatabaseURLThatIsNotPostgresIsAUsageError() {
    var config = Config()
    config.databaseURL = "mysql://localhost/orders"
    #expect(throws: UsageError.self) {
      try OrderContainer.make(config: config, tracker: ResourceTracker())
    }
  }
}
