import DIContainer
import DITestSupport
import Foundation
import Testing

// Request scopes closed while they work (teardowns collected at keep time, slots moved out at close,
// a refused keep) and on async resolution paths through inline graphs.

private final class IRRecord: @unchecked Sendable {
  private let lock = NSLock()
  private var entries: [String] = []
  func add(_ entry: String) { lock.withLock { entries.append(entry) } }
  var all: [String] { lock.withLock { entries } }
}

private final class IRGate: @unchecked Sendable {
  let entered = DispatchSemaphore(value: 0)
  let proceed = DispatchSemaphore(value: 0)
}

private final class IRScopedSlow {
  let name: String
  init(name: String) { self.name = name }
}

private final class IRGraphPart: @unchecked Sendable {}
private final class IRAsyncConnection: @unchecked Sendable {
  let part: IRGraphPart
  init(part: IRGraphPart) async { self.part = part }
}
private final class IRAsyncHolder {
  let part: IRGraphPart
  init(part: IRGraphPart) { self.part = part }
}
private final class IRAsyncRoot {
  let part: IRGraphPart
  let connection: IRAsyncConnection
  let holders: Provider<IRAsyncHolder>
  let after: IRAsyncHolder
  init(
    part: IRGraphPart, connection: IRAsyncConnection, holders: Provider<IRAsyncHolder>,
    after: IRAsyncHolder
  ) {
    self.part = part
    self.connection = connection
    self.holders = holders
    self.after = after
  }
}

/// A `.scoped` instance with a cycle-breaking injection: its making stays open until the
/// postponed work is done.
private final class IRScopedCyclic {
  var friend: IRScopedFriend?
}
private final class IRScopedFriend {
  let cyclic: IRScopedCyclic
  init(cyclic: IRScopedCyclic) { self.cyclic = cyclic }
}

/// Resolves in another scope of the same container from its deinitializer.
private final class IRScopedResolving: @unchecked Sendable {
  let container: DIContainer
  let record: IRRecord
  init(container: DIContainer, record: IRRecord) {
    self.container = container
    self.record = record
  }
  deinit {
    let other = container.makeScope()
    let slow: IRScopedSlow = other.resolve()
    record.add("deinit resolved \(slow.name)")
    other.close()
  }
}

/// Runs `body` on a thread of its own; the returned semaphore is signalled when it ends.
private func irSpawn(_ body: @escaping @Sendable () -> Void) -> DispatchSemaphore {
  let done = DispatchSemaphore(value: 0)
  Thread {
    body()
    done.signal()
  }.start()
  return done
}

private final class IRCodeBox: @unchecked Sendable {
  private let lock = NSLock()
  private var value: DIError.Code?
  func set(_ code: DIError.Code?) { lock.withLock { value = code } }
  var code: DIError.Code? { lock.withLock { value } }
}

@Suite(.serialized) struct ScopeCloseDuringRequestTests {
  /// A container whose `.scoped` `IRScopedSlow` factory is held at `gate`, its hook
  /// recorded in `record`.
  private func containerWithGatedSlow(gate: IRGate, record: IRRecord) -> DIContainer {
    let container = DIContainer()
    container.register { () -> IRScopedSlow in
      gate.entered.signal()
      gate.proceed.wait()
      return IRScopedSlow(name: "slow")
    }.lifetime(.scoped).onClean { record.add("clean \($0.name)") }
    return container
  }

  /// Resolves a `T` in `scope` on another thread, closes the scope once the resolve is
  /// held at `gate`, lets it go on, and returns the code of its error, if any.
  private func closeWhileResolving<T>(
    _ type: T.Type, in scope: DIRequestScope, at gate: IRGate
  ) -> DIError.Code? {
    let box = IRCodeBox()
    let resolving = irSpawn {
      do throws(DIError) {
        _ = try scope.tryResolve() as T
      } catch {
        box.set(error.code)
      }
    }
    gate.entered.wait()
    scope.close()
    gate.proceed.signal()
    resolving.wait()
    return box.code
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func aScopeClosedWhileItsScopedFactoryRunsRunsTheHookOnceAndFails() {
    let record = IRRecord()
    let gate = IRGate()
    let container = containerWithGatedSlow(gate: gate, record: record)
    let scope = container.makeScope()
    #expect(closeWhileResolving(IRScopedSlow.self, in: scope, at: gate) == .scopeClosed)
    #expect(record.all == ["clean slow"])
    scope.close()
    #expect(record.all == ["clean slow"])
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func aScopeClosedDuringPostponedWorkRunsTheHookOnce() {
    let record = IRRecord()
    let gate = IRGate()
    let container = DIContainer()
    container.register(IRScopedCyclic.init).lifetime(.scoped)
      .injection(cycle: true, \.friend)
      .onClean { _ in record.add("clean cyclic") }
    container.register { (cyclic: IRScopedCyclic) -> IRScopedFriend in
      gate.entered.signal()
      gate.proceed.wait()
      return IRScopedFriend(cyclic: cyclic)
    }
    let scope = container.makeScope()
    _ = closeWhileResolving(IRScopedCyclic.self, in: scope, at: gate)
    scope.close()
    #expect(record.all == ["clean cyclic"])
  }

  @Test func aDeinitializerAtCloseResolvesInAnotherScope() {
    let record = IRRecord()
    let container = DIContainer()
    container.register { IRScopedSlow(name: "other") }.lifetime(.scoped)
      .onClean { record.add("clean \($0.name)") }
    container.register { IRScopedResolving(container: container, record: record) }
      .lifetime(.scoped)
    let scope = container.makeScope()
    _ = scope.resolve() as IRScopedResolving
    scope.close()
    #expect(record.all == ["deinit resolved other", "clean other"])
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func shutdownWhileAScopedMakingRunsRunsItsHookOnce() async throws {
    let record = IRRecord()
    let gate = IRGate()
    let container = containerWithGatedSlow(gate: gate, record: record)
    container.register { IRScopedSlow(name: "kept") }.as(IRScopedSlow.self, tag: IRGate.self)
      .lifetime(.scoped).onClean { record.add("clean \($0.name)") }
    let scope = container.makeScope()
    _ = try by(tag: IRGate.self, on: scope.tryResolve()) as IRScopedSlow
    let box = IRCodeBox()
    let resolving = irSpawn {
      do throws(DIError) {
        _ = try scope.tryResolve() as IRScopedSlow
      } catch {
        box.set(error.code)
      }
    }
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
      Thread {
        gate.entered.wait()
        done.resume()
      }.start()
    }
    await container.shutdown()
    gate.proceed.signal()
    resolving.wait()
    scope.close()
    #expect(record.all.sorted() == ["clean kept", "clean slow"])
  }

  @Test func anAsyncResolveKeepsOneGraphAcrossItsProvider() async throws {
    let container = DIContainer()
    container.register(IRGraphPart.init).lifetime(.objectGraph)
    container.register(IRAsyncConnection.init)
    container.register(IRAsyncHolder.init)
    container.register(IRAsyncRoot.init)
    let root: IRAsyncRoot = try await container.resolveAsync()
    #expect(root.after.part === root.part)
    #expect(try root.holders.tryValue().part === root.part)
    // The async factory's parameters are resolved in a graph of their own (as before).
    #expect(root.connection.part !== root.part)
  }
}
