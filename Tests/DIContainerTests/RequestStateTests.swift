import DIContainer
import Dispatch
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
    let inner = Lines()
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
