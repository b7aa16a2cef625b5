import DIContainer
import Swinject

/// The scenarios of the issues, S1–S12, each for the implementations that have a
/// form of it.
enum Scenarios {
  static let all: [Scenario] = [s1, s2, s3, s4, s5, s6, s7, s8, s9, s10, s11, s12, s13]

  /// S1: resolve a container-scoped singleton.
  static let s1 = Scenario(id: "S1", title: "resolve a container-scoped singleton", goal: 1.5) {
    switch $0 {
    case .handWritten:
      // A Mutex-guarded lazy instance (see LazyShared), made before timing like the others.
      Workload {
        let shared = LazyShared { D() }
        sink(shared.value)
        return { count in for _ in 0..<count { sink(shared.value) } }
      }
    case .diContainer:
      Workload {
        let container = DIContainer()
        container.register(D.init).lifetime(.perContainer(.single))
        sink(container.resolve() as D)
        return { count in for _ in 0..<count { sink(container.resolve() as D) } }
      }
    case .swinject:
      Workload {
        let container = Container()
        container.register(D.self) { _ in D() }.inObjectScope(.container)
        sink(container.resolve(D.self)!)
        return { count in for _ in 0..<count { sink(container.resolve(D.self)!) } }
      }
    }
  }

  /// S2: resolve a transient leaf.
  static let s2 = Scenario(id: "S2", title: "resolve a transient leaf", goal: 1.5) {
    switch $0 {
    case .handWritten:
      Workload { { count in for _ in 0..<count { sink(D()) } } }
    case .diContainer:
      Workload {
        let container = DIContainer()
        container.register(D.init)
        return { count in for _ in 0..<count { sink(container.resolve() as D) } }
      }
    case .swinject:
      Workload {
        let container = Container()
        container.register(D.self) { _ in D() }.inObjectScope(.transient)
        return { count in for _ in 0..<count { sink(container.resolve(D.self)!) } }
      }
    }
  }

  /// S3: transient `A(B(D), C(D))`, five objects.
  static let s3 = Scenario(id: "S3", title: "transient A(B(D), C(D)), 5 objects", goal: 1.6) {
    graphWorkload($0, sharedD: false)
  }

  /// S4: as S3 with `D` shared in the graph (four objects).
  static let s4 = Scenario(id: "S4", title: "as S3 with D shared in the graph", goal: 2) {
    graphWorkload($0, sharedD: true)
  }

  /// S5: one object with ten transient dependencies.
  static let s5 = Scenario(
    id: "S5", title: "one object with 10 transient dependencies", goal: 1.6
  ) {
    switch $0 {
    case .handWritten:
      Workload {
        { count in
          for _ in 0..<count {
            sink(
              Fan(
                p0: P0(), p1: P1(), p2: P2(), p3: P3(), p4: P4(), p5: P5(), p6: P6(), p7: P7(),
                p8: P8(), p9: P9()))
          }
        }
      }
    case .diContainer:
      Workload {
        let container = DIContainer()
        container.register(P0.init)
        container.register(P1.init)
        container.register(P2.init)
        container.register(P3.init)
        container.register(P4.init)
        container.register(P5.init)
        container.register(P6.init)
        container.register(P7.init)
        container.register(P8.init)
        container.register(P9.init)
        container.register(Fan.init)
        return { count in for _ in 0..<count { sink(container.resolve() as Fan) } }
      }
    case .swinject:
      Workload {
        let container = Container()
        container.register(P0.self) { _ in P0() }.inObjectScope(.transient)
        container.register(P1.self) { _ in P1() }.inObjectScope(.transient)
        container.register(P2.self) { _ in P2() }.inObjectScope(.transient)
        container.register(P3.self) { _ in P3() }.inObjectScope(.transient)
        container.register(P4.self) { _ in P4() }.inObjectScope(.transient)
        container.register(P5.self) { _ in P5() }.inObjectScope(.transient)
        container.register(P6.self) { _ in P6() }.inObjectScope(.transient)
        container.register(P7.self) { _ in P7() }.inObjectScope(.transient)
        container.register(P8.self) { _ in P8() }.inObjectScope(.transient)
        container.register(P9.self) { _ in P9() }.inObjectScope(.transient)
        container.register(Fan.self) { r in
          Fan(
            p0: r.resolve(P0.self)!, p1: r.resolve(P1.self)!, p2: r.resolve(P2.self)!,
            p3: r.resolve(P3.self)!, p4: r.resolve(P4.self)!, p5: r.resolve(P5.self)!,
            p6: r.resolve(P6.self)!, p7: r.resolve(P7.self)!, p8: r.resolve(P8.self)!,
            p9: r.resolve(P9.self)!)
        }.inObjectScope(.transient)
        return { count in for _ in 0..<count { sink(container.resolve(Fan.self)!) } }
      }
    }
  }

