import DIContainer
import DITestSupport
import Testing

// A parent container and two children, each registering at random some of six component
// types (acyclic, each needing some later ones) with `.prototype`, `.objectGraph` or
// `.perContainer(.single)`,
// and candidates of one protocol service with random `.default()`/`.test()` marks; random
// requests from each container and `clean()` of the children. The model follows SPEC.md
// "Child containers":
// - "The child's level decides first: when the child has candidates, the parent's are not
//   considered"; "A child container applies these steps to its own candidates first, then
//   to its parent's"; "`many(tenant.resolve())` — the child's, then the parent's";
// - "A parent's `.prototype` … components resolved through a child see the child's
//   registrations"; "a parent's cached instances are made by the parent from the parent's
//   registrations" (so a parent's cached component needing a type only a child registers
//   cannot be made); the child "shares the parent's cached instances";
// - `.perContainer`: one per container, "dropped by `container.clean()`"; "cleaning … a
//   child never touches the parent's instances".
// - `.objectGraph`: "one instance within one `resolve` call".
// Left out: `.objectGraph` components that a cached one needs, directly or not (whether a
// parent's cached instance made during a child's request shares that request's graph is
// not said), and cleaning the parent (whether it drops the children's instances is not
// said).

// MARK: - Types

protocol RMAnyChildNode: AnyObject {
  var index: Int { get }
  /// Which registration made it: `10 * node + container`.
  var registration: Int { get }
  var dependencies: [Int: any RMAnyChildNode] { get }
}

final class RMChildNode<D: RMDigit>: RMAnyChildNode {
  let registration: Int
  private(set) var dependencies: [Int: any RMAnyChildNode] = [:]
  init(registration: Int) { self.registration = registration }
  var index: Int { D.value }
  func attach(_ dependency: any RMAnyChildNode) { dependencies[dependency.index] = dependency }
}

// MARK: - Setup

struct RMChildRegistration: Sendable, CustomStringConvertible {
  var cached: Bool
  var objectGraph: Bool
  let needs: [Int]

  var description: String { (cached ? "C" : objectGraph ? "G" : "P") + "\(needs)" }
}

struct RMChildCandidate: Sendable, CustomStringConvertible {
  let container: Int
  let isDefault: Bool
  let isTest: Bool

  var description: String { "@\(container)" + (isDefault ? "d" : "") + (isTest ? "t" : "") }
}

struct RMChildSetup: Sendable, CustomStringConvertible {
  static let nodes = 6
  /// `registrations[node][container]`: container 0 is the parent, 1 and 2 its children.
  var registrations: [[RMChildRegistration?]] = []
  var candidates: [RMChildCandidate] = []

  init(seed: UInt64) {
    var random = SeededRandom(seed: seed)
    for node in 0..<Self.nodes {
      registrations.append(
        (0..<3).map { container -> RMChildRegistration? in
          guard random.chance(container == 0 ? 0.8 : 0.3) else { return nil }
          let later = Array((node + 1)..<Self.nodes).shuffled(using: &random)
          let cached = random.chance(0.4)
          return RMChildRegistration(
            cached: cached, objectGraph: !cached && random.chance(0.5),
            needs: Array(later.prefix(random.int(0...2))).sorted())
        })
    }
    // No `.objectGraph` component where a cached one may need it.
    var underCached: Set<Int> = []
    for node in 0..<Self.nodes {
      for registration in registrations[node].compactMap({ $0 })
      where registration.cached || underCached.contains(node) {
        underCached.formUnion(registration.needs)
      }
    }
    for node in underCached {
      for container in 0..<3 { registrations[node][container]?.objectGraph = false }
    }
    for _ in 0..<random.int(0...6) {
      candidates.append(
        RMChildCandidate(
          container: random.pick([0, 0, 1, 2]), isDefault: random.chance(0.3),
          isTest: random.chance(0.15)))
    }
  }

  var description: String {
    "nodes " + registrations.indices.map { "\($0)\(registrations[$0])" }.joined(separator: " ")
      + " candidates \(candidates)"
  }

  /// The parent, then its two children, registered as the setup says (each candidate in
  /// its own container, in order).
  func make() -> [DIContainer] {
    let parent = DIContainer()
    let containers = [parent, DIContainer(parent: parent), DIContainer(parent: parent)]
    for node in 0..<Self.nodes {
      for container in 0..<3 {
        guard let registration = registrations[node][container] else { continue }
        register(rmDigit(node), registration, id: 10 * node + container, in: containers[container])
      }
    }
    for (index, candidate) in candidates.enumerated() {
      register(rmDigit(index), candidate: index, in: containers[candidate.container])
    }
    return containers
  }

