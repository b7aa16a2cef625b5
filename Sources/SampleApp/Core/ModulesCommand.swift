internal import Billing
internal import DIContainer
internal import DIFrameworks
internal import OrderModel

/// `sample-app modules`: what each framework got for the shared protocols, then what
/// `clean(framework:)` drops.
enum ModulesCommand {
  static let help = """
    usage: sample-app modules

    Shows which AuditLog and ConnectionPool each framework gets (no tags, no names: its
    own, or the one of the framework it imports), lists each framework's resources
    (manyInFramework), then calls clean(framework: BillingFramework.self) and shows which
    instances were dropped (resolved again: a new instance) and closed, and which were kept.
    Billing's pool closes asynchronously, on a task of its own (clean(framework:) is
    synchronous), and connects again at the next resolveAsync().

    """

  /// The framework whose instances the command drops.
  static var cleaned: (name: String, type: any DIFramework.Type) { SampleContainer.frameworks[1] }

  static func run(_ arguments: inout Arguments) async throws(UsageError) -> CommandResult {
    try arguments.finish()
    do throws(DIError) {
      return CommandResult(status: 0, output: try await report())
    } catch {
      return CommandResult(status: 1, output: "", errors: "sample-app: \(error)\n")
    }
  }

  static func report() async throws(DIError) -> String {
    let container = try await SampleContainer.start()
    let tracker: ResourceTracker = try container.tryResolve()

    var text =
      "Each framework asks for `any AuditLog` and `any ConnectionPool`, no tags or names:\n\n"
    var picks = TextTable(["framework", "AuditLog", "ConnectionPool", "whose"])
    for (name, framework) in SampleContainer.frameworks {
      let log: any AuditLog = try container.tryResolve(from: framework)
      let pool: any ConnectionPool = try container.tryResolve(from: framework)
      let owner = TypeName.framework(of: log) ?? "application"
      let whose = owner == name ? "its own" : "\(owner)'s, through its import"
      picks.append([name, log.label, pool.label, whose])
    }
    text += picks.text

    let before = resourcesByFramework(container)
    _ = tracker.takeEvents()
    text += "\ncontainer.clean(framework: \(cleaned.name).self)\n"
    container.clean(framework: cleaned.type)
    // The next request makes Billing's pool again; only an async one can connect it.
    let _: any BillingService = try await container.resolveAsync()
    let after = resourcesByFramework(container)
    // The pools' async onClean hooks run on tasks of their own: wait until they closed.
    for ((_, old), (_, new)) in zip(before, after) {
      for (oldResource, newResource) in zip(old, new) where oldResource !== newResource {
        await tracker.waitUntilClosed(oldResource.label)
      }
    }

    var changes = TextTable(["framework", "before", "after", ""])
    for ((name, old), (_, new)) in zip(before, after) {
      for (oldResource, newResource) in zip(old, new) {
        // The container closed what it dropped: the resources' onClean hooks ran.
        let dropped = oldResource !== newResource
        changes.append([name, oldResource.label, newResource.label, dropped ? "dropped" : "kept"])
      }
    }
    let events = tracker.takeEvents()
    for verb in ["closed", "opened"] {
      let labels = events.filter { $0.hasPrefix(verb + " ") }.map { $0.dropFirst(verb.count + 1) }
      text += "  \(verb): " + (labels.isEmpty ? "nothing" : labels.joined(separator: ", ")) + "\n"
    }
    text += "\n" + changes.text
    text += "(clean(framework:) drops that framework's .perFramework instances only; other\n"
    text += " frameworks' stay, and so do .perPart ones, which clean(part:) drops)\n"
    let log: any AuditLog = try container.tryResolve(from: SampleContainer.frameworks[2].type)
    text += "\n\(SampleContainer.frameworks[2].name) now gets \(log.label), Billing's new ledger.\n"
    return text
  }

  /// Each framework's own resources, in registration order.
  private static func resourcesByFramework(
    _ container: DIContainer
  ) -> [(name: String, resources: [any Resource])] {
    SampleContainer.frameworks.map { name, framework in
      (name, manyInFramework(container.resolve(from: framework)))
    }
  }
}