  /// S6: a new container, 1,000 registrations and 1,000 resolves (all timed); one operation
  /// is the whole of it.
  static let s6 = Scenario(
    id: "S6", title: "new container + 1,000 registrations + 1,000 resolves", goal: 5,
    resolvesPerOperation: S6Types.count
  ) {
    switch $0 {
    case .handWritten:
      Workload { { count in for _ in 0..<count { S6Types.makeAll() } } }
    case .diContainer:
      Workload {
        { count in
          for _ in 0..<count {
            let container = DIContainer()
            S6Types.registerAll(in: container)
            S6Types.resolveAll(from: container)
          }
        }
      }
    case .swinject:
      Workload {
        { count in
          for _ in 0..<count {
            let container = Container()
            S6Types.registerAll(in: container)
            S6Types.resolveAll(from: container)
          }
        }
      }
    }
  }

  /// S7: S3 on two threads at once, one shared container; measures combined throughput.
  /// Swinject's container is made thread-safe with `synchronize()`, as its README asks.
  static let s7 = Scenario(
    id: "S7", title: "S3 on 2 threads at once (combined throughput)", goal: 2
  ) {
    switch $0 {
    case .handWritten, .diContainer:
      var workload = graphWorkload($0, sharedD: false)
      workload.threads = 2
      return workload
    case .swinject:
      return Workload(
        setup: {
          let container = Container()
          registerGraph(in: container, sharedD: false)
          let resolver = container.synchronize()
          return { count in for _ in 0..<count { sink(resolver.resolve(A.self)!) } }
        }, threads: 2)
    }
  }

  /// S8: one request: open a scope, resolve the five-object request graph whose
  /// `RequestContext` and `RequestLog` are `.scoped` (shared within the request), close it.
  ///
  /// Hand-written: the five objects built by hand, the two scoped ones shared. Swinject has
  /// no request scope; its per-request idiom is a child container per request
  /// (`Container(parent:)`) holding the request's `.container`-scoped registrations, the
  /// rest registered once in the parent.
  static let s8 = Scenario(
    id: "S8",
    title: "open a scope, resolve a 5-object request graph with 2 .scoped objects,"
      + " close it", goal: 3
  ) {
    switch $0 {
    case .handWritten:
      Workload {
        { count in
          for _ in 0..<count {
            let context = RequestContext()
            let log = RequestLog()
            sink(
              RequestHandler(
                service: RequestService(
                  repository: Repository(context: context, log: log), context: context),
                log: log))
          }
        }
      }
    case .diContainer:
      Workload {
        let container = makeRequestContainer()
        return { count in
          for _ in 0..<count {
            let scope = container.makeScope()
            sink(scope.resolve() as RequestHandler)
            scope.close()
          }
        }
      }
    case .swinject:
      Workload {
        let parent = makeSwinjectRequestParent()
        return { count in
          for _ in 0..<count {
            sink(makeSwinjectRequest(parent: parent).resolve(RequestHandler.self)!)
          }
        }
      }
    }
  }

  /// S11: S3 through `try await container.resolveAsync()`, on a task; hand-written makes
  /// S3's graph on a task too. Swinject cannot resolve asynchronously. The goal is
  /// against S3's DIContainer operation (≤ 1.5× its instructions), so there is none against
  /// hand-written code; the report prints S11 ÷ S3.
  static let s11 = Scenario(id: "S11", title: "S3 through resolveAsync()", goal: nil) {
    switch $0 {
    case .handWritten:
      graphByHandOnATask
    case .diContainer:
      Workload.awaiting {
        let container = makeGraphContainer(sharedD: false)
        return { count in for _ in 0..<count { sink(try! await container.resolveAsync() as A) } }
      }
    case .swinject:
      nil
    }
  }

  /// S13: S11 in a container that also registers an async singleton, made before the
  /// operations: every `resolveAsync()` then plans its graph before building it (the
  /// library's `AsyncPlan`), which walks all of S3's graph, none of it cached. Hand-written
  /// as S11.
  static let s13 = Scenario(
    id: "S13", title: "S11 in a container with an async singleton", goal: nil
  ) {
    switch $0 {
    case .handWritten:
      graphByHandOnATask
    case .diContainer:
      Workload.awaiting {
        let container = makeGraphContainer(sharedD: false)
        container.register { () async -> Pool in await Pool() }.lifetime(.perContainer(.single))
        return { count in
          _ = try! await container.resolveAsync() as Pool
          for _ in 0..<count { sink(try! await container.resolveAsync() as A) }
        }
      }
    case .swinject:
      nil
    }
  }

  /// S11's and S13's hand-written operation: S3's graph made by hand on a task.
  static var graphByHandOnATask: Workload {
    Workload.awaiting { { count in for _ in 0..<count { sink(makeGraphByHand()) } } }
  }

  /// How many tasks ask for S12's singleton at once.
  static let firstResolvers = 64

  /// S12: `firstResolvers` tasks' first `resolveAsync()` of an async
  /// `.perContainer(.single)` singleton whose initializer suspends (`Pool`). A first
  /// resolve needs fresh state, so one operation is a new container with its one
  /// registration, then the tasks, until every one has the instance. Hand-written: a new
  /// `AsyncLazyShared` the tasks await. Swinject has no async factories.
  static let s12 = Scenario(
    id: "S12", title: "\(firstResolvers) tasks' first resolveAsync() of an async singleton",
    goal: nil, resolvesPerOperation: firstResolvers
  ) {
    switch $0 {
    case .handWritten:
      firstResolves(make: { AsyncLazyShared { await Pool() } }, first: { await $0.value })
    case .diContainer:
      firstResolves(make: makePoolContainer, first: { try! await $0.resolveAsync() as Pool })
    case .swinject:
      nil
    }
  }

