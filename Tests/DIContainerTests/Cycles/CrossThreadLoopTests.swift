import DIContainer
import DITestSupport
import Dispatch
import Testing

final class SCLoopX {
  var y: SCLoopY?
}

final class SCLoopY {
  var x: SCLoopX?
}

final class SCInitX {
  let y: SCInitY
  init(y: SCInitY) { self.y = y }
}

final class SCInitY {
  let x: SCInitX
  init(x: SCInitX) { self.x = x }
}

/// The caching lifetimes a loop between two threads is tried with.
enum SCLoopLifetime: String, CaseIterable, Sendable {
  /// `.perContainer(.single)`.
  case perContainer
  /// `.custom` of a fresh `DIScope` each round.
  case customScope
  /// `.scoped`, in one request scope that both threads resolve from.
  case requestScope
}

/// How X and Y need each other.
enum SCLoopWiring: String, CaseIterable, Sendable {
  /// `.injection(\.y)` / `.injection(\.x)`: buildable, from one thread at least.
  case propertyInjection
  /// `SCInitX(y:)` / `SCInitY(x:)`: never buildable.
  case initializers
}

/// What one thread got in one round.
private enum SCLoopSide {
  case x(SCLoopX)
  case y(SCLoopY)
  case initX(SCInitX)
  case initY(SCInitY)
  case failed(DIError)
}

