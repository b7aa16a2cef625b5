import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import OrderServerCore
import Testing

/// Bad input is a 400 that says what is wrong, and the server keeps serving.
@Suite(.timeLimit(.minutes(2)))
struct BadInputTests {
  static let json: HTTPFields = [.contentType: "application/json"]

  /// Sends each request to one live server; returns each answer's status and body, then
  /// checks the server still answers `GET /stock`.
  static func answers(
    _ requests: [(method: HTTPRequest.Method, path: String, body: String?)]
  ) async throws -> [(HTTPResponse.Status, String)] {
    let server = try LiveServer()
    return try await server.run { port in
      try await TestClient.withClient(host: "127.0.0.1", port: port) { client in
        var answers: [(HTTPResponse.Status, String)] = []
        for request in requests {
          let response = try await client.execute(
            TestClient.Request(
              request.path, method: request.method, headers: json,
              body: request.body.map { ByteBuffer(string: $0) }))
          answers.append((response.status, response.body.map { String(buffer: $0) } ?? ""))
        }
        #expect(try await client.get("/stock").status == .ok, "still serving")
        return answers
      }
    }
  }

  static func expectBadRequest(
    _ method: HTTPRequest.Method, _ path: String, _ body: String? = nil, saying reason: String
  ) async throws {
    let answers = try await answers([(method, path, body)])
    #expect(answers[0].0 == .badRequest)
    #expect(answers[0].1.contains(reason), "\(answers[0].1)")
  }

  @Test func malformedJSONIs400() async throws {
    try await Self.expectBadRequest(
      .post, "/orders", #"{"customer":"ada","items":["#, saying: "JSON")
  }

  @Test func aMissingFieldIs400() async throws {
    try await Self.expectBadRequest(.post, "/orders", #"{"customer":"ada"}"#, saying: "items")
  }

  @Test func anEmptyOrderIs400() async throws {
    try await Self.expectBadRequest(
      .post, "/orders", #"{"customer":"ada","items":[]}"#,
      saying: "items: an order needs at least one line")
  }

  @Test func aZeroQuantityIs400() async throws {
    try await Self.expectBadRequest(
      .post, "/orders", #"{"customer":"ada","items":[{"sku":"tea","quantity":0}]}"#,
      saying: "items[0].quantity: must be 1 to 10000, not 0")
  }

  @Test func aNegativeQuantityIs400() async throws {
    try await Self.expectBadRequest(
      .post, "/orders", #"{"customer":"ada","items":[{"sku":"tea","quantity":-3}]}"#,
      saying: "items[0].quantity: must be 1 to 10000, not -3")
  }

  @Test func aNegativeRoundCountIs400() async throws {
    try await Self.expectBadRequest(
      .get, "/stock/stream?rounds=-1", saying: "rounds: must be an integer from 1 to 1000, not '-1'"
    )
  }

  @Test func outOfRangeAndNonNumericQueryValuesAre400() async throws {
    let answers = try await Self.answers([
      (.get, "/stock/stream?rounds=1000000", nil),
      (.get, "/stock/stream?rounds=abc", nil),
      (.get, "/stock/stream?pauseMs=-5", nil),
      (.get, "/orders/abc", nil),
    ])
    #expect(answers.map(\.0) == [.badRequest, .badRequest, .badRequest, .badRequest])
    #expect(answers[0].1.contains("rounds"))
    #expect(answers[1].1.contains("not 'abc'"))
    #expect(answers[2].1.contains("pauseMs"))
  }
}
