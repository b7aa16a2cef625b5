import BookmarkServerCore
import Foundation
import Testing
import Vapor
import VaporTesting

@Suite struct CostLoopTests {
  @Test func theCostLoopSendsEachRequestThroughItsRouteAndCountsTheBodies() async throws {
    try await withServer(TestDatabase.sqlite.options()) { app in
      let viaContainer = try await CostLoop.run(app, path: "/stats", requests: 3)
      let byHand = try await CostLoop.run(app, path: "/by-hand/stats", requests: 2)
      let next = try await app.send(.GET, "stats").content.decode(Stats.self)
      #expect(next.requests == 6)
      let body = try JSONEncoder().encode(Stats(server: "bookmark-server", requests: 1)).count
      #expect(viaContainer == 3 * body)
      #expect(byHand == 2 * body)
    }
  }
}
