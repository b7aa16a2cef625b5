/// The service keys a component provides, in order: its implementation type's own key
/// first (unless the type was registered only under tags of its own), then every other
/// one it was registered `as`. The implementation's key is held inline, so the common
/// registration, which provides its own type alone, allocates no array.
struct ServiceList: Sequence, Sendable {
  /// The implementation type's own key, untagged.
  let implementation: ServiceKey
  /// Whether ``implementation`` is provided.
  private(set) var includesImplementation = true
  /// Whether the implementation's own key was asked for explicitly (`.as(Cat.self)`), so
  /// a tag of its own type no longer takes it away.
  private var isImplementationAsked = false
  /// The other keys, in the order they were added, each with the cast of an instance into
  /// its type (see ``ServiceCast``), when `as(_:)` made one.
  private var others: [(key: ServiceKey, cast: ServiceCast?)] = []

  /// The list of a component registered for `implementation`: its own key alone.
  init(implementation: Any.Type) {
    self.implementation = ServiceKey(implementation)
  }

  /// Adds `service`, whose instances `cast` makes from an object of the implementation.
  /// A tagged key of the implementation's own type takes the untagged one away, unless
  /// that was asked for explicitly: `.as(Dog.self, tag: Big.self)` makes a tagged variant
  /// that a plain request does not find.
  mutating func provide(_ service: ServiceKey, cast: ServiceCast?) {
    if service.type == implementation.type {
      if service.tag == nil {
        isImplementationAsked = true
      } else if !isImplementationAsked {
        includesImplementation = false
      }
    }
    if service == implementation {
      includesImplementation = true
    } else if !others.contains(where: { $0.key == service }) {
      others.append((service, cast))
    }
  }

  /// The cast of an object of the implementation into `type`, when a key of that type
  /// has one.
  func cast(to type: Any.Type) -> ServiceCast? {
    let service = ObjectIdentifier(type)
    for other in others {
      if let cast = other.cast, cast.service == service { return cast }
    }
    return nil
  }

  /// The keys in order.
  struct Iterator: IteratorProtocol {
    fileprivate let list: ServiceList
    fileprivate var position: Int

    mutating func next() -> ServiceKey? {
      defer { position += 1 }
      if position == -1 { return list.implementation }
      return position < list.others.count ? list.others[position].key : nil
    }
  }

  func makeIterator() -> Iterator {
    Iterator(list: self, position: includesImplementation ? -1 : 0)
  }

  var underestimatedCount: Int { others.count + (includesImplementation ? 1 : 0) }
}
