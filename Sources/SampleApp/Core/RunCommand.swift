internal import Billing
internal import DIContainer
internal import Inventory
internal import OrderModel

/// `sample-app run`: processes generated orders and prints a summary.
enum RunCommand {
  static let help = """
    usage: sample-app run [--orders N] [--seed S]

    Generates N orders (default 5, at most 1000) from seed S (default 10), sends each through
    Inventory (reserve stock), Billing (charge the card) and Notifications (tell the
    customer), and prints one line per order, the totals and who wrote to which audit log.
    The connection pools connect before the first order; at the end the command shuts the
    container down (await container.shutdown()) and prints what it closed, newest first.

    """

  static func run(_ arguments: inout Arguments) async throws(UsageError) -> CommandResult {
    let count = try arguments.number("--orders", in: 1...1000) ?? 5
    let seed = try arguments.number("--seed", in: 0...Int.max) ?? 10
    try arguments.finish()
    do throws(DIError) {
      return CommandResult(status: 0, output: try await report(orders: count, seed: UInt64(seed)))
    } catch {
      return CommandResult(status: 1, output: "", errors: "sample-app: \(error)\n")
    }
  }

  static func report(orders count: Int, seed: UInt64) async throws(DIError) -> String {
    let container = try await SampleContainer.start()  // connects the pools
    let pipeline: OrderPipeline = try container.tryResolve()  // reads the connected pools
    var generator = OrderGenerator(seed: seed)
    let outcomes = generator.orders(count).map(pipeline.process)

    var table = TextTable(
      ["order", "customer", "items", "total", "status", "notified by"], rightAligned: [2, 3])
    for outcome in outcomes {
      table.append([
        "#\(outcome.order.id)", outcome.order.customer, "\(outcome.order.itemCount)",
        outcome.invoice.map { dollars($0.total) } ?? "-", outcome.status.text,
        outcome.channels.joined(separator: ", "),
      ])
    }
    let paid = outcomes.compactMap { $0.status == .paid ? $0.invoice : nil }
    let declined = outcomes.filter { $0.status == .declined }.count
    let stock: any StockService = try container.tryResolve()
    let auditLogs: [any AuditLog] = try many(container.tryResolve())

    var text = "Processed \(count) orders (seed \(seed)): Inventory → Billing → Notifications\n\n"
    text += table.text + "\n"
    text += "paid \(paid.count) (\(dollars(paid.reduce(0) { $0 + $1.total })))"
    text += ", card declined \(declined), no stock \(outcomes.count - paid.count - declined)\n"
    text += "stock left: "
    text += stock.levels.map { "\($0.sku) \($0.quantity)" }.joined(separator: ", ") + "\n"
    text += "audit logs (each framework writes to the one modularity chose for it):\n"
    for log in auditLogs {
      text += "  \(log.label): \(log.entries.count) entries, from " + writers(of: log) + "\n"
    }

    // A server's graceful shutdown: every resource closed, the pools' async closes awaited.
    let tracker: ResourceTracker = try container.tryResolve()
    _ = tracker.takeEvents()
    await container.shutdown()
    let closed = tracker.takeEvents().filter { $0.hasPrefix("closed ") }.map { $0.dropFirst(7) }
    text += "await container.shutdown(): closed " + closed.joined(separator: ", ") + "\n"
    return text
  }

  /// `Billing 5, Notifications 5`: who wrote the log's entries, by the prefix of each.
  private static func writers(of log: any AuditLog) -> String {
    var counts: [(writer: String, count: Int)] = []
    for entry in log.entries {
      let writer = String(entry.prefix { $0 != ":" })
      if let index = counts.firstIndex(where: { $0.writer == writer }) {
        counts[index].count += 1
      } else {
        counts.append((writer, 1))
      }
    }
    return counts.map { "\($0.writer) \($0.count)" }.joined(separator: ", ")
  }
}
