import DIContainer
import Hummingbird
import HummingbirdDIContainer
import HummingbirdTesting
import Testing

/// Live HTTP: each request gets its own `.scoped` instances, which close after the response
/// body has been written, streamed bodies included.
@Suite(.timeLimit(.minutes(2)))
struct RequestScopeTests {
  /// A container with a `.scoped` probe whose hook records `closed <serial>`.
  static func container(_ events: EventLog) -> DIContainer {
    let container = DIContainer()
    container.register { ScopedProbe() }.lifetime(.scoped).onClean { probe in
      probe.close()
      events.record("closed \(probe.serial)")
    }
    return container
  }

  /// The router: `/probe` answers `<serial> open|closed` (the probe's state while the body is
  /// written), `/stream` writes three such lines, one chunk each.
  static func application(_ container: DIContainer) -> some ApplicationProtocol {
    let router = Router(context: DIBasicRequestContext.self)
    router.add(middleware: DIRequestScopeMiddleware(container: container))
    router.get("probe") { _, context in
      let probe: ScopedProbe = try await context.resolve()
      let again: ScopedProbe = try await context.resolve()
      return Response(
        status: .ok,
        body: ResponseBody { writer in
          let state = probe.isClosed ? "closed" : "open"
          try await writer.write(ByteBuffer(string: "\(probe.serial) \(again.serial) \(state)"))
          try await writer.finish(nil)
        })
    }
    router.get("stream") { _, context in
      let probe: ScopedProbe = try await context.resolve()
      return Response(
        status: .ok,
        body: ResponseBody { writer in
          for chunk in 1...3 {
            await Task.yield()
            let state = probe.isClosed ? "closed" : "open"
            try await writer.write(ByteBuffer(string: "\(chunk) \(probe.serial) \(state)\n"))
          }
          try await writer.finish(nil)
        })
    }
    return Application(
      router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
  }

  @Test func eachRequestHasItsOwnScopedInstanceClosedAfterItsResponse() async throws {
    let events = EventLog()
    let app = Self.application(Self.container(events))
    try await app.test(.live) { client in
      var serials: [Int] = []
      for _ in 0..<2 {
        let body = try await client.execute(uri: "/probe", method: .get) { response in
          #expect(response.status == .ok)
          return String(buffer: response.body)
        }
        let fields = body.split(separator: " ")
        #expect(fields.count == 3)
        #expect(fields[0] == fields[1], "one instance per request scope")
        #expect(fields.last == "open", "the scope was open while the body was written")
        let serial = try #require(Int(fields[0]))
        await events.wait(for: "closed \(serial)")
        serials.append(serial)
      }
      #expect(serials[0] != serials[1], "each request has its own instance")
    }
  }

  @Test func aStreamedBodyKeepsTheScopeOpenUntilItsLastChunk() async throws {
    let events = EventLog()
    let app = Self.application(Self.container(events))
    try await app.test(.live) { client in
      let body = try await client.execute(uri: "/stream", method: .get) { response in
        String(buffer: response.body)
      }
      let lines = body.split(separator: "\n").map { $0.split(separator: " ") }
      #expect(lines.map { $0[0] } == ["1", "2", "3"])
      #expect(lines.allSatisfy { $0[2] == "open" }, "\(body)")
      let serial = try #require(Int(lines[0][1]))
      await events.wait(for: "closed \(serial)")
    }
  }
}
