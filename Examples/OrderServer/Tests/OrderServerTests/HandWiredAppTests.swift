import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import OrderServerCore
import Testing

/// The route the load script compares the container's server with: the same answer, and its
/// request log closed once per request, after the body is written, as the container's
/// request scope closes it.
@Suite(.timeLimit(.minutes(1)))
struct HandWiredAppTests {
  @Test func theStockRouteAnswersTheStockAndClosesEachRequestsLogOnce() async throws {
    let tracker = ResourceTracker()
    let logger = Logger(label: "hand-wired")
    let wired = try await HandWiredApp(databasePath: ":memory:", tracker: tracker, logger: logger)
    try await wired.application(configuration: .init(), logger: logger).test(.router) { client in
      for round in 1...3 {
        let response = try await client.execute(uri: "/stock", method: .get)
        #expect(response.status == .ok)
        let items = try JSONDecoder().decode([StockItem].self, from: Data(buffer: response.body))
        #expect(items.contains { $0.sku == "coffee" })
        #expect(tracker.closeCounts["request-log"] == round)
      }
    }
    #expect(tracker.problems == [])
  }

  @Test func closingTheDatabaseAgainAfterTheApplicationClosedItIsHarmless() async throws {
    let logger = Logger(label: "hand-wired")
    let wired = try await HandWiredApp(
      databasePath: ":memory:", tracker: ResourceTracker(), logger: logger)
    try await wired.application(configuration: .init(), logger: logger).test(.router) { client in
      let response = try await client.execute(uri: "/stock", method: .get)
      #expect(response.status == .ok)
    }
    await wired.close()
    await wired.close()
  }
}
