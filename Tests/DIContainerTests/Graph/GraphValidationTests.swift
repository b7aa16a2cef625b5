import DIContainer
import DITestSupport
import Testing

@Suite struct GraphValidationTests {
  typealias G = GraphFixtures

  @Test func graphListsComponentsAndEdgesWithTheirModifiers() throws {
    let container = DIContainer()
    container.load(DIModuleID(.framework, type: G.ShopFramework.self)) {
      container.load(DIModuleID(.part, type: G.StoragePart.self)) {
        container.register(G.Store.init).as(G.Storage.self, tag: G.Primary.self)
          .lifetime(.perContainer(.single))
      }
    }
    container.register { (store: G.Storage?, loggers: DIMany<G.Logger>, name: DIArg<String>) in
      G.Checkout(store: store, loggers: many(loggers), name: arg(name))
    }
    .injection(cycle: true) { (checkout: G.Checkout, store: DIByTag<G.Primary, G.Storage>) in
      checkout.primary = by(tag: G.Primary.self, on: store)
    }
    .root()
    container.register(G.FileLogger.init).as(G.Logger.self)
    container.register(G.ConsoleLogger.init).as(G.Logger.self)

    let graph = container.makeGraph()
    #expect(graph.components.map(\.name) == ["Store", "Checkout", "FileLogger", "ConsoleLogger"])
    let store = graph.components[0]
    #expect(store.framework == "ShopFramework")
    #expect(store.part == "StoragePart")
    guard case .perContainer(.single) = store.lifetime else {
      Issue.record("lifetime \(store.lifetime)")
      return
    }
    #expect(store.services.map(\.description) == ["Store", "Storage tagged Primary"])
    #expect(store.tags.count == 1 && store.tags[0] == G.Primary.self)
    #expect(store.location.hasPrefix("DIContainerTests/GraphValidationTests.swift:"))
    #expect(store.location == "\(store.file):\(store.line)")
    #expect(graph.frameworks == ["ShopFramework"])
    #expect(graph.components[1].isRoot && graph.hasRoots)

    let edges = Array(graph.edges(from: 1))
    #expect(edges.map(\.requested) == ["Storage", "Logger", "String", "Storage tagged Primary"])
    #expect(edges[0].modifiers == [.optional])
    #expect(edges[0].targets.isEmpty)  // Store provides Storage only under a tag
    #expect(edges[1].modifiers == [.many])
    #expect(edges[1].targets == [2, 3])
    #expect(edges[2].modifiers == [.argument])
    #expect(edges[3].modifiers == [.tagged, .cycle])
    #expect(edges[3].site == .injection(0, parameter: 0))
    #expect(edges[3].targets == [0])
    #expect(graph.edges(from: 0).isEmpty)
  }

  @Test func validGraphPasses() throws {
    let container = DIContainer()
    container.register(G.Store.init).as(G.Storage.self).lifetime(.perContainer(.single))
    container.register(G.FileLogger.init).as(G.Logger.self).default()
    container.register(G.ConsoleLogger.init).as(G.Logger.self)
    container.register { G.Checkout(store: $0, loggers: [$1] + many($2), name: "shop") }
      .root()
    let graph = container.makeGraph()
    #expect(graph.findProblems().isEmpty)
    #expect(graph.checkIsValid())
    try graph.validate()
  }

  @Test func neededComponentWithoutInitializerIsAnError() throws {
    let container = DIContainer()
    container.register(G.Store.self)
    container.register(G.Presenter.self)  // not needed: only inject(into:) serves it
    container.register { (store: G.Store) in G.Shelf(store: store) }
    let problems = container.makeGraph().findProblems()
    #expect(problems.map(\.kind) == [.noInitializer])
    #expect(problems[0].components == [0, 2])
    #expect(problems[0].message.contains("Store (DIContainerTests/GraphValidationTests.swift:"))
    #expect(problems[0].message.contains("but Shelf ("))
  }

