import DIContainer
import Testing

// What graph validation and the drawings know of async components.

private final class Connection: Sendable {
  init() async {}
}
private final class LazyUser {
  init(connection: Lazy<Connection>) {}
}
private final class AwaitingUser {
  init(connection: AsyncLazy<Connection>, connections: AsyncProvider<Connection>) {}
}
private final class PlainUser {
  init(connection: Connection) {}
}
private final class Injected {
  var connection: Connection?
}

@Suite struct AsyncGraphTests {
  @Test func aLazyOfAnAsyncComponentIsAValidationError() {
    let container = DIContainer()
    container.register(Connection.init)
    container.register(LazyUser.init).root()
    let problems = container.makeGraph().findProblems()
    #expect(problems.map(\.kind) == [.synchronousPathToAsync])
    #expect(problems.first?.severity == .error)
    #expect(problems.first?.message.contains("take an AsyncLazy/AsyncProvider instead") == true)
  }

  @Test func awaitingDelayedValuesAndPlainParametersAreFine() throws {
    let container = DIContainer()
    container.register(Connection.init)
    container.register(AwaitingUser.init).root()
    container.register(PlainUser.init).root()
    let graph = container.makeGraph()
    try graph.validate()
    #expect(graph.components.filter(\.isAsync).map(\.name) == ["Connection"])
    #expect(graph.edges.contains { $0.modifiers.contains(.awaiting) })
  }

  @Test func anInjectionOfAnAsyncComponentIsAWarning() throws {
    let container = DIContainer()
    container.register(Connection.init)
    container.register(Injected.init).injection(\.connection).root()
    let problems = container.makeGraph().findProblems()
    #expect(problems.map(\.kind) == [.synchronousPathToAsync])
    #expect(problems.first?.severity == .warning)
    try container.makeGraph().validate()
  }

  @Test func theDrawingsMarkAsyncComponents() {
    let container = DIContainer()
    container.register(Connection.init)
    container.register(PlainUser.init)
    let graph = container.makeGraph()
    #expect(graph.dot().contains("Connection\\nprototype (async)"))
    #expect(graph.mermaid().contains("Connection<br/>prototype (async)"))
  }
}
