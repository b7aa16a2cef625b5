import DIContainer
import Logging
import Testing
import Vapor
import VaporDIContainer
import VaporTesting

/// Registered nowhere.
private struct Unregistered {}

@Suite struct ResolutionErrorTests {
  /// An application whose logger keeps its entries in `store`.
  private func withLoggedApp(
    _ store: CapturingLogHandler.Store, _ test: (Application) async throws -> Void
  ) async throws {
    try await withApp { app in
      app.logger = Logger(label: "test") { _ in CapturingLogHandler(store: store) }
      try await test(app)
    }
  }

  @Test func aFailedResolveIsLoggedAtErrorWithItsWholeTextAndAnswered500WithTheRequestID()
    async throws
  {
    let store = CapturingLogHandler.Store()
    try await withLoggedApp(store) { app in
      app.use(container: DIContainer())
      app.get("broken") { req async throws -> String in
        let _: Unregistered = try await req.resolve()
        return "unreachable"
      }
      let response = try await app.testing().sendRequest(
        .GET, "broken", headers: ["X-Request-Id": "req-42"])
      #expect(response.status == .internalServerError)
      #expect(response.body.string.contains("request id req-42"))
      #expect(!response.body.string.contains("Unregistered"))

      let errors = store.all.filter { $0.level == .error && $0.message.contains("Unregistered") }
      #expect(errors.count == 1)
      let expected: DIError? = {
        do throws(DIError) {
          let _: Unregistered = try DIContainer().tryResolve()
          return nil
        } catch { return error }
      }()
      let reason = try #require(expected).description.split(separator: "\n").first.map(String.init)
      #expect(errors.first?.message.contains(try #require(reason)) == true)
      #expect(errors.first?.metadata["request-id"] == "req-42")
    }
  }

  @Test func aDIErrorEscapingAHandlerIsLoggedAndAnswered500() async throws {
    let store = CapturingLogHandler.Store()
    try await withLoggedApp(store) { app in
      app.use(container: DIContainer())
      app.get("escaping") { req async throws -> String in
        let _: Unregistered = try #require(req.requestScope).tryResolve()
        return "unreachable"
      }
      let response = try await app.testing().sendRequest(
        .GET, "escaping", headers: ["X-Request-Id": "req-7"])
      #expect(response.status == .internalServerError)
      #expect(response.body.string.contains("request id req-7"))
      #expect(store.all.contains { $0.level == .error && $0.message.contains("Unregistered") })
    }
  }

  @Test func resolvingWithoutTheMiddlewareIsA500NotATrap() async throws {
    let store = CapturingLogHandler.Store()
    try await withLoggedApp(store) { app in
      app.get("bare") { req async throws -> String in
        let _: Unregistered = try await req.resolve()
        return "unreachable"
      }
      let response = try await app.testing().sendRequest(.GET, "bare")
      #expect(response.status == .internalServerError)
      #expect(store.all.contains { $0.level == .error && $0.message.contains("No request scope") })
    }
  }
}
