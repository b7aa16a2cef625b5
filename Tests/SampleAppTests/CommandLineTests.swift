import Testing

@testable import SampleAppCore

@Suite struct CommandLineTests {
  @Test(arguments: ["run", "graph", "validate", "modules"])
  func everyCommandHasHelp(command: String) async {
    let result = await SampleCLI.run([command, "--help"])
    #expect(result.status == 0)
    #expect(result.output.hasPrefix("usage: sample-app \(command)"))
  }

  @Test func helpListsEveryCommand() async {
    let result = await SampleCLI.run(["--help"])
    #expect(result.status == 0)
    for command in ["run", "graph", "validate", "modules"] {
      #expect(result.output.contains("\n  \(command) "))
    }
  }

  @Test(arguments: [
    (["frobnicate"], "unknown command 'frobnicate'"),
    ([], "missing command"),
    (["run", "--orders"], "--orders needs a value"),
    (["run", "--orders", "zero"], "--orders takes a whole number from 1 to 1000, not 'zero'"),
    (["run", "--orders=0"], "--orders takes a whole number from 1 to 1000, not '0'"),
    (["run", "--verbose"], "unknown option '--verbose' for run"),
    (["graph", "--format", "svg"], "unknown format 'svg'"),
    (["modules", "extra"], "unexpected argument 'extra' for modules"),
  ])
  func usageErrorsExitWith64(arguments: [String], message: String) async {
    let result = await SampleCLI.run(arguments)
    #expect(result.status == 64)
    #expect(result.output.isEmpty)
    #expect(result.errors.contains(message))
  }

  @Test func validatePassesOnTheSampleAndFailsWithoutTheTracker() async {
    let valid = await SampleCLI.run(["validate"])
    #expect(valid.status == 0)
    #expect(valid.output.hasSuffix("valid: 13 checks passed\n"))
    #expect(valid.output.hasPrefix("Validating the graph (13 components, 18 edges): no problems"))
    #expect(valid.output.contains("ok  any AuditLog from NotificationsFramework"))

    let invalid = await SampleCLI.run(["validate", "--missing-tracker"])
    #expect(invalid.status == 1)
    #expect(invalid.output.contains("first failure, OrderPipeline (root):\n"))
    #expect(invalid.output.contains("ResourceTracker is not registered."))
    #expect(invalid.output.hasSuffix("invalid: 13 of 13 checks failed\n"))
    #expect(
      invalid.output.contains(
        "error: SMTPConnection (NotificationsFramework, MessagingPart, "
          + "Notifications/MessagingPart.swift:8) needs ResourceTracker"))
  }

  @Test func graphGroupsComponentsByFramework() async {
    let text = await SampleCLI.run(["graph"])
    #expect(text.status == 0)
    #expect(
      text.output.contains(
        "  Notifier [prototype] → PaymentLedger (BillingFramework), EmailChannel,"
          + " TextMessageChannel\n"))
    #expect(
      text.output.contains("  CardGateway [perPart(.single)] → ResourceTracker (application)"))
    #expect(
      text.output.contains(
        "  PaymentsDatabase [perFramework(.single), async] → ResourceTracker (application)"))
    let dot = await SampleCLI.run(["graph", "--format", "dot"])
    #expect(dot.output.hasPrefix("digraph DIContainer {"))
    #expect(dot.output.contains("    label=\"BillingFramework\";"))
    #expect(dot.output.contains("    c11 [label=\"Notifier\\nprototype\"];\n"))
    #expect(dot.output.contains("  c11 -> c5;\n"))
    let mermaid = await SampleCLI.run(["graph", "--format=mermaid"])
    #expect(mermaid.output.hasPrefix("flowchart LR\n"))
    #expect(mermaid.output.contains("  subgraph f1[\"BillingFramework\"]\n"))
    #expect(mermaid.output.contains("  c11 --> c5\n"))
  }
}
