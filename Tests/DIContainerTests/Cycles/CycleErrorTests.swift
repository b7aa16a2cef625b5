import DIContainer
import DITestSupport
import Foundation
import Testing

final class SCPing {
  let pong: SCPong
  init(pong: SCPong) { self.pong = pong }
}

final class SCPong {
  let ping: SCPing
  init(ping: SCPing) { self.ping = ping }
}

final class SCPropA {
  var b: SCPropB?
}

final class SCPropB {
  var a: SCPropA?
}

/// Member `10 * T + O` of a ring of constructor dependencies (each needs the next).
final class SCRing<T: SCDigit, O: SCDigit> {
  let next: AnyObject
  init(next: AnyObject) { self.next = next }
}

/// A component whose factory asks the container for its own type.
final class SCSelfish {
  let inner: SCSelfish?
  init(inner: SCSelfish?) { self.inner = inner }
}

enum SCRingGraph {
  /// Registers `size` (at most 100) `.prototype` ring members: member k needs member
  /// k + 1, the last needs member 0.
  static func register(size: Int, in container: DIContainer) {
    for member in 0..<size {
      let next = (member + 1) % size
      register(
        scDigit(member / 10), scDigit(member % 10), scDigit(next / 10), scDigit(next % 10),
        in: container)
    }
  }

  private static func register<T: SCDigit, O: SCDigit, NT: SCDigit, NO: SCDigit>(
    _: T.Type, _: O.Type, _: NT.Type, _: NO.Type, in container: DIContainer
  ) {
    container.register { (next: SCRing<NT, NO>) in SCRing<T, O>(next: next) }
  }

  /// The name of member `member` as an unqualified error text shows it.
  static func name(of member: Int) -> String {
    "SCRing<SCDigit\(member / 10), SCDigit\(member % 10)>"
  }
}

@Suite struct CycleErrorTests {
  /// A description that names a loop once shows each member a few times (what was asked,
  /// the loop, the path, the registrations), never dozens.
  static let maximumMentions = 12

