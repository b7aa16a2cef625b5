import DIContainer
import DITestSupport
import Dispatch
import Foundation
import Testing

final class SCOwner: Sendable {}

final class SCStored: Sendable {
  let label: String
  init(_ label: String) { self.label = label }
}

/// A component whose factory reads a `Lazy` of its own type while it is being made.
final class SCLazySelf {
  let inner: SCLazySelf?
  init(inner: SCLazySelf?) { self.inner = inner }
}

/// A component whose injection reads a `Lazy` of its own type.
final class SCLazyPeer {
  var peer: SCLazyPeer?
}

/// What a re-entrant `Lazy` read gave, inside the making.
enum SCInnerOutcome {
  case value(AnyObject)
  case failed(DIError)
}

@Suite struct ReentrancyTests {
  // MARK: AssociatedStorage

  @Test func makingClosureMayAskTheStorageForAnotherOwner() async throws {
    let storage = AssociatedStorage()
    let first = SCOwner()
    let second = SCOwner()
    let labels = LockedValue<[String]>([])
    let finished = await runOnThread(timeout: TestEnvironment.limit(5)) {
      let outer: SCStored = storage.get(for: first) { _ in
        let inner: SCStored = storage.get(for: second) { _ in SCStored("second") }
        return SCStored("first after \(inner.label)")
      }
      labels.withLock { $0.append(outer.label) }
    }
    try #require(finished, "a making closure asking for another owner deadlocked")
    #expect(labels.current == ["first after second"])
    let stored: SCStored? = storage.get(for: second)
    #expect(stored?.label == "second")
  }

