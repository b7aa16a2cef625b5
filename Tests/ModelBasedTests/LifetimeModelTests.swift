import DIContainer
import DITestSupport
import Testing

// Random sequences of requests for `.perContainer(.weak)` and `.multiton` components, with
// the test holding or letting go of what it got, and `clean()`. The model follows SPEC.md
// "Lifetimes":
// - "`.weak`: the container does not keep the object; while anyone else holds it, it is
//   reused, then a new one is made";
// - `.multiton`: "one per distinct set of runtime arguments (`resolve(arg:)`)"; like the
//   other per-container instances, "dropped by `container.clean()`" (the table names
//   `clean()` for `.perContainer`; `.multiton` instances are checked only between cleans).
// Left out: `clean()` of `.weak` components still held (whether such an object is reused
// after it is not said): the test lets go of them at every `clean()`.

// MARK: - Types

/// Counts the instances made, so a new instance is told from a reused one even when it
/// reuses a dead one's address.
final class RMSerials: Sendable {
  private let next = LockedValue(0)
  func take() -> Int {
    next.withLock { value in
      defer { value += 1 }
      return value
    }
  }
}

protocol RMAnySerial: AnyObject {
  var serial: Int { get }
  var key: Int? { get }
}

final class RMWeakThing<D: RMDigit>: RMAnySerial {
  let serial: Int
  var key: Int? { nil }
  init(serial: Int) { self.serial = serial }
}

final class RMMultiThing<D: RMDigit>: RMAnySerial {
  let serial: Int
  let key: Int?
  init(serial: Int, key: Int) {
    self.serial = serial
    self.key = key
  }
}

// MARK: - Tests

@Suite struct LifetimeModelTests {
  /// Seeds of cases to run again (add the seed a failure printed).
  static let replaySeeds: [UInt64] = [0x5EED]

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func randomHoldAndReleaseOfWeakAndMultitonInstancesFollowsTheModel() async {
    await rmRunCases("weak and multiton", base: 0x3EA6, cases: TestEnvironment.rounds(200)) {
      Self.check(seed: $0)
    }
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)), arguments: replaySeeds)
  func replayedCase(seed: UInt64) async {
    let problems = await resultOnThread(20) { Self.check(seed: seed) }
    #expect(problems == [], "\(rmSeed(seed))")
  }

  static let components = 3

  static func check(seed: UInt64) -> [String] {
    var random = SeededRandom(seed: seed)
    let serials = RMSerials()
    let container = DIContainer()
    for index in 0..<components {
      register(rmDigit(index), serials: serials, in: container)
    }
    var problems: [String] = []
    var steps: [String] = []
    /// What the test holds, of each weak component (the model: its serial).
    var held: [Int: [any RMAnySerial]] = [:]
    /// The multiton instance of each component and key since the last `clean()`.
    var multitons: [[Int]: Int] = [:]
    /// Serials handed out: a new instance has one never seen.
    var seen: Set<Int> = []

    for _ in 0..<random.int(10...30) {
      let roll = random.int(0...99)
      let component = random.int(0...(components - 1))
      if roll < 40 {
        steps.append("weak \(component)")
        let expected = held[component]?.first?.serial
        guard let thing = resolveWeak(component, from: container, &problems, steps) else {
          continue
        }
        if let expected, thing.serial != expected {
          problems.append(
            "steps \(steps): weak \(component) made #\(thing.serial) while #\(expected) is held")
        }
        if expected == nil, seen.contains(thing.serial) {
          problems.append(
            "steps \(steps): weak \(component) gave #\(thing.serial) again, which nobody holds")
        }
        seen.insert(thing.serial)
        if random.chance(0.6) { held[component, default: []].append(thing) }
      } else if roll < 55 {
        steps.append("let go of weak \(component)")
        if !(held[component]?.isEmpty ?? true) { held[component]!.removeLast() }
      } else if roll < 90 {
        let key = random.int(0...2)
        steps.append("multiton \(component)(\(key))")
        guard let thing = resolveMultiton(component, key: key, from: container) else {
          problems.append("steps \(steps): failed")
          continue
        }
        if thing.key != key {
          problems.append("steps \(steps): got the instance of key \(thing.key ?? -1)")
        }
        if let expected = multitons[[component, key]] {
          if thing.serial != expected {
            problems.append(
              "steps \(steps): multiton \(component)(\(key)) made #\(thing.serial), expected"
                + " #\(expected) again")
          }
        } else if seen.contains(thing.serial) {
          problems.append(
            "steps \(steps): multiton \(component)(\(key)) gave #\(thing.serial) again, a new"
              + " one was expected")
        }
        multitons[[component, key]] = thing.serial
        seen.insert(thing.serial)
      } else {
        steps.append("clean")
        container.clean()
        multitons = [:]
        // What `clean()` does to a `.weak` instance still held is not said: let go of them.
        held = [:]
      }
    }
    withExtendedLifetime(held) {}
    return problems
  }

  private static func register<D: RMDigit>(
    _: D.Type, serials: RMSerials, in container: DIContainer
  ) {
    container.register { RMWeakThing<D>(serial: serials.take()) }.lifetime(.perContainer(.weak))
    container.register { RMMultiThing<D>(serial: serials.take(), key: arg($0)) }
      .lifetime(.multiton)
  }

  /// Resolves weak component `index`; what is returned is the only strong reference the
  /// caller gets (nothing else of this call outlives it).
  private static func resolveWeak(
    _ index: Int, from container: DIContainer, _ problems: inout [String], _ steps: [String]
  ) -> (any RMAnySerial)? {
    func open<D: RMDigit>(_: D.Type) -> Result<any RMAnySerial, DIError> {
      do throws(DIError) {
        let thing: RMWeakThing<D> = try container.tryResolve()
        return .success(thing)
      } catch {
        return .failure(error)
      }
    }
    switch open(rmDigit(index)) {
    case .success(let thing): return thing
    case .failure(let error):
      problems.append("steps \(steps): failed: \(rmBrief(error))")
      return nil
    }
  }

  private static func resolveMultiton(_ index: Int, key: Int, from container: DIContainer)
    -> (any RMAnySerial)?
  {
    func open<D: RMDigit>(_: D.Type) -> (any RMAnySerial)? {
      do throws(DIError) {
        let thing: RMMultiThing<D> = try container.tryResolve(arguments: [key])
        return thing
      } catch {
        return nil
      }
    }
    return open(rmDigit(index))
  }
}