  private func register<D: RMDigit>(
    _: D.Type, _ registration: RMChildRegistration, id: Int, in container: DIContainer
  ) {
    var builder = container.register { RMChildNode<D>(registration: id) }
    if registration.cached { builder = builder.lifetime(.perContainer(.single)) }
    if registration.objectGraph { builder = builder.lifetime(.objectGraph) }
    for need in registration.needs { builder = Self.need(builder, rmDigit(need)) }
  }

  private static func need<D: RMDigit, X: RMDigit>(
    _ builder: DIComponentBuilder<RMChildNode<D>>, _: X.Type
  ) -> DIComponentBuilder<RMChildNode<D>> {
    builder.injection { (node: RMChildNode<D>, dependency: RMChildNode<X>) in
      node.attach(dependency)
    }
  }

  private func register<D: RMDigit>(_: D.Type, candidate index: Int, in container: DIContainer) {
    var builder = container.register { RMImpl<D>(registration: index) }.as(RMService.self)
    if candidates[index].isDefault { builder = builder.default() }
    if candidates[index].isTest { builder = builder.test() }
  }

  // MARK: Model

  /// The registration that serves `node` for a request made in `container`, and the
  /// container that holds it.
  func registration(_ node: Int, in container: Int) -> (RMChildRegistration, owner: Int)? {
    if let own = registrations[node][container] { return (own, container) }
    if container != 0, let parent = registrations[node][0] { return (parent, 0) }
    return nil
  }

  /// Whether `node` can be made for a request in `container`.
  func canMake(_ node: Int, in container: Int) -> Bool {
    guard let (registration, owner) = self.registration(node, in: container) else { return false }
    let context = registration.cached ? owner : container
    return registration.needs.allSatisfy { canMake($0, in: context) }
  }

  /// The service's outcome for a request in `container`.
  func choose(in container: Int) -> RMChoice? {
    for level in container == 0 ? [0] : [container, 0] {
      let own = candidates.indices.filter { candidates[$0].container == level }
      if own.isEmpty { continue }
      return RMChooser(
        candidates: own, isDefault: { candidates[$0].isDefault },
        isTest: { candidates[$0].isTest }, owner: { _ in nil }, imports: { _ in [] }
      ).choose(requester: nil)
    }
    return .notRegistered
  }

  /// What `many` gives in `container`: its own candidates, then its parent's.
  func many(in container: Int) -> [Int] {
    (container == 0 ? [0] : [container, 0]).flatMap { level in
      candidates.indices.filter { candidates[$0].container == level }
    }
  }
}

/// The instances the requests must make.
struct RMChildModel {
  struct Instance {
    let node: Int
    let registration: Int
    var dependencies: [Int: Int] = [:]
  }

  let setup: RMChildSetup
  private(set) var instances: [Instance] = []
  private var cache: [[Int: Int]] = [[:], [:], [:]]
  /// The `.objectGraph` instances of the current request.
  private var graph: [Int: Int] = [:]

  init(_ setup: RMChildSetup) { self.setup = setup }

  /// One request for `node` in `container`.
  mutating func resolve(_ node: Int, in container: Int) -> Int {
    graph = [:]
    return make(node, in: container)
  }

  private mutating func make(_ node: Int, in container: Int) -> Int {
    let (registration, owner) = setup.registration(node, in: container)!
    if registration.cached, let id = cache[owner][node] { return id }
    if registration.objectGraph, let id = graph[node] { return id }
    let context = registration.cached ? owner : container
    let id = instances.count
    instances.append(Instance(node: node, registration: 10 * node + owner))
    for need in registration.needs {
      instances[id].dependencies[need] = make(need, in: context)
    }
    if registration.cached { cache[owner][node] = id }
    if registration.objectGraph { graph[node] = id }
    return id
  }

  mutating func clean(_ container: Int) { cache[container] = [:] }
}

struct RMChildMatcher {
  private var pairing = RMPairing()
  private var kept: [AnyObject] = []
  private(set) var problems: [String] = []

