import DIContainer
import DITestSupport
import Testing

protocol SCService: AnyObject {}

final class SCCandidate: SCService {
  let number: Int
  init(_ number: Int) { self.number = number }
}

final class SCServiceUser {
  let service: SCService?
  init(service: SCService?) { self.service = service }
}

/// Registered without an initializer.
final class SCNoInit {}

final class SCNoInitUser {
  let dependency: SCNoInit?
  init(dependency: SCNoInit?) { self.dependency = dependency }
}

/// Needs a runtime argument.
final class SCNamed {
  let name: String
  init(name: String) { self.name = name }
}

final class SCNamedUser {
  let named: SCNamed?
  init(named: SCNamed?) { self.named = named }
}

/// Never registered.
final class SCMissing {}

/// Needs an unregistered `SCMissing`.
final class SCBroken {
  let missing: SCMissing
  init(missing: SCMissing) { self.missing = missing }
}

final class SCBrokenUser {
  let broken: SCBroken?
  init(broken: SCBroken?) { self.broken = broken }
}

/// Needs a component that was registered without an initializer.
final class SCNeedsNoInit {
  let dependency: SCNoInit
  init(dependency: SCNoInit) { self.dependency = dependency }
}

@Suite struct OptionalRequestTests {
  @Test func optionalRequestAmongAThousandCandidatesIsNilAndCheap() async throws {
    let container = DIContainer()
    for number in 0..<1_000 {
      container.register { SCCandidate(number) }.as(SCService.self)
    }
    let calls = 10_000
    let limit = TestEnvironment.limit(5)
    let stop = Flag()
    let nonNil = Counter()
    let errors = Counter()
    let elapsed = LockedValue<Duration?>(nil)
    let finished = await runOnThread(timeout: limit) {
      let clock = ContinuousClock()
      let start = clock.now
      for _ in 0..<calls {
        if stop.isRaised { return }
        // `tryResolve` rather than the trapping `resolve()`: the same optional request,
        // and a regression fails this test instead of stopping the whole run.
        do throws(DIError) {
          let service: SCService? = try container.tryResolve()
          if service != nil { nonNil.next() }
        } catch {
          errors.next()
        }
      }
      let time = clock.now - start
      elapsed.withLock { $0 = time }
    }
    if !finished { stop.raise() }
    try #require(finished, "10,000 optional requests among 1,000 candidates took over \(limit) s")
    #expect(nonNil.value == 0, "an ambiguous optional request was not nil")
    #expect(errors.value == 0, "an ambiguous optional request threw")
    let time = try #require(elapsed.current)
    #expect(time < .seconds(limit))
  }

  @Test func optionalParameterAmongSeveralCandidatesIsNil() async throws {
    let container = DIContainer()
    for number in 0..<3 {
      container.register { SCCandidate(number) }.as(SCService.self)
    }
    container.register(SCServiceUser.init)
    let user = try #require(await scInstance(SCServiceUser.self, from: container))
    #expect(user.service == nil)
  }

  @Test func optionalRequestOfAComponentWithoutInitializerIsNil() async throws {
    let container = DIContainer()
    container.register(SCNoInit.self)
    let direct = try #require(await scInstance(SCNoInit?.self, from: container))
    #expect(direct == nil)
    container.register(SCNoInitUser.init)
    let user = try #require(await scInstance(SCNoInitUser.self, from: container))
    #expect(user.dependency == nil)
  }

  @Test func optionalRequestOfAComponentNeedingAMissingArgumentIsNil() async throws {
    let container = DIContainer()
    container.register { SCNamed(name: arg($0)) }
    let direct = try #require(await scInstance(SCNamed?.self, from: container))
    #expect(direct == nil)
    container.register(SCNamedUser.init)
    let user = try #require(await scInstance(SCNamedUser.self, from: container))
    #expect(user.named == nil)
    // With the argument it is made.
    let named: SCNamed? = try container.tryResolve(arguments: ["Mimi"])
    #expect(named?.name == "Mimi")
  }

  @Test func optionalRequestOfAnUnregisteredTypeIsNil() async throws {
    let container = DIContainer()
    let missing = try #require(await scInstance(SCMissing?.self, from: container))
    #expect(missing == nil)
  }

  @Test func failureInsideTheChosenComponentsGraphIsStillAnError() async {
    let container = DIContainer()
    container.register(SCBroken.init)
    // SCBroken needs the unregistered SCMissing: an error, not a silent nil.
    guard let error = await scFailure(SCBroken?.self, from: container) else { return }
    #expect(error.code == .notRegistered, "expected .notRegistered, got: \(scBrief(error))")
    #expect(scUnqualified(error.description).contains("SCMissing"))
  }

  @Test func failureInsideAnOptionalParametersGraphIsStillAnError() async {
    let container = DIContainer()
    container.register(SCBroken.init)
    container.register(SCBrokenUser.init)
    // SCBrokenUser's SCBroken? is chosen and fails inside: an error, not a silent nil.
    guard let error = await scFailure(SCBrokenUser.self, from: container) else { return }
    #expect(error.code == .notRegistered, "expected .notRegistered, got: \(scBrief(error))")
  }

  @Test func missingInitializerDeeperInTheGraphIsStillAnError() async {
    let container = DIContainer()
    container.register(SCNoInit.self)
    container.register(SCNeedsNoInit.init)
    guard let error = await scFailure(SCNeedsNoInit?.self, from: container) else { return }
    #expect(error.code == .noInitializer, "expected .noInitializer, got: \(scBrief(error))")
  }
}
