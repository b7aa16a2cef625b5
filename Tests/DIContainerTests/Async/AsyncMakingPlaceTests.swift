import DIContainer
import DITestSupport
import Synchronization
import Testing

// One making at a time of an async cached instance belongs to the place that keeps the
// instance: a process-wide cell shared by two containers, a cell that outlives an edit of
// its registration, each request scope on its own. And an instance nothing keeps still
// gets its hook.

/// An instance that records which factory call made it.
private final class PMMade: Sendable {
  let serial: Int
  init(serial: Int) { self.serial = serial }
}

/// The lifetimes that keep an instance, resolved the way each one needs.
enum PMLifetime: CaseIterable, Sendable, CustomTestStringConvertible {
  case perContainer, perContainerWeak, perFramework, single, multiton, custom, scoped

  var testDescription: String { "\(lifetime)" }

  var lifetime: DILifetime {
    switch self {
    case .perContainer: .perContainer(.single)
    case .perContainerWeak: .perContainer(.weak)
    case .perFramework: .perFramework(.single)
    case .single: .single
    case .multiton: .multiton
    case .custom: .custom(DIScope(name: "PMScope"))
    case .scoped: .scoped
    }
  }

  fileprivate func resolve(_ container: DIContainer, in scope: DIRequestScope) async throws
    -> PMMade
  {
    switch self {
    case .scoped: try await scope.resolveAsync()
    case .multiton: try await container.resolveAsync(arg: 7)
    default: try await container.resolveAsync()
    }
  }
}

