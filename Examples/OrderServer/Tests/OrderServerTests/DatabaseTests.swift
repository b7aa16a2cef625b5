import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import OrderServerCore
import Testing

/// The orders are kept in a database that outlives the server: SQLite (a file created on
/// first start) by default, PostgreSQL when `DATABASE_URL` is set.
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
