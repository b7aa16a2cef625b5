import DIContainer
import DITestSupport
import Dispatch
import Foundation
import Testing

/// A resolution knows what its request is building, across nested `resolve()` calls and
/// across containers; two threads' requests waiting for each other end with an error.
@Suite struct RequestStateTests {
  @Test func aNestedResolveInAnotherContainerJoinsTheRequestSoALoopIsACycle() {
    let first = DIContainer()
    let second = DIContainer()
    let calls = Counter()
    // A's factory asks the second container for B, whose factory asks the first for A.
    first.register { () -> RequestA in
      calls.next()
      let b: RequestB? = try? second.tryResolve()
      return RequestA(b: b)
    }
    second.register { () -> RequestB in
      let a: RequestA? = try? first.tryResolve()
      return RequestB(a: a)
    }
    let a: RequestA = first.resolve()
    // The loop is met at its first repetition: A's factory ran once, and the inner request
    // for A failed instead of recursing.
    #expect(calls.value == 1)
    #expect(a.b != nil)
    #expect(a.b?.a == nil)
  }

  @Test func aNestedResolveOfItselfIsACycleErrorNamingItOnce() {
    let container = DIContainer()
    let inner = EventLog<String>()
    container.register { () -> RequestA in
      do throws(DIError) {
        let nested: RequestA = try container.tryResolve()
        return RequestA(b: nested.b)
      } catch {
        inner.append("\(error.code)")
        return RequestA(b: nil)
      }
    }
    let a: RequestA = container.resolve()
    #expect(a.b == nil)
    #expect(inner.all == ["cycle"])
  }

  @Test func anEndlessChainOfOneComponentIsACycleNamedOnceNotTooDeep() {
    let container = DIContainer()
    container.register { RequestDeep(next: $0) }
    // `RequestDeep?` parameters are nil only when unresolvable; the chain never ends, and
    // as it is one component asked for again and again (a .prototype loop), it is a cycle.
    let result = Result { () throws(DIError) -> RequestDeep in try container.tryResolve() }
    guard case .failure(let error) = result else {
      Issue.record("an endless chain resolved")
      return
    }
    #expect(error.code == .cycle)
    #expect(error.description.contains("RequestDeep"))
    // Each registration of the loop once.
    #expect(error.description.components(separatedBy: "RequestDeep (").count == 2)
  }

  @Test(arguments: [DILifetime.perContainer(.single), .custom(DIScope(name: "Open")), .scoped])
  func anotherThreadNeverSeesACachedInstanceBeforeItsPostponedInjectionRan(
    _ lifetime: DILifetime
  ) {
    let container = DIContainer()
    let inside = DispatchSemaphore(value: 0)
    // X's cycle-breaking injection runs after X is made; while it runs (Y's factory), another
    // thread asks for X.
    container.register { OpenX() }.lifetime(lifetime).injection(cycle: true, \.y)
    container.register { (x: OpenX) -> OpenY in
      inside.signal()
      usleep(100_000)
      return OpenY(x: x)
    }
    let scope = container.makeScope()
    let seen = EventLog<String>()
    let done = DispatchGroup()
    // Threads of their own: the second must run while the first sleeps in Y's factory.
    for waitsFirst in [false, true] {
      done.enter()
      Thread.detachNewThread {
        if waitsFirst { _ = inside.wait(timeout: .now() + 5) }
        let x: OpenX = scope.resolve()
        seen.append(x.y == nil ? "half-built" : "whole")
        done.leave()
      }
    }
    #expect(
      done.wait(timeout: .now() + TestEnvironment.limit(20)) == .success, "resolving deadlocked")
    #expect(seen.all == ["whole", "whole"])
    scope.close()
  }

  @Test func aRequestFailingInPostponedWorkKeepsNoHalfBuiltCachedInstance() {
    let container = DIContainer()
    let made = Counter()
    container.register { () -> OpenX in
      made.next()
      return OpenX()
    }
    .lifetime(.perContainer(.single)).injection(cycle: true, \.y)
    container.register { (x: OpenX, _: OpenDependency) in OpenY(x: x) }
    // X's postponed injection needs Y, which needs a dependency not registered yet.
    let first = Result { () throws(DIError) -> OpenX in try container.tryResolve() }
    guard case .failure(let error) = first else {
      Issue.record("the request succeeded without Y's dependency")
      return
    }
    #expect(error.code == .notRegistered)
    container.register { OpenDependency() }
    let second: OpenX = container.resolve()
    #expect(second.y != nil)
    #expect(made.value == 2, "the half-built X of the failed request was kept")
  }

  @Test func aPrototypeRecursingWithOtherRuntimeArgumentsIsNotACycle() throws {
    let container = DIContainer()
    container.register { (depth: DIArg<Int>, next: Provider1<ArgumentNode, Int>) in
      let depth = arg(depth)
      return ArgumentNode(depth: depth, child: depth > 0 ? try? next.tryValue(depth - 1) : nil)
    }
    let node: ArgumentNode = try container.tryResolve(arguments: [3])
    #expect(node.child?.child?.child?.depth == 0)
  }

  @Test func errorCodesCompareAndPrint() {
    #expect(DIError.Code.cycle == .cycle)
    #expect(DIError.Code.cycle != .tooDeep)
    #expect("\(DIError.Code.notRegistered)" == "notRegistered")
  }

  @Test func manyInsideANestedResolveLeavesOutWhatTheRequestIsBuilding() {
    let container = DIContainer()
    container.register { () -> RequestGroup in
      // Asked for from inside the group's own factory: the group is under construction.
      let members: [RequestMember] = many(container.resolve())
      return RequestGroup(count: members.count)
    }
    .as(RequestMember.self)
    container.register { RequestSolo() }.as(RequestMember.self)
    let group: RequestGroup = container.resolve()
    #expect(group.count == 1)
  }
}

private protocol RequestMember: AnyObject {}

private final class RequestA: @unchecked Sendable {
  let b: RequestB?
  init(b: RequestB?) { self.b = b }
}

private final class RequestB: @unchecked Sendable {
  let a: RequestA?
  init(a: RequestA?) { self.a = a }
}

private final class RequestDeep {
  let next: RequestDeep?
  init(next: RequestDeep?) { self.next = next }
}

private final class RequestGroup: RequestMember {
  let count: Int
  init(count: Int) { self.count = count }
}

private final class RequestSolo: RequestMember {}

private final class OpenX: @unchecked Sendable {
  var y: OpenY?
}

private final class OpenY: @unchecked Sendable {
  let x: OpenX
  init(x: OpenX) { self.x = x }
}

private final class OpenDependency {}

private final class ArgumentNode: Sendable {
  let depth: Int
  let child: ArgumentNode?
  init(depth: Int, child: ArgumentNode?) {
    self.depth = depth
    self.child = child
  }
}
