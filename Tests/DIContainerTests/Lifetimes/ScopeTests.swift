import DIContainer
import DITestSupport
import Dispatch
import Testing

private final class Cart {}

private final class Checkout {
  let cart: Cart
  init(cart: Cart) { self.cart = cart }
}

/// A user-written storage that forgets a value once it is older than `lifetime`, on a
/// clock the test moves.
private final class ExpiringStorage: DIStorage {
  private let entries = LockedValue<[DIStorageKey: (value: DIStorageValue, made: Duration)]>([:])
  private let clock = LockedValue(Duration.zero)
  let lifetime: Duration

  init(lifetime: Duration) { self.lifetime = lifetime }

  func advance(by duration: Duration) { clock.withLock { $0 += duration } }

  func value(for key: DIStorageKey) -> DIStorageValue? {
    let now = clock.withLock { $0 }
    let (value, expired) = entries.withLock { entries -> (DIStorageValue?, DIStorageValue?) in
      guard let entry = entries[key] else { return (nil, nil) }
      guard now - entry.made < lifetime else {
        entries[key] = nil
        return (nil, entry.value)
      }
      return (entry.value, nil)
    }
    _ = expired  // released here, outside the lock
    return value
  }

  func setValue(_ value: DIStorageValue, for key: DIStorageKey) {
    let now = clock.withLock { $0 }
    let replaced = entries.withLock { $0.updateValue((value, now), forKey: key) }
    _ = replaced
  }

  func clean() {
    let dropped = entries.withLock { entries in
      defer { entries = [:] }
      return entries
    }
    _ = dropped
  }
}

@Suite struct ScopeTests {
  @Test func specSnippetCompilesAndBehaves() {
    let container = DIContainer()
    let session = DIScope(name: "Session", storage: DICacheStorage(), policy: .single)
    container.register(Cart.init).lifetime(.custom(session))
    let first: Cart = container.resolve()
    #expect(first === container.resolve() as Cart)
    session.clean()
    let second: Cart = container.resolve()
    #expect(second !== first)
    container.initializeObjectsForScope(session)
    #expect(container.resolve() as Cart === second)
    container.register(Checkout.init).lifetime(.custom(name: "Session"))
    let checkout: Checkout = container.resolve()
    #expect(container.scope(named: "Session") === session)
    container.clean(scope: "Session")
    let afterClean: Checkout = container.resolve()
    #expect(afterClean !== checkout)
    #expect(afterClean.cart !== second)
  }

  @Test func specSnippetVerbatim() {
    let container = DIContainer()
    let session = DIScope(name: "Session", storage: DICacheStorage(), policy: .single)  // or .weak
    container.register(Cart.init).lifetime(.custom(session))
    session.clean()  // drop everything in the scope
    container.initializeObjectsForScope(session)  // create its objects now, like singletons
    container.register(Cart.init).lifetime(.custom(name: "Session"))  // a scope found by name
    container.clean(scope: "Session")

    #expect(container.scope(named: "Session") === session)
    let carts: [Cart] = many(container.resolve())
    #expect(carts.count == 2)
    let again: [Cart] = many(container.resolve())
    #expect(carts[0] === again[0] && carts[1] === again[1])
    #expect(carts[0] !== carts[1], "one instance per component")
  }

  @Test func singleScopeKeepsItsInstanceUntilCleaned() {
    let container = DIContainer()
    let session = DIScope(name: "Session")
    container.register(Cart.init).lifetime(.custom(session))
    weak var weakCart: Cart?
    do {
      let cart: Cart = container.resolve()
      weakCart = cart
    }
    #expect(weakCart != nil)
    session.clean()
    #expect(weakCart == nil)
  }

  @Test func weakScopeReusesWhileHeldAndReleasesAfter() {
    let container = DIContainer()
    let session = DIScope(name: "Session", storage: DICacheStorage(), policy: .weak)
    container.register(Cart.init).lifetime(.custom(session))
    weak var weakCart: Cart?
    do {
      let cart: Cart = container.resolve()
      weakCart = cart
      #expect(container.resolve() as Cart === cart)
    }
    #expect(weakCart == nil)
  }

  @Test func namedScopeIsMadeOnFirstUseAndSharedByName() {
    let container = DIContainer()
    #expect(container.scope(named: "Request") == nil)
    container.register(Cart.init).lifetime(.custom(name: "Request"))
    container.register(Checkout.init).lifetime(.custom(name: "Request"))
    let scope = container.scope(named: "Request")
    #expect(scope?.name == "Request" && scope?.policy == .single)
    let checkout: Checkout = container.resolve()
    #expect(checkout.cart === container.resolve() as Cart)
    container.clean(scope: "Request")
    #expect(checkout.cart !== container.resolve() as Cart)
    #expect(DIContainer().scope(named: "Request") == nil, "names are per container")
  }

  @Test func initializeObjectsForScopeCreatesThemNow() {
    let container = DIContainer()
    let made = Counter()
    let session = DIScope(name: "Session")
    container.register { () -> Cart in
      made.next()
      return Cart()
    }
    .lifetime(.custom(session))
    container.register { () -> Checkout in
      made.next()
      return Checkout(cart: Cart())
    }
    #expect(made.value == 0)
    container.initializeObjectsForScope(session)
    #expect(made.value == 1)
    let _: Cart = container.resolve()
    #expect(made.value == 1)
  }

  @Test func userWrittenStorageForgetsAfterItsLifetime() {
    let container = DIContainer()
    let storage = ExpiringStorage(lifetime: .seconds(60))
    let session = DIScope(name: "Expiring", storage: storage, policy: .single)
    container.register(Cart.init).lifetime(.custom(session))
    let first: Cart = container.resolve()
    storage.advance(by: .seconds(30))
    #expect(container.resolve() as Cart === first)
    storage.advance(by: .seconds(31))
    let second: Cart = container.resolve()
    #expect(second !== first)
  }

  @Test func oneScopeInTwoContainersKeepsOneInstancePerRegistration() {
    let session = DIScope(name: "Session")
    let one = DIContainer()
    let two = DIContainer()
    one.register(Cart.init).lifetime(.custom(session))
    two.register(Cart.init).lifetime(.custom(session))
    let fromOne: Cart = one.resolve()
    let fromTwo: Cart = two.resolve()
    #expect(fromOne !== fromTwo)
    #expect(fromOne === one.resolve() as Cart)
  }

  @Test func concurrentFirstRequestsMakeOneInstance() {
    for _ in 0..<20 {
      let container = DIContainer()
      let made = Counter()
      let session = DIScope(name: "Session")
      container.register { () -> Cart in
        made.next()
        return Cart()
      }
      .lifetime(.custom(session))
      DispatchQueue.concurrentPerform(iterations: 32) { _ in
        let _: Cart = container.resolve()
      }
      #expect(made.value == 1)
    }
  }

  @Test func storageKeyDescribesTheComponent() {
    let container = DIContainer()
    let storage = DICacheStorage()
    container.register(Cart.init).lifetime(.custom(DIScope(name: "S", storage: storage)))
    let _: Cart = container.resolve()
    #expect(storage.count == 1)
  }
}
