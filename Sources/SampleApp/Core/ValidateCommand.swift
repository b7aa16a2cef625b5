internal import Billing
internal import DIContainer
internal import DIFrameworks
internal import Inventory
internal import Notifications
internal import OrderModel

/// `sample-app validate`: resolves the root and every framework's services, reports each.
enum ValidateCommand {
  static let help = """
    usage: sample-app validate [--missing-tracker]

    Validates the sample's graph without building it (container.makeGraph().validate():
    missing or ambiguous dependencies, unbuildable cycles, captive dependencies, components
    no root reaches), then builds it for real: resolves the root (OrderPipeline) and, as
    each framework would ask, its services, its AuditLog, its ConnectionPool and its
    resources. Prints the graph's report, one line per check and the error (path, reason,
    registrations) of a failing one. Exits 0 when all passes, 1 otherwise.
      --missing-tracker  leave out the ResourceTracker registration, to see a failing report

    """

  /// One thing that must resolve, and how to describe what it resolved to.
  struct Check {
    let name: String
    let resolve: (DIContainer) async throws(DIError) -> String
  }

  static func run(_ arguments: inout Arguments) async throws(UsageError) -> CommandResult {
    let missingTracker = arguments.flag("--missing-tracker")
    try arguments.finish()
    let container = SampleContainer.make(registersTracker: !missingTracker)
    let graph = container.makeGraph()
    var text =
      "Validating the graph (\(graph.components.count) components, \(graph.edges.count) edges): "
    var graphIsValid = true
    do throws(DIGraphValidationError) {
      try graph.validate()
      text += "no problems\n"
    } catch {
      graphIsValid = false
      text += "\n\(error)\n"
    }
    var table = TextTable(["", "check", "resolves to"])
    var failures: [(check: String, error: DIError)] = []
    let checks = checks()
    for check in checks {
      do throws(DIError) {
        table.append(["ok", check.name, try await check.resolve(container)])
      } catch {
        table.append(["FAIL", check.name, String(error.description.prefix { $0 != "\n" })])
        failures.append((check.name, error))
      }
    }
    text += "\nResolving its root and services:\n\n"
    text += table.text
    if let first = failures.first {
      text += "\nfirst failure, \(first.check):\n\(first.error)\n"
      text += "\ninvalid: \(failures.count) of \(checks.count) checks failed\n"
      return CommandResult(status: 1, output: text)
    }
    guard graphIsValid else {
      return CommandResult(status: 1, output: text + "\ninvalid: the graph has problems\n")
    }
    return CommandResult(status: 0, output: text + "\nvalid: \(checks.count) checks passed\n")
  }

  static func checks() -> [Check] {
    var checks = [
      // First, and asynchronously: it connects the pools the later checks read.
      Check(name: "OrderPipeline (root)") { container async throws(DIError) in
        TypeName.of(try await container.resolveAsync() as OrderPipeline)
      },
      Check(name: "any StockService from InventoryFramework") { container throws(DIError) in
        TypeName.of(try container.tryResolve(from: InventoryFramework.self) as any StockService)
      },
      Check(name: "any BillingService from BillingFramework") { container throws(DIError) in
        TypeName.of(try container.tryResolve(from: BillingFramework.self) as any BillingService)
      },
      Check(name: "any NotificationService from NotificationsFramework") {
        container throws(DIError) in
        TypeName.of(
          try container.tryResolve(from: NotificationsFramework.self) as any NotificationService)
      },
    ]
    for (name, framework) in SampleContainer.frameworks {
      checks.append(
        Check(name: "any AuditLog from \(name)") { container throws(DIError) in
          TypeName.of(try container.tryResolve(from: framework) as any AuditLog)
        })
      checks.append(
        Check(name: "any ConnectionPool from \(name)") { container throws(DIError) in
          TypeName.of(try container.tryResolve(from: framework) as any ConnectionPool)
        })
      checks.append(
        Check(name: "\(name)'s own resources") { container throws(DIError) in
          let resources: DIManyInFramework<any Resource> = try container.tryResolve(
            from: framework)
          return resources.values.map(TypeName.of).joined(separator: ", ")
        })
    }
    return checks
  }
}
