import DIContainer
import DITestSupport
import Testing

// Random candidates of one protocol service, each registered plainly and/or under random
// tags, with random `.default()`/`.test()` marks and lifetimes; some of them collect the
// service themselves (`many($0)`, as the SPEC's `MainLogger`). Requests: plain, by tag,
// optional, `many`. The model follows SPEC.md "Resolution":
// - "candidates by type (and by tag, when a tag is given)", then the `.test()` and
//   `.default()` rules; "Not registered" when the type exists only under a tag (a tagged
//   component is not a candidate of a plain request);
// - optional requests are nil "when the service has no unique candidate";
// - "`many` collects every candidate in registration order, leaving out components that
//   are under construction in the same request".
// Left out: tag combinations and `many` of a tagged service (the SPEC shows neither), and
// whether a plain `many` collects components registered under a tag only (the SPEC says
// "every candidate"; the model computes both readings and checks `many` only where they
// agree).

// MARK: - Types

enum RMTag0 {}
enum RMTag1 {}
enum RMTag2 {}

/// A candidate that collects every candidate of the service (`many($0)`).
protocol RMCollecting {
  var members: [any RMService] { get }
}

/// Collecting candidate `D`.
final class RMCollector<D: RMDigit>: RMService, RMCollecting {
  let registration: Int
  let members: [any RMService]
  init(registration: Int, members: [any RMService]) {
    self.registration = registration
    self.members = members
  }
}

// MARK: - Setup

struct RMTagCandidate: Sendable, CustomStringConvertible {
  var plain = true
  var tags: [Int] = []
  var isDefault = false
  var isTest = false
  var cached = false
  var collects = false

  var description: String {
    (plain ? "p" : "") + tags.map { "t\($0)" }.joined() + (isDefault ? "d" : "")
      + (isTest ? "T" : "") + (cached ? "C" : "") + (collects ? "*" : "")
  }
}

struct RMTagSetup: Sendable, CustomStringConvertible {
  var candidates: [RMTagCandidate] = []

  init(seed: UInt64) {
    var random = SeededRandom(seed: seed)
    var collectors = 0
    // Some setups have no component registered under a tag only, so `many` is checked.
    let tagOnly = random.chance(0.6)
    for _ in 0..<random.int(0...7) {
      var candidate = RMTagCandidate()
      candidate.plain = !tagOnly || random.chance(0.65)
      candidate.tags = (0..<3).filter { _ in random.chance(0.35) }
      candidate.isDefault = random.chance(0.25)
      candidate.isTest = random.chance(0.12)
      if collectors < 3, random.chance(0.2) {
        candidate.collects = true
        collectors += 1
      } else {
        candidate.cached = random.chance(0.35)
      }
      candidates.append(candidate)
    }
  }

  var description: String { "candidates \(candidates)" }

  func register(in container: DIContainer) {
    for index in candidates.indices { register(rmDigit(index), index, in: container) }
  }

  private func register<D: RMDigit>(_: D.Type, _ index: Int, in container: DIContainer) {
    let candidate = candidates[index]
    if candidate.collects {
      apply(
        candidate,
        container.register { RMCollector<D>(registration: index, members: many($0)) })
    } else {
      apply(candidate, container.register { RMImpl<D>(registration: index) })
    }
  }

  private func apply<Impl: RMService>(
    _ candidate: RMTagCandidate, _ start: DIComponentBuilder<Impl>
  ) {
    var builder = start
    if candidate.plain { builder = builder.as(RMService.self) }
    for tag in candidate.tags {
      switch tag {
      case 0: builder = builder.as(RMService.self, tag: RMTag0.self)
      case 1: builder = builder.as(RMService.self, tag: RMTag1.self)
      default: builder = builder.as(RMService.self, tag: RMTag2.self)
      }
    }
    if candidate.cached { builder = builder.lifetime(.perContainer(.single)) }
    if candidate.isDefault { builder = builder.default() }
    if candidate.isTest { builder = builder.test() }
  }

  // MARK: Model

  /// The candidates of a plain request (`tag` nil) or of a request by tag, in registration
  /// order.
  func candidates(tag: Int?) -> [Int] {
    candidates.indices.filter { index in
      tag.map { candidates[index].tags.contains($0) } ?? candidates[index].plain
    }
  }

  func choose(tag: Int?) -> RMChoice? {
    RMChooser(
      candidates: candidates(tag: tag), isDefault: { candidates[$0].isDefault },
      isTest: { candidates[$0].isTest }, owner: { _ in nil }, imports: { _ in [] }
    ).choose(requester: nil)
  }