  @Test func twoClassConstructorCycleIsACycleErrorNamingEachMemberOnce() async {
    let container = DIContainer()
    container.register(SCPing.init)
    container.register(SCPong.init)
    guard let error = await scFailure(SCPing.self, from: container) else { return }
    #expect(error.code == .cycle, "expected .cycle, got: \(scBrief(error))")
    let text = scUnqualified(error.description)
    for name in ["SCPing", "SCPong"] {
      let mentions = scOccurrences(of: name, in: text)
      #expect(
        (1...Self.maximumMentions).contains(mentions),
        "\(name) is mentioned \(mentions) times:\n\(scBrief(error))")
    }
    let lines = text.split(separator: "\n").count
    #expect(lines <= 12, "a 2-class cycle takes \(lines) lines:\n\(scBrief(error))")
  }

  @Test func twoClassCycleEnteredFromEitherEndIsACycle() async {
    let container = DIContainer()
    container.register(SCPing.init)
    container.register(SCPong.init)
    guard let error = await scFailure(SCPong.self, from: container) else { return }
    #expect(error.code == .cycle, "expected .cycle, got: \(scBrief(error))")
  }

  @Test func fiftyClassPrototypeRingIsACycleErrorNamingEachMemberOnce() async {
    let container = DIContainer()
    SCRingGraph.register(size: 50, in: container)
    guard let error = await scFailure(SCRing<SCDigit0, SCDigit0>.self, from: container) else {
      return
    }
    #expect(error.code == .cycle, "a 50-member ring must be a cycle, not \(error.code)")
    let text = scUnqualified(error.description)
    var overMentioned: [String] = []
    var missing: [String] = []
    for member in 0..<50 {
      let name = SCRingGraph.name(of: member)
      let mentions = scOccurrences(of: name, in: text)
      if mentions == 0 { missing.append(name) }
      if mentions > Self.maximumMentions { overMentioned.append("\(name) ×\(mentions)") }
    }
    #expect(missing.isEmpty, "the loop leaves out \(missing):\n\(text.prefix(3_000))")
    #expect(overMentioned.isEmpty, "named too often: \(overMentioned.prefix(5))")
    let lines = text.split(separator: "\n").count
    #expect(lines <= 50 + 12, "a 50-member cycle takes \(lines) lines")
  }

  @Test func ringEnteredInTheMiddleIsStillACycle() async {
    let container = DIContainer()
    SCRingGraph.register(size: 50, in: container)
    guard let error = await scFailure(SCRing<SCDigit2, SCDigit7>.self, from: container) else {
      return
    }
    #expect(error.code == .cycle, "expected .cycle, got: \(scBrief(error))")
  }

  @Test func prototypePropertyInjectionLoopIsACycle() async {
    let container = DIContainer()
    container.register(SCPropA.init).injection(\.b)
    container.register(SCPropB.init).injection(\.a)
    // Prototypes that inject each other can never be complete.
    guard let error = await scFailure(SCPropA.self, from: container) else { return }
    #expect(error.code == .cycle, "expected .cycle, got: \(scBrief(error))")
  }

  @Test func validationRejectsTheCyclesResolutionRejects() async {
    let container = DIContainer()
    container.register(SCPing.init)
    container.register(SCPong.init)
    SCRingGraph.register(size: 50, in: container)
    #expect(throws: DIGraphValidationError.self) {
      try container.makeGraph().validate()
    }
  }

  @Test func factoryAskingForItsOwnTypeGetsACycleErrorNotAStackOverflow() async {
    await #expect(processExitsWith: .success) {
      scArmWatchdog()
      await CycleErrorTests.resolveSelfAskingFactory()
    }
  }

  /// Runs in an exit test's child: a `.prototype` factory that asks the container
  /// (captured weakly) for its own type. The nested request is a cycle.
  static func resolveSelfAskingFactory() async {
    let container = DIContainer()
    let innerErrors = LockedValue<[DIError]>([])
    let calls = Counter()
    container.register { [weak container] () -> SCSelfish in
      calls.next()
      guard let container else { return SCSelfish(inner: nil) }
      do throws(DIError) {
        let inner: SCSelfish = try container.tryResolve()
        return SCSelfish(inner: inner)
      } catch {
        innerErrors.withLock { $0.append(error) }
        return SCSelfish(inner: nil)
      }
    }
    let outer = LockedValue<Result<SCSelfish, DIError>?>(nil)
    let finished = await runOnThread(timeout: TestEnvironment.limit(10)) {
      let result = Result { () throws(DIError) -> SCSelfish in try container.tryResolve() }
      outer.withLock { $0 = result }
    }
    guard finished, let result = outer.current else {
      Issue.record("a factory asking for its own type did not finish")
      return
    }
    let inner = innerErrors.current
    #expect(
      calls.value <= 2,
      "the factory ran \(calls.value) times: the nested request was not seen as a cycle")
    switch result {
    case .success(let selfish):
      #expect(selfish.inner == nil, "the nested request for the same type succeeded")
      #expect(
        inner.first?.code == .cycle,
        "the nested tryResolve should fail with .cycle, got \(inner.map(\.code))")
    case .failure(let error):
      #expect(error.code == .cycle, "expected .cycle, got: \(scBrief(error))")
    }
  }

  @Test func factoryTrappingOnItsOwnTypeStopsWithACycleMessageNotAStackOverflow() async {
    // The trapping `resolve()` inside the factory has no error to throw: it must stop
    // with the cycle text, not recurse until the stack is gone.
    let result = await #expect(
      processExitsWith: .failure, observing: [\.standardErrorContent]
    ) {
      scArmWatchdog()
      await CycleErrorTests.resolveSelfTrappingFactory()
    }
    guard let result else { return }
    #expect(result.exitStatus != .exitCode(SCExit.hung), "the self-asking factory hung")
    #expect(result.exitStatus != .signal(SIGALRM), "the self-asking factory hung")
    #expect(result.exitStatus != .exitCode(SCExit.returned), "the nested resolve() returned")
    let text = String(decoding: result.standardErrorContent, as: UTF8.self)
    #expect(
      text.lowercased().contains("cycle"),
      "the process stopped without naming the cycle (stack overflow?): \(result.exitStatus)")
  }

  /// Runs in an exit test's child: the factory uses the trapping `resolve()`.
  static func resolveSelfTrappingFactory() async {
    let container = DIContainer()
    container.register { [weak container] () -> SCSelfish in
      let inner: SCSelfish? = container.map { container in container.resolve() }
      return SCSelfish(inner: inner)
    }
    let finished = await runOnThread(timeout: TestEnvironment.limit(10)) {
      let _: SCSelfish? = try? container.tryResolve()
    }
    exit(finished ? SCExit.returned : SCExit.hung)
  }
}
