public import Vapor

/// A saved link.
public struct Bookmark: Content, Equatable {
  /// The database's id.
  public var id: Int
  /// The link, `http://` or `https://`.
  public var url: String
  /// What the link is called.
  public var title: String

  /// Makes a bookmark.
  ///
  /// - Parameters:
  ///   - id: The database's id.
  ///   - url: The link.
  ///   - title: What the link is called.
  public init(id: Int, url: String, title: String) {
    self.id = id
    self.url = url
    self.title = title
  }
}

/// The body of `POST /bookmarks`: a link and its title, both required.
public struct NewBookmark: Content, Equatable {
  /// The link: `http://` or `https://`, at most 2,048 characters.
  public var url: String
  /// The title: not blank, at most 200 characters.
  public var title: String

  /// Makes one.
  ///
  /// - Parameters:
  ///   - url: The link.
  ///   - title: The title.
  public init(url: String, title: String) {
    self.url = url
    self.title = title
  }

  /// This bookmark with its title trimmed, or a 400 that says what is wrong.
  ///
  /// - Throws: `Abort(.badRequest)` for a blank or too long field or a link that is not
  ///   http(s).
  public func validated() throws -> NewBookmark {
    let title = title.trimmingCharacters(in: .whitespacesAndNewlines)
    let url = url.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !url.isEmpty else { throw Abort(.badRequest, reason: "url must not be empty") }
    guard url.hasPrefix("http://") || url.hasPrefix("https://"), url.count <= 2048 else {
      throw Abort(.badRequest, reason: "url must be an http(s) link of at most 2048 characters")
    }
    guard !title.isEmpty else { throw Abort(.badRequest, reason: "title must not be empty") }
    guard title.count <= 200 else {
      throw Abort(.badRequest, reason: "title must have at most 200 characters")
    }
    return NewBookmark(url: url, title: title)
  }
}