  /// What an object of candidate `index` must hold when made while `building` are under
  /// construction: nil for a plain candidate, else the members it collects.
  indirect enum Shape: Equatable, CustomStringConvertible {
    case leaf(Int)
    case collector(Int, [Shape])

    var description: String {
      switch self {
      case .leaf(let index): "\(index)"
      case .collector(let index, let members): "\(index)\(members)"
      }
    }
  }

  func shape(of index: Int, building: [Int] = [], taggedInMany: Bool) -> Shape {
    guard candidates[index].collects else { return .leaf(index) }
    let building = building + [index]
    return .collector(
      index,
      collected(taggedInMany: taggedInMany).filter { !building.contains($0) }.map {
        shape(of: $0, building: building, taggedInMany: taggedInMany)
      })
  }

  /// What a plain `many` collects, in registration order: the plain candidates, and those
  /// registered under a tag only when `taggedInMany`.
  func collected(taggedInMany: Bool) -> [Int] {
    candidates.indices.filter {
      candidates[$0].plain || (taggedInMany && !candidates[$0].tags.isEmpty)
    }
  }

  /// The shape of candidate `index` every reading agrees on; nil when they disagree.
  func shape(of index: Int) -> Shape? {
    let shapes = [false, true].map { shape(of: index, taggedInMany: $0) }
    return shapes[0] == shapes[1] ? shapes[0] : nil
  }

  /// What a plain `many` gives, if every reading agrees.
  func manyShapes() -> [Shape]? {
    let readings = [false, true].map { tagged in
      collected(taggedInMany: tagged).map { shape(of: $0, taggedInMany: tagged) }
    }
    return readings[0] == readings[1] ? readings[0] : nil
  }

  static func shape(of service: any RMService) -> Shape {
    if let collector = service as? any RMCollecting {
      return .collector(service.registration, collector.members.map(shape(of:)))
    }
    return .leaf(service.registration)
  }
}

// MARK: - Tests

@Suite struct TagModelTests {
  /// Seeds of cases to run again (add the seed a failure printed).
  static let replaySeeds: [UInt64] = [0x5EED]

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func randomTagsDefaultsAndManyGiveWhatTheModelGives() async {
    await rmRunCases("tags", base: 0x7A65, cases: TestEnvironment.rounds(300)) {
      Self.check(seed: $0)
    }
  }