@Suite struct AsyncMakingPlaceTests {
  @Test(
    "A process-wide single registered by one function in two containers is made once",
    .timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func singleSharedByTwoContainers() async throws {
    let calls = Counter()
    func register(in container: DIContainer) {
      container.register { () async -> PMMade in
        let serial = calls.next()
        try? await Task.sleep(for: .milliseconds(50))
        return PMMade(serial: serial)
      }.lifetime(.single)
    }
    let first = DIContainer()
    let second = DIContainer()
    register(in: first)
    register(in: second)
    async let fromFirst: PMMade = first.resolveAsync()
    async let fromSecond: PMMade = second.resolveAsync()
    let (one, other) = try await (fromFirst, fromSecond)
    #expect(one === other)
    #expect(calls.value == 1)
  }

  @Test(
    "A request after an edit of the registration waits for the making under way",
    .timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func editDuringMaking() async throws {
    let container = DIContainer()
    let gate = Gate()
    let calls = Counter()
    let builder = container.register { () async throws -> PMMade in
      let serial = calls.next()
      try await gate.cancellablePass()
      return PMMade(serial: serial)
    }.lifetime(.perContainer(.single))
    let maker = Task { () async throws -> PMMade in try await container.resolveAsync() }
    try await gate.awaitArrivals()
    builder.onClean { _ in }  // compiles the registration again, over the same cell
    let other = Task { () async throws -> PMMade in try await container.resolveAsync() }
    try await Task.sleep(for: .milliseconds(50))
    gate.open()
    let (one, two) = try await (maker.value, other.value)
    #expect(one === two)
    #expect(calls.value == 1)
  }

  @Test(
    "Request scopes make their async instances at once, without waiting for each other",
    .timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func eachScopeMakesItsOwnInstance() async throws {
    let container = DIContainer()
    let gate = Gate()
    let calls = Counter()
    container.register { () async throws -> PMMade in
      let serial = calls.next()
      try await gate.cancellablePass()
      return PMMade(serial: serial)
    }.lifetime(.scoped)
    let scopes = (0..<64).map { _ in container.makeScope() }
    let makings = scopes.map { scope in
      Task { () async throws -> PMMade in try await scope.resolveAsync() }
    }
    // Every scope's factory reaches the gate while it is closed: all 64 makings are in
    // progress at once, none waits for another scope's.
    try await gate.awaitArrivals(scopes.count)
    #expect(gate.count == scopes.count)
    #expect(calls.value == scopes.count)
    gate.open()
    var made: [PMMade] = []
    for making in makings { made.append(try await making.value) }
    // Each scope got an instance of its own, and keeps it.
    #expect(Set(made.map(ObjectIdentifier.init)).count == scopes.count)
    #expect(Set(made.map(\.serial)).count == scopes.count)
    for (scope, instance) in zip(scopes, made) {
      #expect(try await scope.resolveAsync() as PMMade === instance)
    }
    #expect(calls.value == scopes.count)
    for scope in scopes { scope.close() }
  }

  @Test(
    "A scope closing while another scope makes the same component fails only its own request",
    .timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func closingOneScopeSparesAnother() async throws {
    let container = DIContainer()
    let gate = Gate()
    let calls = Counter()
    container.register { () async throws -> PMMade in
      let serial = calls.next()
      if serial == 1 { try await gate.cancellablePass() }
      return PMMade(serial: serial)
    }.lifetime(.scoped)
    let first = container.makeScope()
    let second = container.makeScope()
    let maker = Task { () async throws -> PMMade in try await first.resolveAsync() }
    try await gate.awaitArrivals()
    let other = try await second.resolveAsync() as PMMade
    #expect(other.serial == 2)
    first.close()
    gate.open()
    await #expect(throws: DIError.self) { try await maker.value }
    second.close()
  }

  @Test(
    "An async scoped instance made while its scope closes is dropped with its hook run",
    .timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func instanceMadeAsScopeClosesRunsItsHook() async throws {
    let container = DIContainer()
    let gate = Gate()
    let made = Counter()
    let cleaned = Counter()
    container.register { () async throws -> PMMade in
      try await gate.cancellablePass()
      return PMMade(serial: made.next())
    }.lifetime(.scoped).onClean { _ in cleaned.next() }
    let scope = container.makeScope()
    let maker = Task { () async throws -> PMMade in try await scope.resolveAsync() }
    try await gate.awaitArrivals()
    scope.close()
    gate.open()
    let error = await #expect(throws: DIError.self) { try await maker.value }
    #expect(error?.code == .scopeClosed)
    #expect(
      error?.description.hasPrefix("Cannot resolve PMMade") == true, "\(String(describing: error))")
    #expect(made.value == 1)
    #expect(cleaned.value == 1)
  }

  @Test(
    "An async instance that its lifetime did not keep, because a clean let another be kept, runs its hook",
    .timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func instanceOutrunByAnotherAfterCleanRunsItsHook() async throws {
    let container = DIContainer()
    let gate = Gate()
    let calls = Counter()
    let cleaned = Counter()
    // An async factory takes no runtime argument (`Int?` gets nil); the multiton's cell
    // is still chosen by the request's.
    container.register { (_: DIArg<Int?>) async throws -> PMMade in
      let serial = calls.next()
      if serial == 1 { try await gate.cancellablePass() }
      return PMMade(serial: serial)
    }.lifetime(.multiton).onClean { _ in cleaned.next() }
    let maker = Task { () async throws -> PMMade in try await container.resolveAsync(arg: 1) }
    try await gate.awaitArrivals()
    container.clean()
    // The clean left a new cell: its making does not wait for the old one.
    let fresh: PMMade = try await container.resolveAsync(arg: 1)
    #expect(fresh.serial == 2)
    gate.open()
    // The first request gets what the lifetime keeps; the instance it made is dropped.
    #expect(try await maker.value === fresh)
    #expect(calls.value == 2)
    #expect(cleaned.value == 1)
  }

  @Test(
    "Staggered tasks asking for an async cached component get one instance from one call",
    .timeLimit(.minutes(TestEnvironment.hangMinutes)), arguments: PMLifetime.allCases)
  func staggeredTasksShareOneMaking(kind: PMLifetime) async throws {
    for round in 0..<300 {
      let container = DIContainer()
      let calls = Counter()
      container.register { (_: DIArg<Int?>) async -> PMMade in
        let serial = calls.next()
        for _ in 0..<(round % 4) { await Task.yield() }
        return PMMade(serial: serial)
      }.lifetime(kind.lifetime)
      let scope = container.makeScope()
      let instances = try await withThrowingTaskGroup(of: PMMade.self) { group in
        for index in 0..<6 {
          group.addTask {
            // Some come while the making runs, some as it ends.
            for _ in 0..<((index + round) % 5) { await Task.yield() }
            return try await kind.resolve(container, in: scope)
          }
        }
        // Held until all are done, so a `.weak` instance stays alive.
        return try await group.reduce(into: [PMMade]()) { $0.append($1) }
      }
      try #require(Set(instances.map(ObjectIdentifier.init)).count == 1, "round \(round)")
      try #require(calls.value == 1, "round \(round): \(calls.value) calls")
      scope.close()
      if kind == .single { break }  // process-wide: one registration site, made once
    }
  }
}