  mutating func match(
    _ object: any RMAnyChildNode, _ id: Int, in model: RMChildModel, _ context: String
  ) {
    kept.append(object)
    let expected = model.instances[id]
    let described = "registration \(expected.registration)"
    guard
      pairing.pairsNow(
        object, with: id, node: expected.node, described: described, context, problems: &problems)
    else { return }
    guard object.registration == expected.registration else {
      problems.append(
        "\(context): node \(expected.node) was made by registration \(object.registration),"
          + " expected \(expected.registration)")
      return
    }
    guard Set(object.dependencies.keys) == Set(expected.dependencies.keys) else {
      problems.append(
        "\(context): node \(expected.node) got \(object.dependencies.keys.sorted()), expected"
          + " \(expected.dependencies.keys.sorted())")
      return
    }
    for (need, needID) in expected.dependencies.sorted(by: { $0.key < $1.key }) {
      match(object.dependencies[need]!, needID, in: model, context)
    }
  }
}

// MARK: - Tests

@Suite struct ChildContainerModelTests {
  /// Seeds of cases to run again (add the seed a failure printed).
  static let replaySeeds: [UInt64] = [0x5EED]

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func randomParentAndChildRegistrationsServeAsTheModelSays() async {
    await rmRunCases("child containers", base: 0xC41D, cases: TestEnvironment.rounds(250)) {
      Self.check(seed: $0)
    }
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)), arguments: replaySeeds)
  func replayedCase(seed: UInt64) async {
    let problems = await resultOnThread(20) { Self.check(seed: seed) }
    #expect(problems == [], "\(rmSeed(seed))")
  }

  static let names = ["parent", "child 1", "child 2"]

  static func check(seed: UInt64) -> [String] {
    let setup = RMChildSetup(seed: seed)
    var random = SeededRandom(seed: seed ^ 0x5A5A)
    let label = "setup \(setup)"
    var problems: [String] = []

    // The service: one request of each kind in each container.
    do {
      let containers = setup.make()
      var identities = RMIdentityLog()
      for container in 0..<3 {
        let context = "\(label), service in the \(names[container])"
        if let expected = setup.choose(in: container) {
          for optional in [false, true] {
            problems += ModularityModelTests.compare(
              ModularityModelTests.resolve(
                from: nil, optional: optional, in: containers[container]),
              expected, optional: optional, context, &identities)
          }
        }
        do throws(DIError) {
          let all: DIMany<any RMService> = try containers[container].tryResolve()
          problems += ModularityModelTests.compare(
            list: all.values, setup.many(in: container), "\(context), many", &identities)
        } catch {
          problems.append("\(context), many: failed: \(rmBrief(error))")
        }
      }
    }

    // The components: random requests and cleans of the children, in one family.
    let containers = setup.make()
    var model = RMChildModel(setup)
    var matcher = RMChildMatcher()
    var steps: [String] = []
    for _ in 0..<14 {
      if random.chance(0.15) {
        let child = random.int(1...2)
        containers[child].clean()
        model.clean(child)
        steps.append("clean \(child)")
        continue
      }
      let container = random.int(0...2)
      let node = random.int(0...(RMChildSetup.nodes - 1))
      guard setup.canMake(node, in: container) else { continue }
      steps.append("\(node)@\(container)")
      let context = "\(label), steps \(steps)"
      let expected = model.resolve(node, in: container)
      switch Self.resolve(node, from: containers[container]) {
      case .success(let object): matcher.match(object, expected, in: model, context)
      case .failure(let error): problems.append("\(context): failed: \(rmBrief(error))")
      }
    }
    problems += matcher.problems

    // What cannot be made fails (in a fresh family: a failed request may leave instances).
    for container in 0..<3 {
      for node in 0..<RMChildSetup.nodes where !setup.canMake(node, in: container) {
        let family = setup.make()
        let context = "\(label), \(node) in the \(names[container]) (not makeable)"
        switch Self.resolve(node, from: family[container]) {
        case .success(let object):
          problems.append(
            "\(context): resolved by registration \(object.registration), expected"
              + " .notRegistered")
        case .failure(let error) where error.code != .notRegistered:
          problems.append("\(context): expected .notRegistered, got: \(rmBrief(error))")
        case .failure: break
        }
      }
    }
    return problems
  }

  static func resolve(_ node: Int, from container: DIContainer)
    -> Result<any RMAnyChildNode, DIError>
  {
    func open<D: RMDigit>(_: D.Type) -> Result<any RMAnyChildNode, DIError> {
      do throws(DIError) {
        let node: RMChildNode<D> = try container.tryResolve()
        return .success(node)
      } catch {
        return .failure(error)
      }
    }
    return open(rmDigit(node))
  }
}
