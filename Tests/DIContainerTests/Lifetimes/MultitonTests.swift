import DIContainer
import DITestSupport
import Dispatch
import Testing

private final class Session {
  let user: String
  let shard: Int
  init(user: String, shard: Int = 0) {
    self.user = user
    self.shard = shard
  }
}

private struct NotHashable {}

private final class Sessions {
  let make: Provider1<Session, String>
  init(make: Provider1<Session, String>) { self.make = make }
}

@Suite struct MultitonTests {
  @Test func oneInstancePerDistinctArgument() {
    let container = DIContainer()
    container.register { Kitten(name: arg($0)) }.lifetime(.multiton)
    let cat1: Kitten = container.resolve(arg: "Mimi")
    let cat2: Kitten = container.resolve(arg: "Mimi")
    let cat3: Kitten = container.resolve(arg: "Mew")
    #expect(cat1 === cat2)
    #expect(cat1 !== cat3)
    #expect(cat3.name == "Mew")
  }

  @Test func severalArgumentsFormOneKey() {
    let container = DIContainer()
    container.register { Session(user: arg($0), shard: arg($1)) }.lifetime(.multiton)
    let first: Session = container.resolve(args: "ann", 1)
    let same: Session = container.resolve(args: "ann", 1)
    let otherShard: Session = container.resolve(args: "ann", 2)
    #expect(first === same)
    #expect(first !== otherShard)
  }

  @Test func providerArgumentsSelectTheInstance() {
    let container = DIContainer()
    container.register { Session(user: arg($0)) }.lifetime(.multiton)
    container.register(Sessions.init)
    let sessions: Sessions = container.resolve()
    #expect(sessions.make.value("ann") === sessions.make.value("ann"))
    #expect(sessions.make.value("ann") !== sessions.make.value("bob"))
    let direct: Session = container.resolve(arg: "ann")
    #expect(direct === sessions.make.value("ann"))
  }

  @Test func argumentThatIsNotHashableIsAnErrorThatSaysSo() throws {
    let container = DIContainer()
    container.register { (_: DIArg<NotHashable>) in Session(user: "x") }.lifetime(.multiton)
    let provider: Provider1<Session, NotHashable> = container.resolve()
    let error = try #require(throws: DIError.self) { try provider.tryValue(NotHashable()) }
    #expect(error.code == .argumentNotHashable)
    #expect(error.argumentPosition == 1)
    #expect(error.requested == "Provider1<Session, NotHashable>")
    #expect(
      error.description.contains(
        "runtime argument 1 for Session is a NotHashable, which is not Hashable"))
  }

  @Test func cleanDropsMultitonInstances() {
    let container = DIContainer()
    container.register { Kitten(name: arg($0)) }.lifetime(.multiton)
    weak var weakCat: Kitten?
    do {
      let cat: Kitten = container.resolve(arg: "Mimi")
      weakCat = cat
    }
    #expect(weakCat != nil, "the container keeps multiton instances")
    container.clean()
    #expect(weakCat == nil)
  }

  @Test func concurrentFirstRequestsMakeOneInstancePerArgument() {
    let container = DIContainer()
    let made = Counter()
    container.register { (name: DIArg<String>) -> Kitten in
      made.next()
      return Kitten(name: name.value)
    }
    .lifetime(.multiton)
    DispatchQueue.concurrentPerform(iterations: 64) { index in
      let _: Kitten = container.resolve(arg: "cat\(index % 4)")
    }
    #expect(made.value == 4)
  }
}
