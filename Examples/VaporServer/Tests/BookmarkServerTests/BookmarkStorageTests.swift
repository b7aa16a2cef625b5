import BookmarkServerCore
import Foundation
import Testing
import Vapor
import VaporTesting

/// The API against a real database: SQLite always, PostgreSQL when `DATABASE_URL` is set.
@Suite struct BookmarkStorageTests {
  @Test(arguments: TestDatabase.available)
  func aBookmarkIsSavedListedFoundAndDeleted(database: TestDatabase) async throws {
    try await withServer(database.options()) { app in
      let title = "Swift \(UUID().uuidString)"
      let created = try await app.send(
        .POST, "bookmarks", json: #"{"url": " https://swift.org ", "title": "\#(title)"}"#)
      #expect(created.status == .created)
      let bookmark = try created.content.decode(Bookmark.self)
      #expect(bookmark.url == "https://swift.org")
      #expect(bookmark.title == title)

      let found = try await app.send(.GET, "bookmarks/\(bookmark.id)")
      #expect(try found.content.decode(Bookmark.self) == bookmark)

      let page = try await app.send(.GET, "bookmarks?limit=100")
      #expect(try page.content.decode([Bookmark].self).contains(bookmark))

      #expect(try await app.send(.DELETE, "bookmarks/\(bookmark.id)").status == .noContent)
      #expect(try await app.send(.GET, "bookmarks/\(bookmark.id)").status == .notFound)
    }
  }

  @Test(arguments: TestDatabase.available)
  func bookmarksOutliveTheServer(database: TestDatabase) async throws {
    let options = database.options()
    let saved = try await withServer(options) { app in
      try await app.send(.POST, "bookmarks", json: #"{"url": "https://vapor.codes", "title": "V"}"#)
        .content.decode(Bookmark.self)
    }
    try await withServer(options) { app in
      let found = try await app.send(.GET, "bookmarks/\(saved.id)")
      #expect(try found.content.decode(Bookmark.self) == saved)
      _ = try await app.send(.DELETE, "bookmarks/\(saved.id)")
    }
  }

  @Test func theSQLiteFileIsCreatedOnFirstStart() async throws {
    let path = TestDatabase.newSQLitePath()
    #expect(!FileManager.default.fileExists(atPath: path))
    try await withServer(ServerOptions(database: .sqlite(path: path))) { _ in
      #expect(FileManager.default.fileExists(atPath: path))
    }
    try? FileManager.default.removeItem(atPath: path)
  }

  @Test func paginationFollowsLimitAndOffset() async throws {
    try await withServer(TestDatabase.sqlite.options()) { app in
      for number in 1...5 {
        _ = try await app.send(
          .POST, "bookmarks",
          json: #"{"url": "https://e.example/\#(number)", "title": "\#(number)"}"#)
      }
      let page = try await app.send(.GET, "bookmarks?limit=2&offset=1")
        .content.decode([Bookmark].self)
      #expect(page.map(\.title) == ["2", "3"])
    }
  }

  @Test func statsAreTheSameThroughTheContainerAndByHand() async throws {
    try await withServer(TestDatabase.sqlite.options()) { app in
      let first = try await app.send(.GET, "stats").content.decode(Stats.self)
      let second = try await app.send(.GET, "by-hand/stats").content.decode(Stats.self)
      #expect(first == Stats(server: "bookmark-server", requests: 1))
      #expect(second == Stats(server: "bookmark-server", requests: 2))
    }
  }
}
