// `AsyncLazy` and `AsyncProvider` keep the object graph they were made in, as `Lazy` and
// `Provider` do (SPEC, "Async and throwing factories"). Every top-level type is prefixed `AG`.

import DIContainer
import DITestSupport
import Testing

final class AGHead: Sendable {
  let tail: AGTail
  init(tail: AGTail) { self.tail = tail }
}

final class AGTail: Sendable {
  let head: AsyncLazy<AGHead>
  init(head: AsyncLazy<AGHead>) { self.head = head }
}

final class AGProvidedTail: Sendable {
  let head: AsyncProvider<AGProvidedHead>
  let syncHead: Provider<AGProvidedHead>
  init(head: AsyncProvider<AGProvidedHead>, syncHead: Provider<AGProvidedHead>) {
    self.head = head
    self.syncHead = syncHead
  }
}

final class AGProvidedHead: Sendable {
  let tail: AGProvidedTail
  init(tail: AGProvidedTail) { self.tail = tail }
}

/// An async singleton the head needs, so the graph has something to await.
final class AGPool: Sendable {}

final class AGPooledHead: Sendable {
  let tail: AGPooledTail
  let pool: AGPool
  init(tail: AGPooledTail, pool: AGPool) {
    self.tail = tail
    self.pool = pool
  }
}

final class AGPooledTail: Sendable {
  let head: AsyncLazy<AGPooledHead>
  init(head: AsyncLazy<AGPooledHead>) { self.head = head }
}

@Suite struct AsyncDelayedObjectGraphTests {
  @Test func anAsyncLazyReturnsTheObjectOfTheGraphItWasMadeIn() async throws {
    let container = DIContainer()
    container.register(AGHead.init).lifetime(.objectGraph)
    container.register(AGTail.init).lifetime(.objectGraph)
    let head: AGHead = try await container.resolveAsync()
    #expect(try await head.tail.head.value === head)
  }

  @Test func anAsyncProviderReturnsTheGraphsObjectAtEveryReadAsAProviderDoes() async throws {
    let container = DIContainer()
    container.register(AGProvidedHead.init).lifetime(.objectGraph)
    container.register(AGProvidedTail.init).lifetime(.objectGraph)
    let head: AGProvidedHead = try container.tryResolve()
    let first = try await head.tail.head.value
    let second = try await head.tail.head.value
    let synchronous = try head.tail.syncHead.tryValue()
    #expect(synchronous === head)
    #expect(first === head)
    #expect(second === head)
  }

  @Test func theGraphIsKeptWhenTheValueMustAwaitAnAsyncFactory() async throws {
    let container = DIContainer()
    let made = Counter()
    container.register { () async -> AGPool in
      _ = made.next()
      return AGPool()
    }
    .lifetime(.perContainer(.single))
    container.register(AGPooledHead.init).lifetime(.objectGraph)
    container.register(AGPooledTail.init).lifetime(.objectGraph)
    let head: AGPooledHead = try await container.resolveAsync()
    let again = try await head.tail.head.value
    #expect(again === head)
    #expect(made.value == 1)
  }

  @Test func twoGraphsKeepTwoObjects() async throws {
    let container = DIContainer()
    container.register(AGHead.init).lifetime(.objectGraph)
    container.register(AGTail.init).lifetime(.objectGraph)
    let first: AGHead = try await container.resolveAsync()
    let second: AGHead = try await container.resolveAsync()
    #expect(first !== second)
    #expect(try await first.tail.head.value === first)
    #expect(try await second.tail.head.value === second)
  }
}