  @Test func missingDependencyIsAnErrorUnlessOptional() throws {
    let container = DIContainer()
    container.register { (store: G.Store) in G.Shelf(store: store) }
    container.register { (store: G.Store?) in G.Shelf(store: store ?? G.Store()) }
    container.register { (loggers: DIMany<G.Logger>) in G.Audit(loggers: many(loggers)) }
    let problems = container.makeGraph().findProblems()
    #expect(problems.map(\.kind) == [.notRegistered])
    #expect(problems[0].severity == .error)
    #expect(problems[0].components == [0])
    #expect(
      problems[0].message.hasPrefix(
        "Shelf (DIContainerTests/GraphValidationTests.swift:"))
    #expect(
      problems[0].message.hasSuffix(
        "needs Store (parameter 1 of the initializer), and no component provides it."))
  }

  @Test func ambiguousCandidatesAreAnErrorNamingEveryCandidate() throws {
    let container = DIContainer()
    container.register(G.FileLogger.init).as(G.Logger.self)
    container.register(G.ConsoleLogger.init).as(G.Logger.self)
    container.register { (logger: G.Logger) in G.Audit(loggers: [logger]) }
    container.register { (logger: G.Logger?) in G.Audit(loggers: logger.map { [$0] } ?? []) }
    let problems = container.makeGraph().findProblems()
    #expect(problems.map(\.kind) == [.ambiguous, .ambiguous])
    #expect(problems.map(\.severity) == [.error, .warning])
    #expect(problems[0].components == [2, 0, 1])
    let lines = problems[0].message
    #expect(lines.contains("2 candidates and none is preferred"))
    #expect(lines.contains("FileLogger (DIContainerTests/GraphValidationTests.swift:"))
    #expect(lines.contains("ConsoleLogger (DIContainerTests/GraphValidationTests.swift:"))
    #expect(problems[1].message.contains("so it always gets nil"))

    let audit: G.Audit? = try? container.tryResolve()
    #expect(audit == nil)
  }

  @Test func defaultAndTestCandidatesAreNotAmbiguous() throws {
    let preferred = DIContainer()
    preferred.register(G.FileLogger.init).as(G.Logger.self).default()
    preferred.register(G.ConsoleLogger.init).as(G.Logger.self)
    preferred.register { (logger: G.Logger) in G.Audit(loggers: [logger]) }
    try preferred.makeGraph().validate()

    let replaced = DIContainer()
    replaced.register(G.FileLogger.init).as(G.Logger.self).default()
    replaced.register(G.ConsoleLogger.init).as(G.Logger.self).test()
    replaced.register { (logger: G.Logger) in G.Audit(loggers: [logger]) }
    let graph = replaced.makeGraph()
    try graph.validate()
    #expect(graph.edges(from: 2).first?.targets == [1])
  }

  @Test func ambiguityIsJudgedByTheAskingFrameworkAsAtRunTime() throws {
    let container = DIContainer()
    let shop = DIModuleID(.framework, type: G.ShopFramework.self)
    let billing = DIModuleID(.framework, type: G.BillingFramework.self)
    let reports = DIModuleID(.framework, type: G.ReportsFramework.self)
    let admin = DIModuleID(.framework, type: G.AdminFramework.self)
    container.load(shop) {
      container.register(G.FileLogger.init).as(G.Logger.self)
      container.register { (logger: G.Logger) in G.Audit(loggers: [logger]) }
    }
    container.load(billing) {
      container.register(G.ConsoleLogger.init).as(G.Logger.self)
    }
    container.load(reports) {
      container.register { (logger: G.Logger) in G.Report(logger: logger) }
    }
    container.addImport(billing, to: reports)
    container.load(admin) {
      container.register { (logger: G.Logger) in G.Shelf(store: G.Store(), logger: logger) }
    }

    let graph = container.makeGraph()
    #expect(graph.edges(from: 1).first?.targets == [0])  // Shop's own logger
    #expect(graph.edges(from: 3).first?.targets == [2])  // the imported Billing logger
    let problems = graph.findProblems()
    #expect(problems.map(\.kind) == [.ambiguous])
    #expect(problems[0].components.first == 4)
    #expect(problems[0].message.contains("for framework AdminFramework"))

    let audit: G.Audit = try container.tryResolve()
    #expect(audit.loggers.first is G.FileLogger)
    let report: G.Report = try container.tryResolve()
    #expect(report.logger is G.ConsoleLogger)
    #expect(throws: DIError.self) { let _: G.Shelf = try container.tryResolve() }
  }

  @Test func componentWithArgumentsNeededByAnotherIsAnError() throws {
    let container = DIContainer()
    container.register { (name: DIArg<String>) in G.Named(name: arg(name)) }
    container.register { (named: G.Named) in G.Report(logger: G.FileLogger(), named: named) }
    let problems = container.makeGraph().findProblems()
    #expect(problems.map(\.kind) == [.missingArgument])
    #expect(problems[0].components == [0, 1])
    #expect(throws: DIError.self) { let _: G.Report = try container.tryResolve() }
    let named: G.Named = container.resolve(arg: "main")
    #expect(named.name == "main")
  }

  @Test func unreachableComponentsAreWarningsWhenRootsExist() throws {
    let container = DIContainer()
    container.register(G.Store.init)
    container.register { (store: G.Store) in G.Shelf(store: store) }.root()
    container.register(G.FileLogger.init)
    // Not reachable, so not checked: its missing dependency is no error.
    container.register { (logger: G.Logger) in G.Report(logger: logger) }
    container.register(G.ConsoleLogger.init).lifetime(.single)  // a root by default

    let graph = container.makeGraph()
    let problems = graph.findProblems()
    #expect(problems.map(\.kind) == [.unreachable, .unreachable])
    #expect(problems.allSatisfy { $0.severity == .warning })
    #expect(problems.map(\.components) == [[2], [3]])
    #expect(problems[0].message.contains("FileLogger (DIContainerTests/"))
    #expect(graph.checkIsValid())
    try graph.validate()

    let withoutRoots = DIContainer()
    withoutRoots.register(G.FileLogger.init)
    #expect(withoutRoots.makeGraph().findProblems().isEmpty)
  }

  @Test func validateThrowsOneReportListingEveryProblem() throws {
    let container = DIContainer()
    container.register { (store: G.Store) in G.Shelf(store: store) }.root()
    container.register(G.FileLogger.init).as(G.Logger.self)
    container.register(G.ConsoleLogger.init).as(G.Logger.self)
    container.register { (logger: G.Logger) in G.Audit(loggers: [logger]) }.root()
    container.register(G.Presenter.init)

    let graph = container.makeGraph()
    #expect(!graph.checkIsValid())
    let report = try #require(throws: DIGraphValidationError.self) { try graph.validate() }
    #expect(report.errors.map(\.kind) == [.notRegistered, .ambiguous])
    #expect(report.warnings.map(\.kind) == [.unreachable, .unreachable, .unreachable])
    let text = report.description
    #expect(text.hasPrefix("The dependency graph has 2 errors and 3 warnings:\n  error: Shelf ("))
    #expect(text.split(separator: "\n").count == 6)
    #expect(text.contains("\n  warning: Presenter (DIContainerTests/GraphValidationTests.swift:"))
  }

  @Test func graphThatValidatesResolvesEveryRoot() throws {
    let container = DIContainer()
    let shop = DIModuleID(.framework, type: G.ShopFramework.self)
    let billing = DIModuleID(.framework, type: G.BillingFramework.self)
    container.load(billing) {
      container.register(G.ConsoleLogger.init).as(G.Logger.self).lifetime(.perFramework(.single))
      container.register(G.Store.init).as(G.Storage.self).lifetime(.perContainer(.single))
    }
    container.load(shop) {
      container.register(G.FileLogger.init).as(G.Logger.self)
      container.register { (logger: G.Logger) in G.Report(logger: logger) }.root()
      container.register { (store: G.Store, logger: G.Logger) in
        G.Shelf(store: store, logger: logger)
      }
      .injection { (shelf: G.Shelf, audit: G.Audit) in shelf.audit = audit }
      .root()
      container.register { G.Audit(loggers: many($0)) }.lifetime(.objectGraph)
    }
    container.addImport(billing, to: shop)
    container.register(G.Parent.init).lifetime(.objectGraph).injection(cycle: true, \.child)
      .root()
    container.register(G.Child.init).lifetime(.objectGraph)

    let graph = container.makeGraph()
    try graph.validate()
    let roots = graph.components.filter(\.isRoot)
    #expect(roots.count == 3)
    for root in roots {
      try Self.resolve(root.type, from: container)
    }
  }

  /// Resolves a component's type, given as a metatype value.
  static func resolve<T>(_ type: T.Type, from container: DIContainer) throws(DIError) {
    let _: T = try container.tryResolve()
  }
}

extension LogTests {
  @Test func checkIsValidLogsEveryProblem() {
    let lines = EventLog<String>()
    let savedFn = DISetting.Log.fn
    defer { DISetting.Log.fn = savedFn }
    DISetting.Log.fn = { level, message in lines.append("\(level): \(message)") }
    let container = DIContainer()
    container.register { (store: GraphFixtures.Store) in GraphFixtures.Shelf(store: store) }
      .root()
    container.register(GraphFixtures.Presenter.init)
    #expect(!container.makeGraph().checkIsValid())
    #expect(lines.all.contains { $0.hasPrefix("error: Shelf (") && $0.contains("needs Store") })
    #expect(lines.all.contains { $0.hasPrefix("warning: Presenter (") })
  }
}
