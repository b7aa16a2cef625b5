/// What a container knows that would fix a request no component provides: the type is
/// registered under other tags, a component's instances are a `T` but it was not
/// registered `.as` it, a framework or part that registers it is not appended.
///
/// Worked out only when a request fails. Says nothing it cannot know: Swift cannot tell
/// whether a type conforms to a protocol it sees only as a generic parameter, so a
/// conformance is found through an instance the container already made, never guessed
/// from names.
struct NotRegisteredHints {
  /// The registrations the request failed on.
  let snapshot: Snapshot

  /// The error for a request of `T` under `tag` that no component of `snapshot` provides;
  /// its hints are worked out when read, from the registrations of the failure. The error
  /// holds them weakly, so a kept error keeps no instance alive (once the container has
  /// replaced or dropped them, it has no hints).
  static func error<T>(_ type: T.Type, tag: Any.Type?, snapshot: Snapshot) -> DIError {
    DIError(notRegistered: DIResolutionContext.name(of: T.self, tag: tag)) {
      [weak snapshot] in
      guard let snapshot else { return [] }
      return Self(snapshot: snapshot).hints(for: T.self, tag: tag)
    }
  }

  /// The hints for a request of `T` under `tag`.
  func hints<T>(for type: T.Type, tag: Any.Type?) -> [String] {
    [
      tagHint(for: T.self, tag: tag), serviceHint(for: T.self, tag: tag),
      moduleHint(for: T.self, tag: tag),
    ]
    .compactMap { $0 }
  }

  /// The tags `type` is registered under, or that it is registered untagged, at any level
  /// (a child container's or its parents').
  private func tagHint(for type: Any.Type, tag: Any.Type?) -> String? {
    let name = String(describing: type)
    let untagged = snapshot.lookUp(ServiceKey(type)) != nil
    var tags: [String] = []
    for component in snapshot.collection(ServiceKey(type)) ?? [] {
      for service in component.services where service.type == type {
        if let other = service.tag, other != tag { tags.append(String(describing: other)) }
      }
    }
    tags = Array(Set(tags)).sorted()
    guard let tag else {
      guard let first = tags.first else { return nil }
      return "\(name) is registered only under \(Self.list(tags, one: "the tag", many: "the tags"))"
        + "; ask for it with by(tag: \(first).self, on: …), or register it .as(\(name).self)"
        + " without a tag."
    }
    var known: [String] = []
    if untagged { known.append("without a tag") }
    if !tags.isEmpty { known.append("under " + Self.list(tags, one: "the tag", many: "the tags")) }
    guard !known.isEmpty else { return nil }
    let registered = "\(name) is registered \(known.joined(separator: " and "))"
    guard TagSet.members(of: tag).count > 1 else {
      return registered + ", not under the tag \(tag)."
    }
    return registered + ", but no component has all of \(TagSet.name(of: tag))."
  }

  /// The components whose instances are `T`s though they were not registered `.as` `T`
  /// at all (those registered as `T` under a tag, ``tagHint(for:tag:)`` names): a subclass
  /// of a class `T`, or a component whose cached instance conforms.
  private func serviceHint<T>(for type: T.Type, tag: Any.Type?) -> String? {
    // Every instance is an `Any`.
    guard T.self != Any.self, T.self != AnyObject.self else { return nil }
    var found: [Component] = []
    for component in snapshot.components
    where !component.services.contains(where: { $0.type == T.self }) {
      if component.implementation is T.Type || Self.madeInstance(of: component) is T {
        found.append(component)
      }
    }
    guard !found.isEmpty else { return nil }
    let name = String(describing: T.self)
    let service = tag.map { "\(name).self, tag: \($0).self" } ?? "\(name).self"
    let components = found.map(\.summary).joined(separator: ", ")
    return "\(components) \(found.count == 1 ? "makes" : "make") \(name) instances but"
      + " \(found.count == 1 ? "was" : "were") not registered as \(name); add .as(\(service))"
      + " to \(found.count == 1 ? "its registration" : "their registrations")."
  }

  /// The modules recorded as registering `T` that this container has not loaded, or
  /// what it has loaded when none is known.
  private func moduleHint(for type: Any.Type, tag: Any.Type?) -> String? {
    let name = DIResolutionContext.name(of: type, tag: tag)
    let loaded = snapshot.loaded
    let missing = ModuleCatalog.modules(registering: ServiceKey(type, tag: tag))
      .filter { !loaded.contains($0) }
    if !missing.isEmpty {
      let appends = missing.map {
        "container.append(\($0.kind == .framework ? "framework" : "part"): \($0.name).self)"
      }
      return
        "\(Self.list(missing.map(\.name), one: "", many: "")) \(missing.count == 1 ? "registers" : "register") \(name)"
        + " (loaded by another container of this process) but \(missing.count == 1 ? "is" : "are")"
        + " not appended to this container: " + appends.joined(separator: "; ") + "."
    }
    guard !loaded.isEmpty else { return nil }
    let names = loaded.map(\.name).sorted()
    return
      "none of the frameworks and parts appended to this container (\(names.joined(separator: ", ")))"
      + " registers \(name); if another one does, append it (the container knows only the"
      + " frameworks and parts some container of this process loaded)."
  }

  /// The instance `component`'s cell holds now, if any.
  private static func madeInstance(of component: Component) -> Any? {
    guard let cell = component.cell else { return nil }
    return cell.borrow { $0.current?.value }
  }

  /// `the tag Indoor`, `the tags Indoor, Outdoor`.
  private static func list(_ names: [String], one: String, many: String) -> String {
    let prefix = names.count == 1 ? one : many
    return (prefix.isEmpty ? "" : prefix + " ") + names.joined(separator: ", ")
  }
}
