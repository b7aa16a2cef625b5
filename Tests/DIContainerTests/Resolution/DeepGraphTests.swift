import DIContainer
import DITestSupport
import Testing

/// One level of a deep chain: level n needs level n + 1; the last level needs nothing.
protocol SCDeepLink: AnyObject {
  var level: Int { get }
  /// Unlinks and returns the next level, so a long chain is released without recursion.
  func detachNext() -> (any SCDeepLink)?
}

/// Level `100 * H + 10 * T + O` of the chain: a thousand distinct types from one class.
final class SCLevel<H: SCDigit, T: SCDigit, O: SCDigit>: SCDeepLink {
  private var next: (any SCDeepLink)?

  init(next: (any SCDeepLink)?) { self.next = next }

  var level: Int { H.value * 100 + T.value * 10 + O.value }

  func detachNext() -> (any SCDeepLink)? {
    defer { next = nil }
    return next
  }
}

/// The first level: resolving it builds the whole chain.
typealias SCDeepRoot = SCLevel<SCDigit0, SCDigit0, SCDigit0>

/// What a resolution of the chain gave, carried out of its thread.
enum SCDeepOutcome: Sendable {
  /// The levels reached from the root, in order.
  case built(levels: [Int])
  case failed(DIError)
}

/// A chain `SCLevel 0 → SCLevel 1 → … → SCLevel (depth - 1)` of constructor dependencies.
enum SCDeepChain {
  /// Registers levels `0..<depth` (at most 1,000), each needing the next by its
  /// initializer.
  static func register(
    depth: Int = 1_000, in container: DIContainer, lifetime: DILifetime = .prototype
  ) {
    precondition(depth >= 1 && depth <= 1_000)
    for level in 0..<depth {
      let next = level + 1 < depth ? level + 1 : nil
      if let next {
        registerLink(
          scDigit(level / 100), scDigit(level / 10 % 10), scDigit(level % 10),
          scDigit(next / 100), scDigit(next / 10 % 10), scDigit(next % 10),
          in: container, lifetime: lifetime)
      } else {
        registerLast(
          scDigit(level / 100), scDigit(level / 10 % 10), scDigit(level % 10),
          in: container, lifetime: lifetime)
      }
    }
  }

  private static func registerLink<
    H: SCDigit, T: SCDigit, O: SCDigit, NH: SCDigit, NT: SCDigit, NO: SCDigit
  >(
    _: H.Type, _: T.Type, _: O.Type, _: NH.Type, _: NT.Type, _: NO.Type,
    in container: DIContainer, lifetime: DILifetime
  ) {
    container.register { (next: SCLevel<NH, NT, NO>) in SCLevel<H, T, O>(next: next) }
      .lifetime(lifetime)
  }

  private static func registerLast<H: SCDigit, T: SCDigit, O: SCDigit>(
    _: H.Type, _: T.Type, _: O.Type, in container: DIContainer, lifetime: DILifetime
  ) {
    container.register { SCLevel<H, T, O>(next: nil) }.lifetime(lifetime)
  }

  /// Resolves the root and walks the chain, unlinking it as it goes.
  static func resolve(from container: DIContainer) -> SCDeepOutcome {
    do throws(DIError) {
      let root: SCDeepRoot = try container.tryResolve()
      var levels: [Int] = []
      var node: (any SCDeepLink)? = root
      while let current = node {
        levels.append(current.level)
        node = current.detachNext()
      }
      return .built(levels: levels)
    } catch {
      return .failed(error)
    }
  }

  /// The name of level `level` as an unqualified error text shows it.
  static func name(of level: Int) -> String {
    "SCLevel<SCDigit\(level / 100), SCDigit\(level / 10 % 10), SCDigit\(level % 10)>"
  }
}

