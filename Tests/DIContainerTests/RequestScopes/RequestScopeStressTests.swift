import DIContainer
import DITestSupport
import Dispatch
import Foundation
import Testing

/// Records every instance made and how many times its `onClean` hook ran.
private final class Ledger: @unchecked Sendable {
  private struct Record {
    weak var object: AnyObject?
    var cleanCount = 0
  }

  private let lock = NSLock()
  private var records: [Record] = []
  /// The record of each live object (a dead object's address may be reused; a hook only
  /// ever receives a live object).
  private var index: [ObjectIdentifier: Int] = [:]

  func made<T: AnyObject>(_ object: T) -> T {
    lock.withLock {
      index[ObjectIdentifier(object)] = records.count
      records.append(Record(object: object))
    }
    return object
  }

  func cleaned(_ object: AnyObject) {
    lock.withLock {
      guard let position = index[ObjectIdentifier(object)] else { return }
      records[position].cleanCount += 1
    }
  }

  var count: Int { lock.withLock { records.count } }
  var cleanCounts: [Int] { lock.withLock { records.map(\.cleanCount) } }
  var alive: Int { lock.withLock { records.filter { $0.object != nil }.count } }
}

private final class StressPool {}
private final class StressLog {}
private final class StressSession {
  let log: StressLog
  init(log: StressLog) { self.log = log }
}
private final class StressHandler {
  let session: StressSession
  let log: StressLog
  let pool: StressPool
  init(session: StressSession, log: StressLog, pool: StressPool) {
    self.session = session
    self.log = log
    self.pool = pool
  }
}
private final class StressRequest {}

@Suite struct RequestScopeStressTests {
  @Test func thousandScopesAcrossThreadsWhileTheContainerResolvesAndCleans() {
    let scopedLedger = Ledger()
    let poolLedger = Ledger()
    let container = DIContainer()
    container.register { poolLedger.made(StressPool()) }.lifetime(.perContainer(.single))
      .onClean { poolLedger.cleaned($0) }
    container.register { scopedLedger.made(StressLog()) }.lifetime(.scoped)
      .onClean { scopedLedger.cleaned($0) }
    container.register { scopedLedger.made(StressSession(log: $0)) }.lifetime(.scoped)
      .onClean { scopedLedger.cleaned($0) }
    container.register(StressHandler.init)
    let failures = Counter()

    DispatchQueue.concurrentPerform(iterations: 1_000) { index in
      switch index % 4 {
      case 0:
        // The container is used and cleaned while scopes come and go.
        let _: StressPool = container.resolve()
        if index.isMultiple(of: 8) { container.clean() }
        let scope = container.makeScope()
        let handler: StressHandler = scope.resolve()
        if handler.session.log !== handler.log { failures.next() }
        scope.close()
      case 1:
        // Two threads resolve in one scope, and both close it.
        let scope = container.makeScope()
        let seen = EventLog<String>()
        DispatchQueue.concurrentPerform(iterations: 2) { _ in
          let handler: StressHandler = scope.resolve()
          seen.append("\(ObjectIdentifier(handler.log).hashValue)")
        }
        if Set(seen.all).count != 1 { failures.next() }
        DispatchQueue.concurrentPerform(iterations: 2) { _ in scope.close() }
      case 2:
        // A scope per owner, closed once the owner is gone.
        let request = StressRequest()
        let handler: StressHandler = container.scope(for: request).resolve()
        let again: StressLog = container.scope(for: request).resolve()
        if handler.log !== again { failures.next() }
      default:
        // A scope closed while another thread may still be resolving in it.
        let scope = container.makeScope()
        DispatchQueue.concurrentPerform(iterations: 2) { worker in
          if worker == 0 {
            scope.close()
          } else {
            let _: StressHandler? = try? scope.tryResolve()
          }
        }
      }
    }
    // Owners are all gone: the next scope(for:) closes their scopes.
    _ = container.scope(for: StressRequest())
    container.clean()

    #expect(failures.value == 0)
    #expect(scopedLedger.count >= 1_000)
    #expect(scopedLedger.alive == 0)
    #expect(scopedLedger.cleanCounts.allSatisfy { $0 == 1 })
    #expect(poolLedger.alive == 0)
    #expect(poolLedger.cleanCounts.allSatisfy { $0 == 1 })
  }
}
