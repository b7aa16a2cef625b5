/// A service a component is resolvable as: a type, optionally under a tag.
struct ServiceKey: Hashable, Sendable {
  let type: ObjectIdentifier
  let tag: ObjectIdentifier?

  init(_ type: Any.Type, tag: Any.Type? = nil) {
    self.type = ObjectIdentifier(type)
    self.tag = tag.map(ObjectIdentifier.init)
  }
}
