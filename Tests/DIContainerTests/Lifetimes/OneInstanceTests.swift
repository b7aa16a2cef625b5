import DIContainer
import DITestSupport
import Foundation
import Testing

protocol SCSlowService: AnyObject {}

/// Made by a factory that takes its time, so that concurrent first requests overlap.
final class SCSlow: SCSlowService {}

/// What 32 threads saw when they asked for one cached component at once.
struct SCContention {
  var finished = false
  var made = 0
  var distinct = 0
  var errors: [DIError] = []
}

enum SCContend {
  static let threads = 32

  /// Registers a slow `SCSlow` (also `as` `SCSlowService`) with `lifetime`, then has 32
  /// threads ask for it at once, half as the class and half as the service. With `argument`
  /// the factory takes an `arg` and every request passes it; with `scoped` all requests go
  /// through one request scope.
  /// The registration takes the caller's `line`, so that every test has a registration
  /// of its own (process-wide caches are per registration).
  static func run(
    lifetime: DILifetime, argument: Int? = nil, scoped: Bool = false, line: UInt = #line
  ) async -> SCContention {
    let container = DIContainer()
    let made = Counter()
    if argument != nil {
      container.register(line: line) { (key: DIArg<Int>) -> SCSlow in
        _ = arg(key)
        made.next()
        Thread.sleep(forTimeInterval: 0.03)
        return SCSlow()
      }
      .as(SCSlowService.self).lifetime(lifetime)
    } else {
      container.register(line: line) { () -> SCSlow in
        made.next()
        Thread.sleep(forTimeInterval: 0.03)
        return SCSlow()
      }
      .as(SCSlowService.self).lifetime(lifetime)
    }
    let scope = scoped ? container.makeScope() : nil
    let resolver: any DIResolver = scope ?? container
    let arguments: [Int] = argument.map { [$0] } ?? []
    // Objects are kept until the end, so weak lifetimes must reuse them too.
    let seen = LockedValue<[AnyObject]>([])
    let errors = LockedValue<[DIError]>([])
    let finished = await runThreads(threads, timeout: TestEnvironment.limit(20)) { index in
      do throws(DIError) {
        let object: AnyObject
        if index.isMultiple(of: 2) {
          let slow: SCSlow = try resolver.tryResolve(arguments: arguments)
          object = slow
        } else {
          let service: any SCSlowService = try resolver.tryResolve(arguments: arguments)
          object = service
        }
        seen.withLock { $0.append(object) }
      } catch {
        errors.withLock { $0.append(error) }
      }
    }
    var result = SCContention(finished: finished, made: made.value)
    result.distinct = Set(seen.current.map(ObjectIdentifier.init)).count
    result.errors = errors.current
    scope?.close()
    return result
  }

  static func expectOneInstance(_ result: SCContention, _ what: String) {
    #expect(result.finished, "32 threads resolving \(what) did not finish: deadlock?")
    #expect(result.errors.isEmpty, "\(what): \(result.errors.first.map { "\($0)" } ?? "")")
    #expect(result.made == 1, "\(what): the factory ran \(result.made) times")
    #expect(result.distinct == 1, "\(what): \(result.distinct) distinct instances handed out")
  }
}

/// The caching lifetimes a container (or one request scope) owns.
enum SCContainerCaching: String, CaseIterable, Sendable {
  case perContainerSingle
  case perContainerWeak
  case multitonSameArgument
  case customScopeSingle
  case customScopeWeak
  case customScopeByName
  case requestScope
}

@Suite struct OneInstanceTests {
  @Test(arguments: SCContainerCaching.allCases)
  func concurrentFirstRequestsOfACachedComponentMakeOneInstance(_ caching: SCContainerCaching) async
  {
    let result: SCContention
    switch caching {
    case .perContainerSingle:
      result = await SCContend.run(lifetime: .perContainer(.single))
    case .perContainerWeak:
      result = await SCContend.run(lifetime: .perContainer(.weak))
    case .multitonSameArgument:
      result = await SCContend.run(lifetime: .multiton, argument: 7)
    case .customScopeSingle:
      result = await SCContend.run(lifetime: .custom(DIScope(name: "SCSlowSingle")))
    case .customScopeWeak:
      result = await SCContend.run(
        lifetime: .custom(DIScope(name: "SCSlowWeak", storage: DICacheStorage(), policy: .weak)))
    case .customScopeByName:
      result = await SCContend.run(lifetime: .custom(name: "SCSlowByName"))
    case .requestScope:
      result = await SCContend.run(lifetime: .scoped, scoped: true)
    }
    SCContend.expectOneInstance(result, caching.rawValue)
  }
}

/// `.perApplication` and `.single` instances live in process-wide caches.
@Suite(.serialized) struct ProcessWideOneInstanceTests {
  @Test func concurrentFirstRequestsOfAPerApplicationSingleMakeOneInstance() async {
    SCContend.expectOneInstance(
      await SCContend.run(lifetime: .perApplication(.single)), "perApplication(.single)")
  }

  @Test func concurrentFirstRequestsOfAPerApplicationWeakMakeOneInstance() async {
    SCContend.expectOneInstance(
      await SCContend.run(lifetime: .perApplication(.weak)), "perApplication(.weak)")
  }

  @Test func concurrentFirstRequestsOfASingleMakeOneInstance() async {
    SCContend.expectOneInstance(await SCContend.run(lifetime: .single), "single")
  }
}
