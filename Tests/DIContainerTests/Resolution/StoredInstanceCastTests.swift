import DIContainer
import Testing

// An instance a lifetime's storage keeps (an object graph's, a request scope's, a cell's)
// reaches its requester as an `Any`. Asked for as the class it was made from, its reference
// is moved out of the `Any` with no cast and no count; asked for as anything else (a
// superclass, a protocol, a value type), it is cast. Each object counts its making and its
// deinit, so a reference taken twice (an over-release: a deinit while held, or a crash) or
// never given back (a leak) fails; each test reads the objects after they were passed on.

private protocol SICNamed: AnyObject {
  var serial: Int { get }
}

private class SICBase: PRCounted {}
private final class SICLeaf: SICBase, SICNamed {}

/// Holds what the graph gave it, twice over where the lifetime shares one instance.
private final class SICPair: PRCounted {
  let first: SICLeaf
  let second: SICLeaf
  let named: any SICNamed
  let base: SICBase

  init(first: SICLeaf, second: SICLeaf, named: any SICNamed, base: SICBase, _ ledger: PRLedger) {
    (self.first, self.second, self.named, self.base) = (first, second, named, base)
    super.init(ledger)
  }
}

private struct SICValue {
  let numbers: [Int]
  let text: String
}

@Suite("Stored instances: moved to a request for their class, cast for any other")
struct StoredInstanceCastTests {
  /// A container whose `SICLeaf` has `lifetime`, asked for as itself, a protocol and its
  /// superclass by one `SICPair`.
  private func container(_ lifetime: DILifetime, ledger: PRLedger) -> DIContainer {
    let container = DIContainer()
    container.register { SICLeaf(ledger) }.as(SICNamed.self).as(SICBase.self).lifetime(lifetime)
    container.register { SICPair(first: $0, second: $1, named: $2, base: $3, ledger) }
    return container
  }

  @Test("an object graph's instance is one object for its class, a protocol and a superclass")
  func objectGraph() {
    let ledger = PRLedger()
    let container = container(.objectGraph, ledger: ledger)
    for round in 0..<200 {
      let pair: SICPair = container.resolve()
      #expect(pair.first === pair.second)
      #expect(ObjectIdentifier(pair.named) == ObjectIdentifier(pair.first))
      #expect(pair.base === pair.first)
      #expect(pair.first.serial == pair.named.serial)
      // One pair and one leaf per round, all freed but this round's.
      #expect(ledger.made == 2 * (round + 1))
      #expect(ledger.alive == 2)
    }
    #expect(ledger.alive == 0)
  }

  @Test("a request scope's instance is one object per scope, freed once with it")
  func requestScoped() {
    let ledger = PRLedger()
    let container = container(.scoped, ledger: ledger)
    for _ in 0..<200 {
      let scope = container.makeScope()
      let pair: SICPair = scope.resolve()
      let again: SICLeaf = scope.resolve()
      let asBase: SICBase = scope.resolve()
      #expect(pair.first === again && pair.second === again && asBase === again)
      #expect(ObjectIdentifier(pair.named) == ObjectIdentifier(again))
      scope.close()
      #expect(again.serial == pair.named.serial)
    }
    #expect(ledger.alive == 0)
    #expect(ledger.made == 400)
  }

  @Test("a container's cell keeps its instance: every request gets it, and it outlives them")
  func perContainer() {
    let ledger = PRLedger()
    var container: DIContainer? = self.container(.perContainer(.single), ledger: ledger)
    var first: SICLeaf? = container?.resolve()
    for _ in 0..<100 {
      let pair: SICPair = container!.resolve()
      #expect(pair.first === first && pair.base === first)
      #expect(ObjectIdentifier(pair.named) == ObjectIdentifier(first!))
    }
    #expect(ledger.alive == 1)  // the leaf: every pair is gone with its round
    #expect(ledger.made == 101)
    first = nil
    container = nil
    #expect(ledger.alive == 0)
  }

  @Test("a value kept as Any is cast, not moved, and arrives whole")
  func valueTypes() {
    let container = DIContainer()
    container.register { SICValue(numbers: Array(0..<64), text: "kept " + String(7)) }
      .lifetime(.objectGraph)
    container.register { (first: SICValue, second: SICValue) in [first, second] }
    let scope = container.makeScope()
    defer { scope.close() }
    let values: [SICValue] = scope.resolve()
    #expect(values.map(\.numbers) == [Array(0..<64), Array(0..<64)])
    #expect(values.map(\.text) == ["kept 7", "kept 7"])
  }

  @Test("an instance made as its superclass is cast for the subclass request, not moved")
  func madeAsSuperclass() {
    let ledger = PRLedger()
    let container = DIContainer()
    // The factory's type is the superclass; the object is a leaf.
    container.register { () -> SICBase in SICLeaf(ledger) }.lifetime(.objectGraph)
    container.register { (base: SICBase, again: SICBase) in [base, again] }
    for _ in 0..<50 {
      let objects: [SICBase] = container.resolve()
      #expect(objects[0] === objects[1])
      #expect(objects[0] is SICLeaf)
    }
    #expect(ledger.alive == 0)
    #expect(ledger.made == 50)
  }
}
