/// Several tags asked for at once: `by(tag: Indoor.self, on: by(tag: Small.self, on: $0))`
/// and `by(tags: Indoor.self, Small.self, on: $0)` ask for the components registered under
/// every one of them.
///
/// A set of tags is itself a tag type, `TagIntersection<TagIntersection<A, B>, C>`, made
/// from its members in one canonical order, so a request under several tags is one
/// ``ServiceKey`` like any other: the snapshot files each component under every
/// combination of the tags it has for a type (see ``intersections(of:)``), and resolution,
/// `many` and graph validation find it in the same table as a single tag.
enum TagIntersection<First, Second> {}

/// What ``TagSet`` reads from a ``TagIntersection``: its members.
private protocol TagIntersectionProtocol {
  static var members: [Any.Type] { get }
}

extension TagIntersection: TagIntersectionProtocol {
  static var members: [Any.Type] {
    TagSet.members(of: First.self) + TagSet.members(of: Second.self)
  }
}

/// Combining tags into one tag type, and naming it.
enum TagSet {
  /// The tag that asks for `tag` and everything `other` asks for (nil: nothing more).
  @inline(__always)
  static func adding(_ tag: Any.Type, to other: Any.Type?) -> Any.Type {
    guard let other else { return tag }
    return combined(members(of: other) + [tag]) ?? tag
  }

  /// The tag that asks for all of `tags`, in whatever order and however often they come;
  /// nil for none.
  static func combined(_ tags: [Any.Type]) -> Any.Type? {
    var unique: [Any.Type] = []
    for tag in tags.flatMap(members(of:)) where !unique.contains(where: { $0 == tag }) {
      unique.append(tag)
    }
    // By name, so the type, and what graphs print of it, is the same in every run; types
    // of one name (local ones) by identity.
    unique.sort { lhs, rhs in
      let (left, right) = (_typeName(lhs, qualified: true), _typeName(rhs, qualified: true))
      return left != right ? left < right : ObjectIdentifier(lhs) < ObjectIdentifier(rhs)
    }
    guard var result = unique.first else { return nil }
    for tag in unique.dropFirst() { result = pair(result, tag) }
    return result
  }

  /// The tags `tag` stands for: its members if it combines several, else itself.
  static func members(of tag: Any.Type) -> [Any.Type] {
    (tag as? any TagIntersectionProtocol.Type)?.members ?? [tag]
  }

  /// `Indoor`, or `Indoor and Small` for a combined tag: how errors name it.
  static func name(of tag: Any.Type) -> String {
    let members = members(of: tag)
    guard members.count > 1 else { return String(describing: tag) }
    return members.map { String(describing: $0) }.sorted().joined(separator: " and ")
  }

  /// The keys under which a component with `services` is also found: each type it
  /// provides under two tags or more, under every combination of those tags.
  static func intersections(of services: ServiceList) -> [ServiceKey] {
    // Asked only for a component with two tags or more (`Snapshot.init` counts them).
    var tagsByType: [ObjectIdentifier: (type: Any.Type, tags: [Any.Type])] = [:]
    for service in services {
      guard let tag = service.tag else { continue }
      tagsByType[ObjectIdentifier(service.type), default: (service.type, [])].tags.append(tag)
    }
    var keys: [ServiceKey] = []
    for (type, tags) in tagsByType.values where tags.count > 1 {
      for subset in subsets(of: tags) where subset.count > 1 {
        if let tag = combined(subset) { keys.append(ServiceKey(type, tag: tag)) }
      }
    }
    return keys
  }

  private static func subsets(of tags: [Any.Type]) -> [[Any.Type]] {
    tags.reduce(into: [[]]) { subsets, tag in subsets += subsets.map { $0 + [tag] } }
  }

  /// `TagIntersection<First, Second>` of two tags known at run time only.
  private static func pair(_ first: Any.Type, _ second: Any.Type) -> Any.Type {
    func open<First>(_: First.Type) -> Any.Type {
      func open<Second>(_: Second.Type) -> Any.Type { TagIntersection<First, Second>.self }
      return open(second)
    }
    return open(first)
  }
}
