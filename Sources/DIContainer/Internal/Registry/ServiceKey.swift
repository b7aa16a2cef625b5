/// A service a component is resolvable as: a type, optionally under a tag.
///
/// Equal by the types' identities; keeps the types themselves so graphs can name them.
struct ServiceKey: Hashable, Sendable {
  let type: Any.Type
  let tag: Any.Type?

  init(_ type: Any.Type, tag: Any.Type? = nil) {
    self.type = type
    self.tag = tag
  }

  static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.type == rhs.type && lhs.tag.map(ObjectIdentifier.init) == rhs.tag.map(ObjectIdentifier.init)
  }

  func hash(into hasher: inout Hasher) {
    hasher.combine(ObjectIdentifier(type))
    hasher.combine(tag.map(ObjectIdentifier.init))
  }
}
