import DIContainer
import Synchronization
import Testing

/// SPEC.md, "Scopes": the snippet verbatim, and a user-written `DIStorage`.
///
/// Serialized: both tests make `Cart`s, whose count is process-wide.
@Suite(.serialized) struct ScopeSpecTests {
  final class Created: Sendable {
    let count = Atomic(0)
    var value: Int { count.load(ordering: .relaxed) }
  }

  /// Counts its instances through a process-wide counter the test reads.
  final class Cart {
    static let created = Created()
    init() { Self.created.count.add(1, ordering: .relaxed) }
  }

  final class Basket {
    init() {}
  }

  @Test func theScopesSnippetRunsAsWritten() {
    let container = DIContainer()
    let createdBefore = Cart.created.value
    weak var weakCart: Cart?

    let session = DIScope(name: "Session", storage: DICacheStorage(), policy: .single)  // or .weak
    container.register(Cart.init).lifetime(.custom(session))
    do {
      let cart: Cart = container.resolve()
      let again: Cart = container.resolve()
      #expect(cart === again, "one per scope")
      weakCart = cart
    }
    #expect(weakCart != nil, "a .single scope keeps it")
    session.clean()  // drop everything in the scope
    #expect(weakCart == nil)
    let afterClean = Cart.created.value
    container.initializeObjectsForScope(session)  // create its objects now, like singletons
    #expect(Cart.created.value == afterClean + 1)
    #expect(afterClean == createdBefore + 1)

    container.register(Cart.init).lifetime(.custom(name: "Session"))  // a scope found by name
    #expect(container.scope(named: "Session") === session)
    let carts: [Cart] = many(container.resolve())
    #expect(carts.count == 2)
    let cartsAgain: [Cart] = many(container.resolve())
    #expect(carts[0] === cartsAgain[0] && carts[1] === cartsAgain[1])
    weak let first = carts.first
    weak let last = carts.last
    _ = consume carts
    _ = consume cartsAgain
    #expect(first != nil && last != nil)
    container.clean(scope: "Session")
    #expect(first == nil, "clean(scope:) cleans the scope named Session")
    #expect(last == nil, "the component of .custom(name:) is in the same scope")
  }

  @Test func aWeakScopeReusesItsObjectWhileAnyoneHoldsIt() {
    let container = DIContainer()
    let scope = DIScope(name: "WeakScope", storage: DICacheStorage(), policy: .weak)
    container.register(Basket.init).lifetime(.custom(scope))
    weak var weakBasket: Basket?
    do {
      let basket: Basket = container.resolve()
      let again: Basket = container.resolve()
      #expect(basket === again)
      weakBasket = basket
    }
    #expect(weakBasket == nil, "a .weak scope does not keep it")
  }

  /// A size-limited storage a user could write: no unsafe code, a `Mutex`.
  final class OneValueStorage: DIStorage {
    private let state = Mutex<(key: DIStorageKey, value: DIStorageValue)?>(nil)
    let writes = Atomic(0)

    func value(for key: DIStorageKey) -> DIStorageValue? {
      state.withLock { state in state?.key == key ? state?.value : nil }
    }

    func setValue(_ value: DIStorageValue, for key: DIStorageKey) {
      writes.add(1, ordering: .relaxed)
      state.withLock { $0 = (key, value) }
    }

    func clean() {
      state.withLock { $0 = nil }
    }
  }

  @Test func usersCanWriteTheirOwnStorage() {
    let container = DIContainer()
    let storage = OneValueStorage()
    let scope = DIScope(name: "OneValue", storage: storage, policy: .single)
    container.register(Basket.init).lifetime(.custom(scope))
    container.register(Cart.init).lifetime(.custom(scope))
    let basket: Basket = container.resolve()
    let basketAgain: Basket = container.resolve()
    #expect(basket === basketAgain)
    #expect(storage.writes.load(ordering: .relaxed) == 1)
    let _: Cart = container.resolve()
    let basketAfterCart: Basket = container.resolve()
    #expect(basketAfterCart !== basket, "the storage keeps one value: the Cart evicted it")
    scope.clean()
    let basketAfterClean: Basket = container.resolve()
    #expect(basketAfterClean !== basketAfterCart, "scope.clean() called the storage's clean()")
  }
}