// The library holds no lock while a component is built, so deep graphs run under
// ThreadSanitizer too (its deadlock detector fails past 64 locks held at once).
@Suite struct DeepGraphTests {
  @Test(arguments: [DILifetime.prototype, .objectGraph, .perContainer(.single)])
  func thousandDeepAcyclicChainResolvesOnAnEightMiBStack(_ lifetime: DILifetime) async throws {
    let container = DIContainer()
    SCDeepChain.register(in: container, lifetime: lifetime)
    let outcome = LockedValue<SCDeepOutcome?>(nil)
    let finished = await runOnThread(stackSize: 8 << 20, timeout: TestEnvironment.limit(15)) {
      let result = SCDeepChain.resolve(from: container)
      outcome.withLock { $0 = result }
    }
    try #require(finished, "resolving a 1,000-deep chain did not finish")
    switch try #require(outcome.current) {
    case .built(let levels):
      #expect(levels == Array(0..<1_000), "the chain is incomplete or out of order")
    case .failed(let error) where TestEnvironment.isThreadSanitized && error.code == .tooDeep:
      // Sanitizer builds use far bigger frames; only plain debug builds must fit.
      break
    case .failed(let error):
      Issue.record("a 1,000-deep acyclic chain failed (\(lifetime)): \(scBrief(error))")
    }
  }

  @Test func deepScopedChainIsMadeOnceInAScopeAndDroppedWithIt() async throws {
    // Hundreds of makings open at once in one scope (a `.scoped` level takes more stack
    // than a prototype one), each made once, all dropped on close.
    let depth = 400
    let container = DIContainer()
    SCDeepChain.register(depth: depth, in: container, lifetime: .scoped)
    let outcome = LockedValue<(sameRoot: Bool, levels: Int, deepestFreed: Bool)?>(nil)
    let finished = await runOnThread(stackSize: 8 << 20, timeout: TestEnvironment.limit(15)) {
      let scope = container.makeScope()
      do throws(DIError) {
        let first: SCDeepRoot = try scope.tryResolve()
        let second: SCDeepRoot = try scope.tryResolve()
        scope.close()
        // Walked unlinking, so the chain is released without recursion.
        weak var deepest: (any SCDeepLink)?
        var levels = 0
        var node: (any SCDeepLink)? = first
        while let current = node {
          levels += 1
          deepest = current
          node = current.detachNext()
        }
        let result = (first === second, levels, deepest == nil)
        outcome.withLock { $0 = result }
      } catch  where TestEnvironment.isThreadSanitized && error.code == .tooDeep {
        // Sanitizer builds use far bigger frames; only plain debug builds must fit.
      } catch {
        Issue.record("a \(depth)-deep .scoped chain failed: \(scBrief(error))")
      }
    }
    try #require(finished, "resolving a deep .scoped chain did not finish")
    guard let result = outcome.current else { return }
    #expect(result.sameRoot, "a .scoped instance was made twice in one scope")
    #expect(result.levels == depth)
    #expect(result.deepestFreed, "the closed scope still holds its instances")
  }

  @Test func chainOfSixtyFiveIsNotMistakenForACycle() async throws {
    // More than the 64 levels an approximate depth limit would allow.
    let container = DIContainer()
    SCDeepChain.register(depth: 65, in: container)
    let outcome = LockedValue<SCDeepOutcome?>(nil)
    let finished = await runOnThread(timeout: TestEnvironment.limit(10)) {
      let result = SCDeepChain.resolve(from: container)
      outcome.withLock { $0 = result }
    }
    try #require(finished)
    switch try #require(outcome.current) {
    case .built(let levels): #expect(levels == Array(0..<65))
    case .failed(let error): Issue.record("a 65-deep acyclic chain failed: \(scBrief(error))")
    }
  }

  @Test func thousandDeepChainOnA512KiBStackResolvesOrFailsAsTooDeep() async {
    // In a child process: a stack overflow must not take the whole test run down.
    await #expect(processExitsWith: .success) {
      scArmWatchdog()
      await DeepGraphTests.resolveChainOnSmallStack(bytes: 512 * 1024)
    }
  }

  @Test func thousandDeepChainOnA256KiBStackResolvesOrFailsAsTooDeep() async {
    await #expect(processExitsWith: .success) {
      scArmWatchdog()
      await DeepGraphTests.resolveChainOnSmallStack(bytes: 256 * 1024)
    }
  }

  /// Runs in an exit test's child process: resolves the 1,000-deep chain on a thread with
  /// a `bytes` stack; the object or a `.tooDeep` error naming the path are both right.
  static func resolveChainOnSmallStack(bytes: Int) async {
    let container = DIContainer()
    SCDeepChain.register(in: container)
    let outcome = LockedValue<SCDeepOutcome?>(nil)
    let finished = await runOnThread(stackSize: bytes, timeout: TestEnvironment.limit(20)) {
      let result = SCDeepChain.resolve(from: container)
      outcome.withLock { $0 = result }
    }
    guard finished, let result = outcome.current else {
      Issue.record("resolving on a \(bytes / 1024) KiB stack did not finish")
      return
    }
    switch result {
    case .built(let levels):
      #expect(levels == Array(0..<1_000), "the chain built on a small stack is incomplete")
    case .failed(let error):
      #expect(
        error.code == .tooDeep,
        "on a \(bytes / 1024) KiB stack: expected the chain or .tooDeep, got: \(scBrief(error))")
      #expect(error.code != .cycle, "an acyclic chain was reported as a cycle: \(scBrief(error))")
      let text = scUnqualified(error.description)
      #expect(
        text.contains(SCDeepChain.name(of: 0)) && text.contains(SCDeepChain.name(of: 1)),
        "the .tooDeep error does not show the path: \(scBrief(error))")
    }
  }

  @Test func deepChainThatValidationAcceptsResolves() async throws {
    let container = DIContainer()
    SCDeepChain.register(in: container, lifetime: .objectGraph)
    let validation = LockedValue<String?>(nil)
    let outcome = LockedValue<SCDeepOutcome?>(nil)
    let finished = await runOnThread(stackSize: 8 << 20, timeout: TestEnvironment.limit(15)) {
      do throws(DIGraphValidationError) {
        try container.makeGraph().validate()
      } catch {
        validation.withLock { $0 = error.description }
      }
      let result = SCDeepChain.resolve(from: container)
      outcome.withLock { $0 = result }
    }
    try #require(finished, "validating and resolving a 1,000-deep chain did not finish")
    #expect(validation.current == nil, "validation rejected an acyclic chain")
    switch try #require(outcome.current) {
    case .built(let levels):
      #expect(levels.count == 1_000)
    case .failed(let error) where TestEnvironment.isThreadSanitized && error.code == .tooDeep:
      break
    case .failed(let error):
      Issue.record("validate() accepted the chain, yet resolving it failed: \(scBrief(error))")
    }
  }
}
