import DIContainer
import Testing

private final class RequestLog {}
private final class Cache {
  init(log: RequestLog) {}
}
private final class Formatter {
  init(log: RequestLog) {}
}
private final class Reporter {
  init(formatter: Formatter) {}
}
private final class Sink {
  init(log: Provider<RequestLog>, lazy: Lazy<RequestLog>) {}
}
private final class Collector {
  init(logs: DIMany<RequestLog>) {}
}
private final class Handler {
  init(log: RequestLog, formatter: Formatter) {}
}

@Suite struct CaptiveDependencyTests {
  private func captives(_ container: DIContainer) -> [DIGraph.Problem] {
    container.makeGraph().findProblems().filter { $0.kind == .captiveDependency }
  }

  @Test(arguments: [
    DILifetime.single, .perApplication(.single), .perContainer(.single), .perContainer(.weak),
    .perFramework(.single), .perPart(.single), .custom(DIScope(name: "Session")), .multiton,
  ])
  func longerLivedComponentHoldingAScopedOneIsReported(_ lifetime: DILifetime) throws {
    let container = DIContainer()
    container.register(RequestLog.init).lifetime(.scoped)
    container.register(Cache.init).lifetime(lifetime)
    let problems = captives(container)
    let problem = try #require(problems.first)
    #expect(problems.count == 1)
    #expect(problem.severity == .error)
    #expect(problem.message.contains("Cache (DIContainerTests/CaptiveDependencyTests.swift:"))
    #expect(problem.message.contains("RequestLog (DIContainerTests/CaptiveDependencyTests.swift:"))
    #expect(throws: DIGraphValidationError.self) { try container.makeGraph().validate() }
  }

  @Test func throughAPrototypeIsReportedWithThePath() throws {
    let container = DIContainer()
    container.register(RequestLog.init).lifetime(.scoped)
    container.register(Formatter.init)
    container.register(Reporter.init).lifetime(.perContainer(.single))
    let problem = try #require(captives(container).first)
    #expect(problem.message.contains("Reporter → Formatter → RequestLog"))
  }

  @Test func manyEdgesCount() {
    let container = DIContainer()
    container.register(RequestLog.init).lifetime(.scoped)
    container.register { Collector(logs: $0) }.lifetime(.perContainer(.single))
    #expect(captives(container).count == 1)
  }

  @Test func delayedEdgesAndShortLivedHoldersAreFine() throws {
    let container = DIContainer()
    container.register(RequestLog.init).lifetime(.scoped)
    container.register(Sink.init).lifetime(.perContainer(.single))
    container.register(Formatter.init)
    container.register(Handler.init).lifetime(.scoped)
    container.register(Cache.init).lifetime(.objectGraph)
    #expect(captives(container).isEmpty)
    try container.makeGraph().validate()
  }
}
