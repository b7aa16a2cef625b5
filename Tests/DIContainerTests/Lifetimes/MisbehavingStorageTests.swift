import DIContainer
import Foundation
import Testing

/// A storage that answers every key with the first value it was ever given: a user's
/// buggy `DIStorage`, which must never make the container hand out a wrongly typed object.
final class SCFirstValueStorage: DIStorage, @unchecked Sendable {
  private let lock = NSLock()
  private var first: DIStorageValue?

  func value(for key: DIStorageKey) -> DIStorageValue? {
    lock.withLock { first }
  }

  func setValue(_ value: DIStorageValue, for key: DIStorageKey) {
    lock.withLock {
      if first == nil { first = value }
    }
  }

  func clean() {
    lock.withLock { first = nil }
  }
}

/// A storage that keeps values by key but answers each key with the value of another key
/// when it has one.
final class SCSwappingStorage: DIStorage, @unchecked Sendable {
  private let lock = NSLock()
  private var values: [DIStorageKey: DIStorageValue] = [:]

  func value(for key: DIStorageKey) -> DIStorageValue? {
    lock.withLock { values.first { $0.key != key }?.value ?? values[key] }
  }

  func setValue(_ value: DIStorageValue, for key: DIStorageKey) {
    lock.withLock { values[key] = value }
  }

  func clean() {
    lock.withLock { values = [:] }
  }
}

protocol SCBarker: AnyObject {
  var bark: String { get }
}

final class SCCat {
  let meow = "meow"
  let lives = 9
}

final class SCDog: SCBarker {
  let tricks = ["sit", "roll over"]
  let bark = "woof"
  let weight = 30.5
}

struct SCCatValue {
  let lives: Int
}

struct SCDogValue {
  let name: String
  let tricks: [String]
  let weight: Double
}

@Suite struct MisbehavingStorageTests {
  // Each check runs in a child process: a wrongly typed object is likely to crash.

  @Test func storageAnsweringWithAnotherKeysObjectNeverYieldsAWronglyTypedObject() async {
    await #expect(processExitsWith: .success) {
      scArmWatchdog()
      MisbehavingStorageTests.checkObjects(storage: SCFirstValueStorage())
      MisbehavingStorageTests.checkObjects(storage: SCSwappingStorage())
    }
  }

  @Test func storageAnsweringWithAnotherKeysValueNeverYieldsAWronglyTypedValue() async {
    await #expect(processExitsWith: .success) {
      scArmWatchdog()
      MisbehavingStorageTests.checkValues(storage: SCFirstValueStorage())
      MisbehavingStorageTests.checkValues(storage: SCSwappingStorage())
    }
  }

  @Test func storageAnsweringWithAnotherKeysObjectNeverYieldsAWrongService() async {
    await #expect(processExitsWith: .success) {
      scArmWatchdog()
      MisbehavingStorageTests.checkService(storage: SCFirstValueStorage())
    }
  }

  /// A `SCCat` is stored first; every later `SCDog` is a real dog or a `DIError`.
  static func checkObjects(storage: any DIStorage) {
    let container = DIContainer()
    let scope = DIScope(name: "SCMisbehaving", storage: storage)
    container.register { SCCat() }.lifetime(.custom(scope))
    container.register { SCDog() }.lifetime(.custom(scope))
    do throws(DIError) {
      let cat: SCCat = try container.tryResolve()
      #expect(cat.lives == 9, "the first object is not right: \(cat.lives)")
    } catch {
      Issue.record("resolving the first object failed: \(scBrief(error))")
    }
    for _ in 0..<3 {
      do throws(DIError) {
        let dog: SCDog = try container.tryResolve()
        let dynamicType: AnyObject.Type = type(of: dog as AnyObject)
        #expect(
          ObjectIdentifier(dynamicType) == ObjectIdentifier(SCDog.self),
          "a \(dynamicType) was handed out as SCDog (\(type(of: storage)))")
        guard ObjectIdentifier(dynamicType) == ObjectIdentifier(SCDog.self) else { return }
        #expect(dog.bark == "woof" && dog.tricks == ["sit", "roll over"] && dog.weight == 30.5)
      } catch {
        // A DIError is a right answer to a storage that hands out the wrong value.
      }
    }
  }

  /// The same with structs of different layouts.
  static func checkValues(storage: any DIStorage) {
    let container = DIContainer()
    let scope = DIScope(name: "SCMisbehavingValues", storage: storage)
    container.register { SCCatValue(lives: 9) }.lifetime(.custom(scope))
    container.register { SCDogValue(name: "Rex", tricks: ["sit"], weight: 30.5) }
      .lifetime(.custom(scope))
    _ = try? container.tryResolve() as SCCatValue
    for _ in 0..<3 {
      do throws(DIError) {
        let dog: SCDogValue = try container.tryResolve()
        #expect(
          dog.name == "Rex" && dog.tricks == ["sit"] && dog.weight == 30.5,
          "a wrong value was handed out as SCDogValue (\(type(of: storage)))")
      } catch {
        // A DIError is a right answer.
      }
    }
  }

  /// A `SCCat` is stored first; resolving the service `SCBarker` of `SCDog` must not give
  /// the cat.
  static func checkService(storage: any DIStorage) {
    let container = DIContainer()
    let scope = DIScope(name: "SCMisbehavingService", storage: storage)
    container.register { SCCat() }.lifetime(.custom(scope))
    container.register { SCDog() }.as(SCBarker.self).lifetime(.custom(scope))
    _ = try? container.tryResolve() as SCCat
    do throws(DIError) {
      let barker: any SCBarker = try container.tryResolve()
      #expect(barker is SCDog, "a \(type(of: barker as AnyObject)) was handed out as SCBarker")
      guard barker is SCDog else { return }
      #expect(barker.bark == "woof")
    } catch {
      // A DIError is a right answer.
    }
  }
}
