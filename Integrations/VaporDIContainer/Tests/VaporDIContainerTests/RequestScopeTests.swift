import DIContainer
import Synchronization
import Testing
import Vapor
import VaporDIContainer
import VaporTesting

@Suite struct RequestScopeTests {
  /// A container with a `.scoped` probe (numbered in creation order) whose cleaning is
  /// recorded in `log` as `clean <id>`.
  private func container(log: EventLog) -> DIContainer {
    let container = DIContainer()
    let counter = Atomic<Int>(0)
    container.register { RequestProbe(id: counter.add(1, ordering: .relaxed).newValue) }
      .lifetime(.scoped)
      .onClean { probe in
        probe.clean()
        log.record("clean \(probe.id)")
      }
    return container
  }

  @Test func eachRequestGetsItsOwnScopedInstanceCleanedWhenItsResponseIsDone() async throws {
    let log = EventLog()
    try await withApp { app in
      app.use(container: container(log: log))
      app.get("probe") { req async throws -> String in
        let first: RequestProbe = try await req.resolve()
        let second: RequestProbe = try await req.resolve()
        #expect(first === second)
        #expect(!first.isCleaned)
        return "\(first.id)"
      }
      let one = try await app.testing().sendRequest(.GET, "probe")
      try await waitFor("clean 1", in: log)
      let two = try await app.testing().sendRequest(.GET, "probe")
      try await waitFor("clean 2", in: log)
      #expect(one.status == .ok)
      #expect(one.body.string == "1")
      #expect(two.body.string == "2")
      #expect(log.events == ["clean 1", "clean 2"])
    }
  }

  @Test func aThrowingHandlerStillClosesItsScope() async throws {
    let log = EventLog()
    try await withApp { app in
      app.use(container: container(log: log))
      app.get("fail") { req async throws -> String in
        let _: RequestProbe = try await req.resolve()
        throw Abort(.badRequest, reason: "no")
      }
      let response = try await app.testing().sendRequest(.GET, "fail")
      #expect(response.status == .badRequest)
      #expect(log.events == ["clean 1"])
    }
  }

  @Test func anAsyncStreamedBodyKeepsTheScopeOpenUntilItsLastChunkIsWritten() async throws {
    try await expectScopeClosedAfterStream(
      body: { probe, log in
        .init(managedAsyncStream: { writer in
          for chunk in 1...3 {
            log.record("chunk \(chunk), cleaned: \(probe.isCleaned)")
            try await writer.writeBuffer(ByteBuffer(string: "\(chunk);"))
          }
        })
      },
      sends: "1;2;3;",
      events: ["chunk 1, cleaned: false", "chunk 2, cleaned: false", "chunk 3, cleaned: false"])
  }

  @Test func anEventLoopStreamedBodyKeepsTheScopeOpenUntilItsLastChunkIsWritten() async throws {
    try await expectScopeClosedAfterStream(
      body: { probe, log in
        .init(stream: { writer in
          log.record("chunk 1, cleaned: \(probe.isCleaned)")
          writer.write(.buffer(ByteBuffer(string: "a;"))).flatMap {
            log.record("chunk 2, cleaned: \(probe.isCleaned)")
            return writer.write(.buffer(ByteBuffer(string: "b;")))
          }.whenComplete { _ in
            log.record("last chunk written, cleaned: \(probe.isCleaned)")
            writer.write(.end, promise: nil)
          }
        })
      },
      sends: "a;b;",
      events: [
        "chunk 1, cleaned: false", "chunk 2, cleaned: false", "last chunk written, cleaned: false",
      ])
  }

  /// Serves `body` over live HTTP from a handler that resolves the scoped probe, and expects
  /// the client to get `sends`, the body to record `events` (the probe not cleaned yet), and
  /// the scope to close only after them.
  private func expectScopeClosedAfterStream(
    body: @escaping @Sendable (RequestProbe, EventLog) -> Response.Body, sends: String,
    events: [String], sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    let log = EventLog()
    try await withApp { app in
      app.use(container: container(log: log))
      app.get("stream") { req async throws -> Response in
        let probe: RequestProbe = try await req.resolve()
        return Response(body: body(probe, log))
      }
      let response = try await app.testing(method: .running(port: 0)).sendRequest(.GET, "stream")
      #expect(response.body.string == sends, sourceLocation: sourceLocation)
      try await waitFor("clean 1", in: log)
      #expect(log.events == events + ["clean 1"], sourceLocation: sourceLocation)
    }
  }

  /// Waits for `event`, failing the test (not hanging it) past a generous limit.
  private func waitFor(_ event: String, in log: EventLog) async throws {
    let seen = await log.waitFor(event)
    #expect(seen, "\(event) was never recorded: \(log.events)")
  }
}
