import DIContainer
import Testing

/// SPEC.md, "Associated storage": each line of the snippet verbatim (each with the
/// `Dependent` its comment describes), and the lifetime of the values.
@Suite struct AssociatedStorageSpecTests {
  final class Owner {}

  @Test func simplyInitializableValuesAreMadeOncePerOwner() {
    final class Dependent: SimplyInitializable {
      init() {}
    }
    let owner = Owner()
    let storage = AssociatedStorage()
    let d: Dependent = storage.get(for: owner)  // Dependent: SimplyInitializable (init())
    let again: Dependent = storage.get(for: owner)
    #expect(d === again)
    let other: Dependent = storage.get(for: Owner())
    #expect(other !== d)
  }

  @Test func keyObjectInitializableValuesAreMadeFromTheirOwner() {
    final class Dependent: KeyObjectInitializable {
      weak var owner: Owner?
      init(with owner: Owner) { self.owner = owner }
    }
    let owner = Owner()
    let storage = AssociatedStorage()
    // Dependent: KeyObjectInitializable (init(with: Owner))
    let d: Dependent = storage.get(for: owner)
    #expect(d.owner === owner)
    let again: Dependent = storage.get(for: owner)
    #expect(d === again)
  }

  @Test func anOptionalGetIsNilUntilSet() {
    final class Dependent {}
    let owner = Owner()
    let storage = AssociatedStorage()
    do {
      let d: Dependent? = storage.get(for: owner)  // nil until set
      #expect(d == nil)
    }
    let d = Dependent()
    storage.set(d, for: owner)
    let found: Dependent? = storage.get(for: owner)
    #expect(found === d)
  }

  @Test func aMakingClosureRunsOncePerOwner() {
    final class Dependent {}
    let owner = Owner()
    let storage = AssociatedStorage()
    var made = 0
    for _ in 0..<3 {
      let d: Dependent = storage.get(for: owner) { owner in Dependent() }  // made once per owner
      _ = d
      let counted: Dependent = storage.get(for: owner) { _ in
        made += 1
        return Dependent()
      }
      #expect(counted === d)
    }
    #expect(made == 0, "the value made by the first closure is kept")
  }

  @Test func oneValuePerKeyObjectPerStorage() {
    final class Dependent {
      let number: Int
      init(_ number: Int) { self.number = number }
    }
    let owner = Owner()
    let first = AssociatedStorage()
    let second = AssociatedStorage()
    first.set(Dependent(1), for: owner)
    second.set(Dependent(2), for: owner)
    first.set(Dependent(3), for: owner)
    let fromFirst: Dependent? = first.get(for: owner)
    let fromSecond: Dependent? = second.get(for: owner)
    #expect(fromFirst?.number == 3)
    #expect(fromSecond?.number == 2)
  }

  @Test func theValueLivesWhileItsKeyLivesAndIsReleasedOnceTheKeyIsGone() {
    final class Dependent {}
    let storage = AssociatedStorage()
    weak var weakValue: Dependent?
    var owner: Owner? = Owner()
    do {
      let value = Dependent()
      weakValue = value
      storage.set(value, for: owner!)
    }
    #expect(weakValue != nil, "kept while its key lives")
    owner = nil
    #expect(storage.count == 0, "at the latest at the storage's next operation")
    #expect(weakValue == nil)
  }

  @Test func aNewObjectReusingADeadKeysAddressNeverSeesTheOldValue() {
    final class Dependent {}
    let storage = AssociatedStorage()
    var reused = 0
    for _ in 0..<200 {
      var address: ObjectIdentifier?
      do {
        let owner = Owner()
        address = ObjectIdentifier(owner)
        storage.set(Dependent(), for: owner)
      }
      let newcomer = Owner()
      if ObjectIdentifier(newcomer) == address { reused += 1 }
      let seen: Dependent? = storage.get(for: newcomer)
      #expect(seen == nil)
    }
    #if os(Linux)
      // glibc hands the freed block back at once: the case that matters did happen.
      #expect(reused > 0)
    #endif
  }
}