@Suite struct CrossThreadLoopTests {
  /// Two threads resolve X and Y at the same moment, X needing Y and Y needing X, both
  /// cached: never a deadlock. Through property injections (a graph one thread resolves)
  /// both sides get the one complete pair, a request that met the other's making backing
  /// off; through initializers (a real cycle) each side gets a `.cycle` error.
  @Test(arguments: SCLoopLifetime.allCases, SCLoopWiring.allCases)
  func twoThreadsEnteringALoopOfCachedComponentsNeverDeadlock(
    _ lifetimeKind: SCLoopLifetime, _ wiring: SCLoopWiring
  ) async {
    let rounds = TestEnvironment.rounds(2_000)
    let clock = ContinuousClock()
    let start = clock.now
    let budget = Duration.seconds(4)  // fewer rounds in a slow build; a deadlock waits longer
    let deadline = hangDeadline(in: TestEnvironment.limit(20))
    let runner = SCPairRunner()
    var problems: [String] = []
    var roundsRun = 0

    for round in 0..<rounds where clock.now - start < budget {
      roundsRun += 1
      let container = DIContainer()
      let lifetime: DILifetime
      switch lifetimeKind {
      case .perContainer: lifetime = .perContainer(.single)
      case .customScope: lifetime = .custom(DIScope(name: "SCLoopScope"))
      case .requestScope: lifetime = .scoped
      }
      Self.register(wiring, lifetime: lifetime, in: container)
      let scope = lifetimeKind == .requestScope ? container.makeScope() : nil
      let resolver: any DIResolver = scope ?? container

      let sides = LockedValue<[Int: SCLoopSide]>([:])
      let finished = await runner.run(until: deadline) { worker in
        let side = Self.resolveSide(worker, wiring: wiring, from: resolver)
        sides.withLock { $0[worker] = side }
      }
      guard finished else {
        Issue.record(
          "round \(round): two threads resolving X and Y deadlocked (\(lifetimeKind), \(wiring))")
        return
      }
      let got = sides.current
      problems += Self.check(got[0], got[1], wiring: wiring, round: round)
      // One thread resolves both again (on the runner, so a stuck cache fails the test).
      let afterwards = LockedValue<[String]>([])
      let checked = await runner.run(until: deadline) { worker in
        guard worker == 0 else { return }
        let found = Self.checkAfterwards(
          resolver, wiring: wiring, race: sides.current, round: round)
        afterwards.withLock { $0 = found }
      }
      guard checked else {
        Issue.record("round \(round): resolving X and Y after the race hung (\(lifetimeKind))")
        return
      }
      problems += afterwards.current
      scope?.close()
      if problems.count > 20 { break }
    }
    runner.stop()
    #expect(roundsRun > 0)
    #expect(
      problems.isEmpty,
      "\(problems.count) problems (\(lifetimeKind), \(wiring)); first: \(problems.prefix(5))")
  }

  private static func register(
    _ wiring: SCLoopWiring, lifetime: DILifetime, in container: DIContainer
  ) {
    switch wiring {
    case .propertyInjection:
      // Each factory waits a little for the other, so that both creations are under way
      // when their injections ask for each other.
      let xMade = DispatchSemaphore(value: 0)
      let yMade = DispatchSemaphore(value: 0)
      container.register { () -> SCLoopX in
        xMade.signal()
        _ = yMade.wait(timeout: .now() + .milliseconds(10))
        return SCLoopX()
      }
      .lifetime(lifetime).injection(\.y)
      container.register { () -> SCLoopY in
        yMade.signal()
        _ = xMade.wait(timeout: .now() + .milliseconds(10))
        return SCLoopY()
      }
      .lifetime(lifetime).injection(\.x)
    case .initializers:
      container.register(SCInitX.init).lifetime(lifetime)
      container.register(SCInitY.init).lifetime(lifetime)
    }
  }

  private static func resolveSide(
    _ worker: Int, wiring: SCLoopWiring, from resolver: any DIResolver
  ) -> SCLoopSide {
    do throws(DIError) {
      switch (wiring, worker) {
      case (.propertyInjection, 0): return .x(try resolver.tryResolve())
      case (.propertyInjection, _): return .y(try resolver.tryResolve())
      case (.initializers, 0): return .initX(try resolver.tryResolve())
      case (.initializers, _): return .initY(try resolver.tryResolve())
      }
    } catch {
      return .failed(error)
    }
  }

  /// The two sides of one round.
  private static func check(
    _ first: SCLoopSide?, _ second: SCLoopSide?, wiring: SCLoopWiring, round: Int
  ) -> [String] {
    var problems: [String] = []
    for side in [first, second] {
      switch side {
      case nil:
        problems.append("round \(round): a side recorded nothing")
      case .failed(let error) where wiring == .propertyInjection:
        problems.append("round \(round): a graph that resolves failed: \(scBrief(error))")
      case .failed(let error) where error.code != .cycle:
        problems.append("round \(round): expected .cycle, got \(scBrief(error))")
      case .x(let x):
        if x.y == nil { problems.append("round \(round): X handed out without its y") }
        if let y = x.y, y.x !== x {
          problems.append("round \(round): X's y does not point back at the one X")
        }
      case .y(let y):
        if y.x == nil { problems.append("round \(round): Y handed out without its x") }
        if let x = y.x, x.y !== y {
          problems.append("round \(round): Y's x does not point back at the one Y")
        }
      case .initX, .initY:
        problems.append("round \(round): a loop of initializers cannot be built, yet resolved")
      case .failed:
        break
      }
    }
    if case .x(let x) = first, case .y(let y) = second, x.y !== y || y.x !== x {
      problems.append("round \(round): both sides succeeded with two different X/Y pairs")
    }
    return problems
  }

  /// After the race, one thread resolves both again: the cache holds one consistent pair
  /// (the one handed out, if any), or the loop is still an error for initializers.
  private static func checkAfterwards(
    _ resolver: any DIResolver, wiring: SCLoopWiring, race: [Int: SCLoopSide], round: Int
  ) -> [String] {
    do throws(DIError) {
      switch wiring {
      case .propertyInjection:
        let x: SCLoopX = try resolver.tryResolve()
        let y: SCLoopY = try resolver.tryResolve()
        var problems: [String] = []
        if x.y !== y || y.x !== x {
          problems.append("round \(round): afterwards X and Y do not hold each other")
        }
        if case .x(let raced) = race[0], raced !== x {
          problems.append("round \(round): the X handed out in the race is not the cached one")
        }
        if case .y(let raced) = race[1], raced !== y {
          problems.append("round \(round): the Y handed out in the race is not the cached one")
        }
        return problems
      case .initializers:
        let _: SCInitX = try resolver.tryResolve()
        return ["round \(round): a loop of initializers resolved afterwards"]
      }
    } catch {
      if wiring == .initializers, error.code == .cycle { return [] }
      return ["round \(round): resolving afterwards, on one thread, failed: \(scBrief(error))"]
    }
  }
}