  /// Validation finds "cycles that cannot be built (by exactly the rule resolution follows,
  /// so validation and resolution never disagree)": a component that collects its own
  /// service (`many($0)`) leaves itself out, so it is no loop, and every request above
  /// resolves.
  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func randomCollectorsAreNoCycleForValidation() async {
    await rmRunCases("tags (validation)", base: 0x7A65, cases: TestEnvironment.rounds(300)) {
      seed in
      let setup = RMTagSetup(seed: seed)
      let container = DIContainer()
      setup.register(in: container)
      let cycles = container.makeGraph().findProblems().filter {
        $0.kind == .cycle && $0.severity == .error
      }
      return cycles.map { "setup \(setup): validation reports \(rmUnqualified($0.description))" }
    }
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)), arguments: replaySeeds)
  func replayedCase(seed: UInt64) async {
    let problems = await resultOnThread(20) { Self.check(seed: seed) }
    #expect(problems == [], "\(rmSeed(seed))")
  }

  // MARK: Minimized from the random cases

  /// SPEC.md's registration example (from the registration seed): `MainLogger` collects
  /// the other loggers and is the `.default()` one. It resolves as the SPEC says, so
  /// validation, which follows "exactly the rule resolution follows", must not call it a
  /// cycle. Found by `randomCollectorsAreNoCycleForValidation` (any setup with a plain
  /// collecting candidate, e.g. seed 0x3a98f1d97eadda82).
  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func validationAcceptsTheSpecMainLoggerThatCollectsTheOthers() throws {
    let container = DIContainer()
    container.register(RMCrashlyticsLogger.init).as(RMLogger.self)
    container.register(RMFileLogger.init).as(RMLogger.self)
    container.register(RMConsoleLogger.init).as(RMLogger.self)
    container.register { RMMainLogger(loggers: many($0)) }
      .as(RMLogger.self)
      .default()

    let logger: RMLogger = try container.tryResolve()
    let main = try #require(logger as? RMMainLogger)
    #expect(main.loggers.count == 3, "it resolves, with the three other loggers")

    let graph = container.makeGraph()
    let cycles = graph.findProblems().filter { $0.kind == .cycle }
    #expect(cycles.isEmpty, "validation reports a cycle that resolution builds: \(cycles)")
    let valid = graph.checkIsValid()
    #expect(valid, "checkIsValid() rejects the SPEC's own example")
  }

  static func check(seed: UInt64) -> [String] {
    let setup = RMTagSetup(seed: seed)
    let container = DIContainer()
    setup.register(in: container)
    let label = "setup \(setup)"
    var problems: [String] = []
    var objects = RMObjectLog()
    var unused = RMIdentityLog()

    for tag in [nil, 0, 1, 2] as [Int?] {
      guard let expected = setup.choose(tag: tag) else { continue }
      for optional in [false, true] {
        let context = "\(label), request \(tag.map { "by tag \($0)" } ?? "plain")"
        let got = Self.resolve(tag: tag, optional: optional, in: container)
        problems += ModularityModelTests.compare(
          got, expected, optional: optional, context, &unused)
        if case .success(let service?) = got, case .chosen(let index) = expected {
          objects.note(service)
          let shape = RMTagSetup.shape(of: service)
          if let expected = setup.shape(of: index), shape != expected {
            problems.append("\(context): got \(shape), expected \(expected)")
          }
        }
      }
    }

    // Each plain candidate by its own type: "`.as(Animal.self)` // service: resolvable as
    // Animal too", and one instance per component across its services.
    for (index, candidate) in setup.candidates.enumerated()
    where !candidate.collects && (candidate.plain || candidate.tags.isEmpty) {
      switch Self.resolveImplementation(index, in: container) {
      case .success(let service):
        objects.note(service)
        if service.registration != index {
          problems.append("\(label): RMImpl \(index) made by candidate \(service.registration)")
        }
      case .failure(let error):
        problems.append("\(label): candidate \(index) by its own type: \(rmBrief(error))")
      }
    }

    do throws(DIError) {
      let all: DIMany<any RMService> = try container.tryResolve()
      let got = all.values.map(RMTagSetup.shape(of:))
      if let expected = setup.manyShapes(), got != expected {
        problems.append("\(label), many: got \(got), expected \(expected)")
      }
      for service in all.values { objects.note(service) }
    } catch {
      problems.append("\(label), many: failed: \(rmBrief(error))")
    }
    problems += objects.problems { setup.candidates[$0].cached }.map { "\(label): \($0)" }
    return problems
  }

  static func resolveImplementation(_ index: Int, in container: DIContainer)
    -> Result<any RMService, DIError>
  {
    func open<D: RMDigit>(_: D.Type) -> Result<any RMService, DIError> {
      do throws(DIError) {
        let service: RMImpl<D> = try container.tryResolve()
        return .success(service)
      } catch {
        return .failure(error)
      }
    }
    return open(rmDigit(index))
  }

  static func resolve(tag: Int?, optional: Bool, in container: DIContainer)
    -> Result<(any RMService)?, DIError>
  {
    func tagged<Tag>(_: Tag.Type) -> Result<(any RMService)?, DIError> {
      do throws(DIError) {
        if optional {
          let found: DIByTag<Tag, (any RMService)?> = try container.tryResolve()
          return .success(by(tag: Tag.self, on: found))
        }
        let found: DIByTag<Tag, any RMService> = try container.tryResolve()
        return .success(by(tag: Tag.self, on: found))
      } catch {
        return .failure(error)
      }
    }
    switch tag {
    case 0: return tagged(RMTag0.self)
    case 1: return tagged(RMTag1.self)
    case 2: return tagged(RMTag2.self)
    default: return ModularityModelTests.resolve(from: nil, optional: optional, in: container)
    }
  }
}

protocol RMLogger: AnyObject {}
final class RMCrashlyticsLogger: RMLogger {}
final class RMFileLogger: RMLogger {}
final class RMConsoleLogger: RMLogger {}
final class RMMainLogger: RMLogger {
  let loggers: [RMLogger]
  init(loggers: [RMLogger]) { self.loggers = loggers }
}

/// Every object a case saw, members of collectors included, for the lifetime checks.
struct RMObjectLog {
  var identities = RMIdentityLog()
  private var seen: Set<ObjectIdentifier> = []
  private var kept: [AnyObject] = []

  /// Notes `service` and, for a collector, its members (a collector's members once).
  mutating func note(_ service: any RMService) {
    kept.append(service)
    identities.saw(service)
    guard seen.insert(ObjectIdentifier(service)).inserted else { return }
    if let collector = service as? any RMCollecting {
      for member in collector.members { note(member) }
    }
  }

  func problems(cached: (Int) -> Bool) -> [String] {
    identities.problems(cached: cached)
  }
}
