import DIContainer
import Testing

private final class ArgLog {}
private final class ArgSession {
  let user: String
  let port: Int
  let log: ArgLog
  init(user: String, port: Int, log: ArgLog) {
    self.user = user
    self.port = port
    self.log = log
  }
}
private final class ArgPort {
  let port: Int?
  init(port: Int?) { self.port = port }
}

/// An async component's `arg` parameters take the runtime arguments of `resolveAsync(arg:)`
/// and `resolveAsync(args:)`, in order, between its other parameters.
@Suite struct AsyncArgumentTests {
  private func makeContainer() -> DIContainer {
    let container = DIContainer()
    container.register(ArgLog.init).lifetime(.perContainer(.single))
    container.register { (user: DIArg<String>, log: ArgLog, port: DIArg<Int>) async in
      await Task.yield()
      return ArgSession(user: user.value, port: port.value, log: log)
    }
    container.register { (port: DIArg<Int?>) async in ArgPort(port: port.value) }
    return container
  }

  @Test func argParametersTakeTheArgumentsInOrder() async throws {
    let container = makeContainer()
    let session: ArgSession = try await container.resolveAsync(args: "mimi", 8080)
    #expect(session.user == "mimi")
    #expect(session.port == 8080)
    #expect(try session.log === (container.tryResolve() as ArgLog))
  }

  @Test func anOptionalArgParameterIsTheArgumentOrNil() async throws {
    let container = makeContainer()
    let given: ArgPort = try await container.resolveAsync(arg: 443)
    let none: ArgPort = try await container.resolveAsync()
    #expect(given.port == 443)
    #expect(none.port == nil)
  }

  @Test func aMissingArgumentNamesItsPositionAndType() async throws {
    let container = makeContainer()
    do {
      let _: ArgSession = try await container.resolveAsync(arg: "mimi")
      Issue.record("resolved without its second argument")
    } catch {
      #expect(error.code == .missingArgument)
      #expect(error.description.contains("runtime argument 2 (Int)"))
    }
  }

  @Test func anArgumentOfTheWrongTypeIsAnError() async throws {
    let container = makeContainer()
    do {
      let _: ArgSession = try await container.resolveAsync(args: 8080, "mimi")
      Issue.record("resolved with its arguments swapped")
    } catch {
      #expect(error.code == .wrongArgument)
    }
  }
}
