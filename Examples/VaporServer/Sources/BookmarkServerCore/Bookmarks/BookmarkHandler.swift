public import Vapor

/// The bookmark routes' work, made per request by the container: validates, calls the
/// store, records what it did in the request's ``RequestLog``.
public struct BookmarkHandler: Sendable {
  private let store: any BookmarkStore
  private let log: RequestLog

  /// The largest `limit` of a list.
  public static let maximumLimit = 100

  /// Makes the handler of one request.
  ///
  /// - Parameters:
  ///   - store: Where the bookmarks are.
  ///   - log: The request's log.
  public init(store: any BookmarkStore, log: RequestLog) {
    self.store = store
    self.log = log
  }

  /// Saves a new bookmark.
  ///
  /// - Parameter new: The decoded body.
  /// - Returns: The saved bookmark.
  /// - Throws: A 400 for a bad field; the store's error.
  public func create(_ new: NewBookmark) async throws -> Bookmark {
    let bookmark = try await store.add(new.validated())
    log.record("add \(bookmark.id)")
    return bookmark
  }

  /// A page of bookmarks.
  ///
  /// - Parameters:
  ///   - limit: The `limit` query value, 1…100 (default 20).
  ///   - offset: The `offset` query value, 0 or more (default 0).
  /// - Returns: The page.
  /// - Throws: A 400 for a value that is not a number or out of range.
  public func list(limit: String?, offset: String?) async throws -> [Bookmark] {
    let limit = try Self.number(limit, named: "limit", in: 1...Self.maximumLimit, default: 20)
    let offset = try Self.number(offset, named: "offset", in: 0...Int(Int32.max), default: 0)
    log.record("list \(limit) from \(offset)")
    return try await store.list(limit: limit, offset: offset)
  }

  /// One bookmark.
  ///
  /// - Parameter id: The path's id.
  /// - Returns: The bookmark.
  /// - Throws: A 400 for an id that is not a positive number, a 404 when there is none.
  public func find(id: String?) async throws -> Bookmark {
    let id = try Self.id(id)
    log.record("find \(id)")
    guard let bookmark = try await store.find(id: id) else {
      throw Abort(.notFound, reason: "no bookmark \(id)")
    }
    return bookmark
  }

  /// Deletes one bookmark.
  ///
  /// - Parameter id: The path's id.
  /// - Returns: 204.
  /// - Throws: A 400 for an id that is not a positive number, a 404 when there is none.
  public func delete(id: String?) async throws -> HTTPStatus {
    let id = try Self.id(id)
    log.record("delete \(id)")
    guard try await store.delete(id: id) else {
      throw Abort(.notFound, reason: "no bookmark \(id)")
    }
    return .noContent
  }

  private static func id(_ text: String?) throws -> Int {
    try number(text, named: "id", in: 1...Int(Int64.max), default: nil)
  }

  /// `text` as a number in `range`, `fallback` when absent, or a 400 saying what is wrong.
  private static func number(
    _ text: String?, named name: String, in range: ClosedRange<Int>, default fallback: Int?
  ) throws -> Int {
    guard let text else {
      guard let fallback else { throw Abort(.badRequest, reason: "\(name) is required") }
      return fallback
    }
    guard let value = Int(text), range.contains(value) else {
      throw Abort(
        .badRequest,
        reason: "\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound)")
    }
    return value
  }
}
