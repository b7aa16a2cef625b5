extension DIContainer: CustomStringConvertible, CustomDebugStringConvertible {
  /// The container's registrations, one line each in registration order: the type made,
  /// its services (with their tags), its lifetime, the framework and part that registered
  /// it, and its `file:line` (Swinject's `CustomStringConvertible`).
  ///
  /// The first line says how many registrations there are, and the container's
  /// ``defaultLifetime`` when it is not `.prototype`. Only this container's registrations
  /// are listed, not a parent's (print the parent for those). Reading it resolves nothing
  /// and runs no factory: it reads the registrations only, so it is safe in a log line at
  /// any time; each call costs the walk of every registration.
  ///
  /// ```swift
  /// container.register(Cat.init).as(Pet.self, tag: Indoor.self).lifetime(.perContainer(.single))
  /// print(container)
  /// // DIContainer, 1 registration:
  /// //   Cat: services Cat, Pet tagged Indoor; lifetime perContainer(.single); App/Wiring.swift:12
  /// ```
  public var description: String {
    describe(snapshot, parameters: nil)
  }

  /// ``description`` with, under each registration, what each of its initializer
  /// parameters and injections asks for and the component that serves it (as
  /// ``makeGraph()`` finds it, with the same candidate rules as resolution).
  ///
  /// Like ``description``, it resolves nothing and runs no factory.
  ///
  /// ```swift
  /// container.register(Engine.init)
  /// container.register { Car(engine: $0, body: $1) }
  /// debugPrint(container)
  /// // DIContainer, 2 registrations:
  /// //   Engine: services Engine; lifetime prototype; App/Wiring.swift:12
  /// //   Car: services Car; lifetime prototype; App/Wiring.swift:13
  /// //     parameter 1 of the initializer: Engine -> Engine (App/Wiring.swift:12)
  /// //     parameter 2 of the initializer: Body -> no candidate
  /// ```
  public var debugDescription: String {
    let snapshot = snapshot
    return describe(snapshot, parameters: DIGraph(snapshot: snapshot))
  }

  /// The text of ``description`` for `snapshot`, with each component's edges in `graph`
  /// (made from `snapshot`: its first components are the snapshot's own, in order).
  private func describe(_ snapshot: Snapshot, parameters graph: DIGraph?) -> String {
    let components = snapshot.components
    var header = parent == nil ? "DIContainer" : "DIContainer (child)"
    switch defaultLifetime {
    case .prototype: break
    default: header += ", default lifetime \(defaultLifetime.name)"
    }
    if snapshot.isShutDown { return header + ", shut down" }
    switch components.count {
    case 0: return header + ", no registrations"
    case 1: header += ", 1 registration:"
    default: header += ", \(components.count) registrations:"
    }
    var lines = [header]
    for (id, component) in components.enumerated() {
      lines.append("  " + Self.line(describing: component))
      guard let graph else { continue }
      for edge in graph.edges(from: id) {
        lines.append("    " + Self.line(describing: edge, in: graph))
      }
    }
    return lines.joined(separator: "\n")
  }

  /// `Cat: services Cat, Pet tagged Indoor; lifetime perContainer(.single); framework
  /// Billing; part Storage; default; App/Wiring.swift:12`.
  private static func line(describing component: Component) -> String {
    let services = component.services.map { DIResolutionContext.name(of: $0.type, tag: $0.tag) }
    var fields = [
      "\(component.name): services "
        + (services.isEmpty ? "none" : services.joined(separator: ", ")),
      "lifetime \(component.lifetime.name)",
    ]
    if let framework = component.framework { fields.append("framework \(framework.name)") }
    if let part = component.part { fields.append("part \(part.name)") }
    if !component.canMake { fields.append("no initializer") }
    if component.asyncFactory != nil { fields.append("async") }
    if component.isDefault { fields.append("default") }
    if component.isTest { fields.append("test") }
    if component.isRoot { fields.append("root") }
    fields.append(component.location)
    return fields.joined(separator: "; ")
  }

  /// `parameter 1 of the initializer: Engine -> Engine (App/Wiring.swift:13)`: the
  /// request, its modifiers, and what serves it.
  private static func line(describing edge: DIGraph.Edge, in graph: DIGraph) -> String {
    let modifiers = edge.modifiers.names
    var text =
      "\(edge.site): \(edge.requested)"
      + (modifiers.isEmpty ? "" : ", " + modifiers.joined(separator: ", "))
    if edge.modifiers.contains(.argument) { return text }
    switch (edge.candidates.count, edge.targets.count) {
    case (0, _): text += " -> no candidate"
    case (_, 0): text += " -> ambiguous among \(edge.candidates.count) candidates"
    case (_, 1) where !edge.isMany: text += " -> \(graph.components[edge.targets[0]].summary)"
    case (_, let count): text += " -> \(count) component\(count == 1 ? "" : "s")"
    }
    return text
  }
}

extension DIGraph.Edge.Modifiers {
  /// The names of the modifiers in the set, in declaration order: `optional`, `many`, …
  /// (`tagged` is left out: the service asked for names its tag).
  fileprivate var names: [String] {
    let all: [(Self, String)] = [
      (.optional, "optional"), (.many, "many"), (.manyInFramework, "many in framework"),
      (.delayed, "delayed"), (.argument, "runtime argument"),
      (.cycle, "after the graph is built"), (.awaiting, "awaiting"),
    ]
    return all.filter { contains($0.0) }.map(\.1)
  }
}
