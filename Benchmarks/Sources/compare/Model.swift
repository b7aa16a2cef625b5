// The objects every scenario makes: plain final classes, as an application declares them.

/// A leaf (S1, S2) and the shared dependency of S3 and S4.
final class D {}

/// Depends on a `D`.
final class B {
  let d: D
  init(d: D) { self.d = d }
}

/// Depends on a `D`.
final class C {
  let d: D
  init(d: D) { self.d = d }
}

/// The root of S3, S4 and S7: `A(B(D), C(D))`.
final class A {
  let b: B
  let c: C
  init(b: B, c: C) {
    self.b = b
    self.c = c
  }
}

/// S5's leaves, ten distinct types.
final class P0 {}
final class P1 {}
final class P2 {}
final class P3 {}
final class P4 {}
final class P5 {}
final class P6 {}
final class P7 {}
final class P8 {}
final class P9 {}

/// S5's root: one object with ten transient dependencies.
final class Fan {
  let p0: P0
  let p1: P1
  let p2: P2
  let p3: P3
  let p4: P4
  let p5: P5
  let p6: P6
  let p7: P7
  let p8: P8
  let p9: P9
  init(p0: P0, p1: P1, p2: P2, p3: P3, p4: P4, p5: P5, p6: P6, p7: P7, p8: P8, p9: P9) {
    self.p0 = p0
    self.p1 = p1
    self.p2 = p2
    self.p3 = p3
    self.p4 = p4
    self.p5 = p5
    self.p6 = p6
    self.p7 = p7
    self.p8 = p8
    self.p9 = p9
  }
}

/// S8's request-scoped objects: one of each per request.
final class RequestContext {}
final class RequestLog {}

/// S8's per-request graph: `RequestHandler(RequestService(Repository(ctx, log), ctx), log)`,
/// five objects, the context and the log shared within the request.
final class Repository {
  let context: RequestContext
  let log: RequestLog
  init(context: RequestContext, log: RequestLog) {
    self.context = context
    self.log = log
  }
}

final class RequestService {
  let repository: Repository
  let context: RequestContext
  init(repository: Repository, context: RequestContext) {
    self.repository = repository
    self.context = context
  }
}

final class RequestHandler {
  let service: RequestService
  let log: RequestLog
  init(service: RequestService, log: RequestLog) {
    self.service = service
    self.log = log
  }
}

/// S12's async singleton, standing for a connection pool: its initializer suspends once, as
/// a connect would, so the tasks that ask for it meanwhile find it being made and wait.
final class Pool: Sendable {
  init() async {
    await Task.yield()
  }
}