  /// S12's operation: `count` times, fresh shared state from `make`, then
  /// `firstResolvers` tasks at once each getting its `Pool` with `first`.
  static func firstResolves<Shared: Sendable>(
    make: @escaping @Sendable () -> Shared, first: @escaping @Sendable (Shared) async -> Pool
  ) -> Workload {
    Workload.awaiting {
      { count in
        for _ in 0..<count {
          let shared = make()
          await concurrently(firstResolvers) { sink(await first(shared)) }
        }
      }
    }
  }

  /// S12's registration in DIContainer: an async singleton of the container.
  static func makePoolContainer() -> DIContainer {
    let container = DIContainer()
    container.register { () async -> Pool in await Pool() }.lifetime(.perContainer(.single))
    return container
  }

  /// Runs `body` in `tasks` child tasks at once and returns when every one has returned.
  static func concurrently(_ tasks: Int, _ body: @escaping @Sendable () async -> Void) async {
    await withDiscardingTaskGroup { group in
      for _ in 0..<tasks { group.addTask(operation: body) }
    }
  }

  /// S8's registrations in DIContainer.
  static func makeRequestContainer() -> DIContainer {
    let container = DIContainer()
    container.register(RequestContext.init).lifetime(.scoped)
    container.register(RequestLog.init).lifetime(.scoped)
    container.register(Repository.init)
    container.register(RequestService.init)
    container.register(RequestHandler.init)
    return container
  }

  /// S8's registrations made once in Swinject: the transient part of the graph.
  static func makeSwinjectRequestParent() -> Container {
    let parent = Container()
    parent.register(Repository.self) { r in
      Repository(context: r.resolve(RequestContext.self)!, log: r.resolve(RequestLog.self)!)
    }.inObjectScope(.transient)
    parent.register(RequestService.self) { r in
      RequestService(
        repository: r.resolve(Repository.self)!, context: r.resolve(RequestContext.self)!)
    }.inObjectScope(.transient)
    parent.register(RequestHandler.self) { r in
      RequestHandler(service: r.resolve(RequestService.self)!, log: r.resolve(RequestLog.self)!)
    }.inObjectScope(.transient)
    return parent
  }

  /// One Swinject request: a child container with the request's shared objects.
  static func makeSwinjectRequest(parent: Container) -> Container {
    let request = Container(parent: parent)
    request.register(RequestContext.self) { _ in RequestContext() }.inObjectScope(.container)
    request.register(RequestLog.self) { _ in RequestLog() }.inObjectScope(.container)
    return request
  }

  /// S3 and S4 (and S7's operation).
  static func graphWorkload(_ implementation: Implementation, sharedD: Bool) -> Workload {
    switch implementation {
    case .handWritten:
      if sharedD {
        return Workload {
          { count in
            for _ in 0..<count {
              let d = D()
              sink(A(b: B(d: d), c: C(d: d)))
            }
          }
        }
      }
      return Workload { { count in for _ in 0..<count { sink(makeGraphByHand()) } } }
    case .diContainer:
      return Workload {
        let container = makeGraphContainer(sharedD: sharedD)
        return { count in for _ in 0..<count { sink(container.resolve() as A) } }
      }
    case .swinject:
      return Workload {
        let container = Container()
        registerGraph(in: container, sharedD: sharedD)
        return { count in for _ in 0..<count { sink(container.resolve(A.self)!) } }
      }
    }
  }

  /// S3's graph made by hand: `A(B(D), C(D))`, five objects.
  @inline(__always)
  static func makeGraphByHand() -> A {
    A(b: B(d: D()), c: C(d: D()))
  }

  /// A DIContainer with `A(B(D), C(D))` registered, `D` `.objectGraph` if `sharedD`, the
  /// rest (and otherwise `D` too) prototype.
  static func makeGraphContainer(sharedD: Bool) -> DIContainer {
    let container = DIContainer()
    container.register(D.init).lifetime(sharedD ? .objectGraph : .prototype)
    container.register(B.init)
    container.register(C.init)
    container.register { A(b: $0, c: $1) }
    return container
  }

  /// Registers `A(B(D), C(D))` in a Swinject container.
  static func registerGraph(in container: Container, sharedD: Bool) {
    container.register(D.self) { _ in D() }.inObjectScope(sharedD ? .graph : .transient)
    container.register(B.self) { r in B(d: r.resolve(D.self)!) }.inObjectScope(.transient)
    container.register(C.self) { r in C(d: r.resolve(D.self)!) }.inObjectScope(.transient)
    container.register(A.self) { r in
      A(b: r.resolve(B.self)!, c: r.resolve(C.self)!)
    }.inObjectScope(.transient)
  }
}
