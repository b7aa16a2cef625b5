import BookmarkServerCore
import Testing
import Vapor
import VaporTesting

/// Every bad request is a 400 with a reason (or a 404 for a missing bookmark), never a 500
/// or a crash.
@Suite struct BadInputTests {
  private func expectBadRequest(
    _ method: HTTPMethod, _ path: String, json: String? = nil, reason: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    try await withServer(TestDatabase.sqlite.options()) { app in
      let response = try await app.send(method, path, json: json)
      #expect(response.status == .badRequest, sourceLocation: sourceLocation)
      #expect(
        response.body.string.contains(reason), "\(response.body.string)",
        sourceLocation: sourceLocation)
    }
  }

  @Test func malformedJSONIsA400() async throws {
    try await expectBadRequest(
      .POST, "bookmarks", json: #"{"url": "https://a.example", "#, reason: "not valid JSON")
  }

  @Test func aMissingFieldIsA400NamingIt() async throws {
    try await expectBadRequest(
      .POST, "bookmarks", json: #"{"url": "https://a.example"}"#, reason: "title")
  }

  @Test func anEmptyTitleIsA400() async throws {
    try await expectBadRequest(
      .POST, "bookmarks", json: #"{"url": "https://a.example", "title": "  "}"#,
      reason: "title must not be empty")
  }

  @Test func anEmptyURLIsA400() async throws {
    try await expectBadRequest(
      .POST, "bookmarks", json: #"{"url": "", "title": "A"}"#, reason: "url must not be empty")
  }

  @Test func aURLThatIsNotHTTPIsA400() async throws {
    try await expectBadRequest(
      .POST, "bookmarks", json: #"{"url": "ftp://a.example", "title": "A"}"#,
      reason: "http(s) link")
  }

  @Test(arguments: ["limit=0", "limit=101", "limit=-1", "limit=abc", "offset=-1", "offset=x"])
  func anOutOfRangeQueryValueIsA400(query: String) async throws {
    let name = String(query.prefix { $0 != "=" })
    try await expectBadRequest(.GET, "bookmarks?\(query)", reason: "\(name) must be a whole number")
  }

  @Test(arguments: ["abc", "0", "-3", "99999999999999999999"])
  func anIDThatIsNotAPositiveNumberIsA400(id: String) async throws {
    try await expectBadRequest(.GET, "bookmarks/\(id)", reason: "id must be a whole number")
    try await expectBadRequest(.DELETE, "bookmarks/\(id)", reason: "id must be a whole number")
  }

  @Test func aMissingBookmarkIsA404() async throws {
    try await withServer(TestDatabase.sqlite.options()) { app in
      let found = try await app.send(.GET, "bookmarks/12345")
      let deleted = try await app.send(.DELETE, "bookmarks/12345")
      #expect(found.status == .notFound)
      #expect(deleted.status == .notFound)
    }
  }
}
