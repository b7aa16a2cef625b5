import DIContainer
import Synchronization
import Testing
import Vapor
import VaporDIContainer
import VaporTesting

/// Registered nowhere.
private struct Unregistered {}

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

  /// A container with a `.scoped` probe whose async `onClean` takes a while before it records
  /// `clean 1` in `log`: a middleware that did not await it would answer first.
  private func slowlyCleanedContainer(log: EventLog) -> DIContainer {
    let container = DIContainer()
    container.register { RequestProbe(id: 1) }
      .lifetime(.scoped)
      .onClean { (probe: RequestProbe) async in
        try? await Task.sleep(for: .milliseconds(200))
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

  @Test func aThrowingHandlerClosesItsScopeAwaitingItsAsyncCleanHooksBeforeTheErrorIsAnswered()
    async throws
  {
    let log = EventLog()
    try await withApp { app in
      app.use(container: slowlyCleanedContainer(log: log))
      app.get("fail") { req async throws -> String in
        let _: RequestProbe = try await req.resolve()
        throw Abort(.badRequest, reason: "no")
      }
      let response = try await app.testing().sendRequest(.GET, "fail")
      #expect(response.status == .badRequest)
      #expect(log.events == ["clean 1"])
    }
  }

  @Test func vaporsChainRunsTheRestOfTheChainOnTheRequestsEventLoopWithNoTaskBetween()
    async throws
  {
    let log = EventLog()
    try await withApp { app in
      let eventLoop = app.eventLoopGroup.next()
      let responder = [DIRequestScopeMiddleware(container: container(log: log))].makeResponder(
        chainingTo: BasicResponder { req in
          log.record("route on the event loop: \(req.eventLoop.inEventLoop)")
          return req.eventLoop.makeSucceededFuture(Response(status: .ok))
        })
      let request = Request(application: app, on: eventLoop)
      let response = try await eventLoop.flatSubmit { responder.respond(to: request) }.get()
      #expect(response.status == .ok)
      #expect(log.events == ["route on the event loop: true"])
    }
  }

  @Test func theFutureFormAnswersOnTheRequestsEventLoopAndClosesWhenTheResponseIsReleased()
    async throws
  {
    let log = EventLog()
    try await withTwoEventLoops { requestLoop, otherLoop in
      try await withApp { app in
        let middleware = DIRequestScopeMiddleware(container: container(log: log))
        let request = Request(application: app, on: requestLoop)
        // The future keeps its response too, so both go before the scope can close.
        var future: EventLoopFuture<Response>? = middleware.respond(
          to: request,
          chainingTo: BasicResponder { req in
            otherLoop.makeCompletedFuture {
              let probe: RequestProbe = try #require(req.requestScope).tryResolve()
              return Response(body: .init(string: "\(probe.id)"))
            }
          })
        #expect(future?.eventLoop === requestLoop)
        var response: Response? = try await future?.get()
        withExtendedLifetime(response) {
          #expect(response?.body.string == "1")
          #expect(log.events.isEmpty)
        }
        future = nil
        response = nil
        try await waitFor("clean 1", in: log)
      }
    }
  }

  @Test func theFutureFormAwaitsAsyncCleanHooksAndReportsADIErrorBeforeItFails()
    async throws
  {
    let log = EventLog()
    let container = slowlyCleanedContainer(log: log)
    try await withTwoEventLoops { requestLoop, otherLoop in
      try await withApp { app in
        let request = Request(application: app, on: requestLoop)
        let future = DIRequestScopeMiddleware(container: container).respond(
          to: request,
          chainingTo: BasicResponder { req in
            otherLoop.makeCompletedFuture {
              let scope = try #require(req.requestScope)
              let _: RequestProbe = try scope.tryResolve()
              let _: Unregistered = try scope.tryResolve()
              return Response()
            }
          })
        let failure = await #expect(throws: DIResolutionFailure.self) { try await future.get() }
        #expect(failure?.requestID == request.id)
        #expect(failure?.message.contains("Unregistered") == true)
        #expect(log.events == ["clean 1"])
      }
    }
  }

  @Test func theAsyncFormKeepsTheScopeOpenUntilItsResponseIsReleased() async throws {
    let log = EventLog()
    try await withApp { app in
      let middleware = DIRequestScopeMiddleware(container: container(log: log))
      let request = Request(application: app, on: app.eventLoopGroup.next())
      var response: Response? = try await middleware.respond(
        to: request,
        chainingTo: AsyncBasicResponder { req in
          let probe: RequestProbe = try await req.resolve()
          return Response(body: .init(string: "\(probe.id)"))
        })
      withExtendedLifetime(response) {
        #expect(response?.body.string == "1")
        #expect(log.events.isEmpty)
      }
      response = nil
      try await waitFor("clean 1", in: log)
    }
  }

  @Test func theAsyncFormClosesTheScopeAndReportsADIErrorWhenTheChainThrows() async throws {
    let log = EventLog()
    try await withApp { app in
      let middleware = DIRequestScopeMiddleware(container: container(log: log))
      let request = Request(application: app, on: app.eventLoopGroup.next())
      let failure = await #expect(throws: DIResolutionFailure.self) {
        try await middleware.respond(
          to: request,
          chainingTo: AsyncBasicResponder { req in
            let _: RequestProbe = try await req.resolve()
            let _: Unregistered = try #require(req.requestScope).tryResolve()
            return Response()
          })
      }
      #expect(failure?.requestID == request.id)
      #expect(failure?.message.contains("Unregistered") == true)
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

  /// Runs `body` with two event loops of a group of its own (the application's group may
  /// have one), and shuts the group down afterwards.
  private func withTwoEventLoops(
    _ body: (any EventLoop, any EventLoop) async throws -> Void
  ) async throws {
    let group = MultiThreadedEventLoopGroup(numberOfThreads: 2)
    do {
      try await body(group.next(), group.next())
    } catch {
      try? await group.shutdownGracefully()
      throw error
    }
    try await group.shutdownGracefully()
  }

  /// Waits for `event`, failing the test (not hanging it) past a generous limit.
  private func waitFor(_ event: String, in log: EventLog) async throws {
    let seen = await log.waitFor(event)
    #expect(seen, "\(event) was never recorded: \(log.events)")
  }
}