  @Test func makingClosureAskingForItsOwnOwnerDoesNotHang() async {
    // Returning or stopping with a message are both acceptable; hanging is not. The
    // child process exits with SCExit.returned when the call returned.
    let result = await #expect(processExitsWith: .failure) {
      scArmWatchdog()
      let storage = AssociatedStorage()
      let owner = SCOwner()
      let finished = await runOnThread(timeout: TestEnvironment.limit(5)) {
        let _: SCStored = storage.get(for: owner) { owner in
          let inner: SCStored = storage.get(for: owner) { _ in SCStored("inner") }
          return SCStored("outer after \(inner.label)")
        }
      }
      exit(finished ? SCExit.returned : SCExit.hung)
    }
    let hung: [ExitStatus] = [.exitCode(SCExit.hung), .signal(SIGALRM)]
    #expect(
      !hung.contains { $0 == result?.exitStatus },
      "AssociatedStorage.get re-entered for the same owner hung")
  }

  @Test func twoThreadsMakingValuesThatNeedEachOthersOwnerDoNotDeadlock() async {
    // A loop between two making closures cannot give each owner one value: returning
    // (with a value for both owners) or stopping with a message are both acceptable;
    // hanging is not.
    let result = await #expect(processExitsWith: .failure) {
      scArmWatchdog()
      await ReentrancyTests.makeValuesThatNeedEachOthersOwner()
    }
    let hung: [ExitStatus] = [.exitCode(SCExit.hung), .signal(SIGALRM)]
    #expect(
      !hung.contains { $0 == result?.exitStatus },
      "two making closures that need each other's owner deadlocked")
  }

  /// Runs in an exit test's child: thread i makes owner i's value, whose closure asks for
  /// the other owner's once both closures are under way. Exits with SCExit.returned.
  static func makeValuesThatNeedEachOthersOwner() async {
    let storage = AssociatedStorage()
    let owners = [SCOwner(), SCOwner()]
    let entered = [DispatchSemaphore(value: 0), DispatchSemaphore(value: 0)]
    let got = LockedValue<[Int: String]>([:])
    let finished = await runThreads(2, timeout: TestEnvironment.limit(10)) { index in
      let other = 1 - index
      let value: SCStored = storage.get(for: owners[index]) { _ in
        // Both making closures are under way before either asks for the other owner
        // (unless the storage keeps the second from starting, which is fine too).
        entered[index].signal()
        _ = entered[other].wait(timeout: .now() + 1)
        let inner: SCStored = storage.get(for: owners[other]) { _ in
          SCStored("\(other) made by \(index)")
        }
        return SCStored("\(index) holding \(inner.label)")
      }
      got.withLock { $0[index] = value.label }
    }
    guard finished else { exit(SCExit.hung) }
    let first: SCStored? = storage.get(for: owners[0])
    let second: SCStored? = storage.get(for: owners[1])
    #expect(got.current.count == 2, "a thread returned without its value")
    #expect(first != nil && second != nil, "an owner has no value after both calls returned")
    exit(SCExit.returned)
  }

  @Test func twoThreadsMakingValuesWithoutALoopBothGetTheOneValue() async throws {
    // Thread 0 makes owner 0's value, which needs owner 1's; thread 1 asks for owner 1's
    // value at the same time. No loop: both succeed, and owner 1's value is made once.
    let storage = AssociatedStorage()
    let owners = [SCOwner(), SCOwner()]
    let makings = Counter()
    let got = LockedValue<[Int: SCStored]>([:])
    let finished = await runThreads(2, timeout: TestEnvironment.limit(10)) { index in
      let makeSecond = { (_: SCOwner) -> SCStored in
        makings.next()
        Thread.sleep(forTimeInterval: 0.02)
        return SCStored("second")
      }
      let value: SCStored
      if index == 0 {
        value = storage.get(for: owners[0]) { _ in
          let inner: SCStored = storage.get(for: owners[1], makeSecond)
          return SCStored("first holding \(inner.label)")
        }
      } else {
        value = storage.get(for: owners[1], makeSecond)
      }
      got.withLock { $0[index] = value }
    }
    try #require(finished, "two threads making values without a loop deadlocked")
    let values = got.current
    #expect(values[0]?.label == "first holding second")
    #expect(values[1]?.label == "second")
    #expect(makings.value == 1, "owner 1's value was made \(makings.value) times")
    let stored: SCStored? = storage.get(for: owners[1])
    #expect(stored === values[1], "the value handed out is not the one kept")
  }

  // MARK: Lazy

  @Test func prototypeFactoryReadingALazyOfItselfFailsOrReturnsWithoutHanging() async {
    await #expect(processExitsWith: .success) {
      scArmWatchdog()
      await ReentrancyTests.checkLazySelf(lifetime: .prototype)
    }
  }

  @Test func cachedFactoryReadingALazyOfItselfFailsOrReturnsWithoutHanging() async {
    await #expect(processExitsWith: .success) {
      scArmWatchdog()
      await ReentrancyTests.checkLazySelf(lifetime: .perContainer(.single))
    }
  }

  @Test func objectGraphFactoryReadingALazyOfItselfFailsOrReturnsWithoutHanging() async {
    await #expect(processExitsWith: .success) {
      scArmWatchdog()
      await ReentrancyTests.checkLazySelf(lifetime: .objectGraph)
    }
  }

  /// Runs in an exit test's child: the factory of `SCLazySelf` reads its own `Lazy`. The
  /// read cannot give an instance that does not exist yet: a `.cycle` error (or, at
  /// worst, a value) within the deadline, never a hang or a stack overflow.
  static func checkLazySelf(lifetime: DILifetime) async {
    let container = DIContainer()
    let calls = Counter()
    let inner = LockedValue<[SCInnerOutcome]>([])
    container.register { (me: Lazy<SCLazySelf>) -> SCLazySelf in
      calls.next()
      do throws(DIError) {
        let value = try me.tryValue()
        inner.withLock { $0.append(.value(value)) }
        return SCLazySelf(inner: value)
      } catch {
        inner.withLock { $0.append(.failed(error)) }
        return SCLazySelf(inner: nil)
      }
    }
    .lifetime(lifetime)
    let outer = LockedValue<Result<SCLazySelf, DIError>?>(nil)
    let finished = await runOnThread(timeout: TestEnvironment.limit(10)) {
      let result = Result { () throws(DIError) -> SCLazySelf in try container.tryResolve() }
      outer.withLock { $0 = result }
    }
    guard finished, let result = outer.current else {
      Issue.record("a factory reading a Lazy of itself hung (\(lifetime))")
      return
    }
    #expect(calls.value <= 2, "the factory ran \(calls.value) times (\(lifetime))")
    for case .failed(let error) in inner.current {
      #expect(error.code == .cycle, "the Lazy read failed, but not as .cycle: \(scBrief(error))")
    }
    if case .failure(let error) = result {
      #expect(error.code == .cycle, "resolving failed, but not as .cycle: \(scBrief(error))")
    }
  }

  @Test func cachedInjectionReadingALazyOfItselfGetsItselfOrFailsWithoutHanging() async {
    await #expect(processExitsWith: .success) {
      scArmWatchdog()
      await ReentrancyTests.checkLazyPeer()
    }
  }

  /// Runs in an exit test's child: a per-container component's injection reads a `Lazy`
  /// of its own type: itself (there is one per container) or a `.cycle` error, never a
  /// hang.
  static func checkLazyPeer() async {
    let container = DIContainer()
    let inner = LockedValue<[SCInnerOutcome]>([])
    container.register(SCLazyPeer.init)
      .lifetime(.perContainer(.single))
      .injection { (me: SCLazyPeer, lazy: Lazy<SCLazyPeer>) in
        do throws(DIError) {
          let peer = try lazy.tryValue()
          me.peer = peer
          inner.withLock { $0.append(.value(peer)) }
        } catch {
          inner.withLock { $0.append(.failed(error)) }
        }
      }
    let outer = LockedValue<Result<SCLazyPeer, DIError>?>(nil)
    let finished = await runOnThread(timeout: TestEnvironment.limit(10)) {
      let result = Result { () throws(DIError) -> SCLazyPeer in try container.tryResolve() }
      outer.withLock { $0 = result }
    }
    guard finished, let result = outer.current else {
      Issue.record("an injection reading a Lazy of its own cached component hung")
      return
    }
    switch result {
    case .success(let peer):
      for outcome in inner.current {
        switch outcome {
        case .value(let value):
          let same = ObjectIdentifier(value) == ObjectIdentifier(peer)
          #expect(same, "the Lazy gave a second instance of a per-container component")
        case .failed(let error):
          #expect(
            error.code == .cycle, "the Lazy read failed, but not as .cycle: \(scBrief(error))")
        }
      }
    case .failure(let error):
      #expect(error.code == .cycle, "resolving failed, but not as .cycle: \(scBrief(error))")
    }
  }
}
