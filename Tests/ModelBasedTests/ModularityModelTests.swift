import DIContainer
import DIFrameworks
import DIParts
import DITestSupport
import Testing

// Random frameworks (and parts) that register candidates of one protocol service, import
// and append one another, and hold components that ask for the service; requests from
// outside, `resolve(from:)` and from inside framework components; `.default()`/`.test()`
// marks at random. The model applies SPEC.md's candidate choice ("Resolution", steps 1, 2,
// 3 and 5) and "Parts and frameworks":
// - "Each component belongs to the innermost framework and part whose load registered it."
// - "A part or framework appended twice to one container loads once."
// - imports are "one level deep"; `resolve(from: F.self)` "resolves as if F asked".
// - "`many` collects across frameworks; `manyInFramework($0)` only within the
//   requester's", "in registration order".
// - optional requests are nil "when the service has no unique candidate";
// - `.perFramework`: "one per framework that registered it; dropped by
//   `clean(framework:)`", `.perPart` likewise with `clean(part:)`, `.perContainer` one per
//   container: the requests run twice, with random `clean(framework:)`/`clean(part:)`
//   between.
//
// Where the SPEC can be read two ways the model computes every reading and skips a request
// whose readings disagree: several `.test()` candidates (do the others stay candidates?),
// several imported frameworks (one step, or one step each in import order?), a request from
// outside every framework (do components registered outside frameworks form step 3's "own"
// step?). `manyInFramework` asked from outside every framework is not made.

// MARK: - Types

/// The protocol service the candidates provide.
protocol RMService: AnyObject {
  /// Which candidate made it.
  var registration: Int { get }
}

/// Candidate `D`.
final class RMImpl<D: RMDigit>: RMService {
  let registration: Int
  init(registration: Int) { self.registration = registration }
}

/// A component that asks for the service (one of the four ways), from where it is
/// registered.
final class RMConsumer<D: RMDigit> {
  let service: (any RMService)?
  let services: [any RMService]
  init(service: (any RMService)?, services: [any RMService] = []) {
    self.service = service
    self.services = services
  }
}

/// Framework `D` of a random setup; its `load` runs the setup's plan for it.
enum RMFramework<D: RMDigit>: DIFramework {
  static func load(container: DIContainer) {
    RMModularPlans.run(.framework(D.value), in: container)
  }
}

/// Part `D` of a random setup.
enum RMPart<D: RMDigit>: DIPart {
  static func load(container: DIContainer) {
    RMModularPlans.run(.part(D.value), in: container)
  }
}

func rmFramework(_ index: Int) -> any DIFramework.Type {
  func open<D: RMDigit>(_: D.Type) -> any DIFramework.Type { RMFramework<D>.self }
  return open(rmDigit(index))
}

func rmPart(_ index: Int) -> any DIPart.Type {
  func open<D: RMDigit>(_: D.Type) -> any DIPart.Type { RMPart<D>.self }
  return open(rmDigit(index))
}

/// The plans of the containers being set up, by container: a framework's `load` is static,
/// so it finds its plan through the container it is given.
enum RMModularPlans {
  enum Loader: Hashable {
    case framework(Int)
    case part(Int)
  }

  private static let plans = LockedValue<[ObjectIdentifier: RMModularSetup]>([:])

  static func run(_ loader: Loader, in container: DIContainer) {
    guard let setup = plans.withLock({ $0[ObjectIdentifier(container)] }) else {
      preconditionFailure("no plan for this container")
    }
    let actions =
      switch loader {
      case .framework(let index): setup.frameworkActions[index]
      case .part(let index): setup.partActions[index]
      }
    for action in actions { setup.perform(action, in: container) }
  }

  /// Sets `container` up as `setup` says.
  static func load(_ setup: RMModularSetup, into container: DIContainer) {
    plans.withLock { $0[ObjectIdentifier(container)] = setup }
    for action in setup.topActions { setup.perform(action, in: container) }
    plans.withLock { $0[ObjectIdentifier(container)] = nil }
  }
}

// MARK: - Setup

struct RMCandidate: Sendable, CustomStringConvertible {
  enum Lifetime: Sendable {
    case prototype, perContainer, perFramework, perPart
  }

  var isDefault = false
  var isTest = false
  var lifetime = Lifetime.prototype

  var cached: Bool { lifetime != .prototype }

  var description: String {
    let lifetime =
      switch lifetime {
      case .prototype: ""
      case .perContainer: "C"
      case .perFramework: "F"
      case .perPart: "P"
      }
    return (isDefault ? "d" : "") + (isTest ? "t" : "") + lifetime
  }
}

enum RMConsumerKind: Sendable, CaseIterable {
  case plain, optional, many, manyInFramework
}

enum RMModularAction: Sendable, CustomStringConvertible {
  case candidate(Int)
  case consumer(Int)
  case importFramework(Int)
  case appendFramework(Int)
  case appendPart(Int)

  var description: String {
    switch self {
    case .candidate(let index): "c\(index)"
    case .consumer(let index): "u\(index)"
    case .importFramework(let index): "import F\(index)"
    case .appendFramework(let index): "append F\(index)"
    case .appendPart(let index): "part P\(index)"
    }
  }
}

/// A random modular setup and what loading it must give.
struct RMModularSetup: Sendable, CustomStringConvertible {
  var candidates: [RMCandidate] = []
  var consumers: [RMConsumerKind] = []
  var frameworkActions: [[RMModularAction]] = []
  var partActions: [[RMModularAction]] = []
  var topActions: [RMModularAction] = []

  init(seed: UInt64) {
    var random = SeededRandom(seed: seed)
    let frameworks = random.int(1...4)
    let parts = random.int(0...2)
    frameworkActions = Array(repeating: [], count: frameworks)
    partActions = Array(repeating: [], count: parts)
    /// Where something is registered: nil outside, else a framework or a part.
    enum Place {
      case outside
      case framework(Int)
      case part(Int)
    }
    func place(_ random: inout SeededRandom, outside: Double) -> Place {
      if random.chance(outside) { return .outside }
      if parts > 0, random.chance(0.25) { return .part(random.int(0...(parts - 1))) }
      return .framework(random.int(0...(frameworks - 1)))
    }
    func add(_ action: RMModularAction, at place: Place) {
      switch place {
      case .outside: topActions.append(action)
      case .framework(let index): frameworkActions[index].append(action)
      case .part(let index): partActions[index].append(action)
      }
    }
    for index in 0..<random.int(0...6) {
      var candidate = RMCandidate()
      candidate.isDefault = random.chance(0.3)
      candidate.isTest = random.chance(0.15)
      let at = place(&random, outside: 0.2)
      let cached = random.chance(0.4)
      switch at {
      case .framework where cached && random.chance(0.6): candidate.lifetime = .perFramework
      case .part where cached && random.chance(0.6): candidate.lifetime = .perPart
      default: candidate.lifetime = cached ? .perContainer : .prototype
      }
      candidates.append(candidate)
      add(.candidate(index), at: at)
    }
    for index in 0..<random.int(0...4) {
      let at = place(&random, outside: 0.25)
      var kind = random.pick(RMConsumerKind.allCases)
      if case .outside = at, kind == .manyInFramework { kind = .many }
      consumers.append(kind)
      add(.consumer(index), at: at)
    }
    for index in 0..<parts {
      add(
        .appendPart(index),
        at: random.chance(0.3) ? .outside : .framework(random.int(0...(frameworks - 1))))
    }
    for importer in 0..<frameworks {
      for other in 0..<frameworks where other != importer {
        if random.chance(0.35) {
          frameworkActions[importer].append(.importFramework(other))
        } else if random.chance(0.1) {
          frameworkActions[importer].append(.appendFramework(other))
        }
      }
    }
    for index in 0..<frameworks {
      topActions.append(.appendFramework(index))
      if random.chance(0.2) { topActions.append(.appendFramework(index)) }
    }
    for index in frameworkActions.indices { frameworkActions[index].shuffle(using: &random) }
    for index in partActions.indices { partActions[index].shuffle(using: &random) }
    topActions.shuffle(using: &random)
  }

  var description: String {
    "candidates \(candidates) consumers \(consumers) top \(topActions) "
      + frameworkActions.indices.map { "F\($0)\(frameworkActions[$0])" }.joined(separator: " ")
      + " " + partActions.indices.map { "P\($0)\(partActions[$0])" }.joined(separator: " ")
  }

  // MARK: Registration

  func perform(_ action: RMModularAction, in container: DIContainer) {
    switch action {
    case .candidate(let index): register(rmDigit(index), candidate: index, in: container)
    case .consumer(let index): register(rmDigit(index), consumer: index, in: container)
    case .importFramework(let index): container.import(rmFramework(index))
    case .appendFramework(let index): container.append(framework: rmFramework(index))
    case .appendPart(let index): container.append(part: rmPart(index))
    }
  }

  private func register<D: RMDigit>(_: D.Type, candidate index: Int, in container: DIContainer) {
    let candidate = candidates[index]
    var builder = container.register { RMImpl<D>(registration: index) }.as(RMService.self)
    switch candidate.lifetime {
    case .prototype: break
    case .perContainer: builder = builder.lifetime(.perContainer(.single))
    case .perFramework: builder = builder.lifetime(.perFramework(.single))
    case .perPart: builder = builder.lifetime(.perPart(.single))
    }
    if candidate.isDefault { builder = builder.default() }
    if candidate.isTest { builder = builder.test() }
  }

  private func register<D: RMDigit>(_: D.Type, consumer index: Int, in container: DIContainer) {
    switch consumers[index] {
    case .plain:
      container.register { (service: any RMService) in RMConsumer<D>(service: service) }
    case .optional:
      container.register { (service: (any RMService)?) in RMConsumer<D>(service: service) }
    case .many:
      container.register { RMConsumer<D>(service: nil, services: many($0)) }
    case .manyInFramework:
      container.register { RMConsumer<D>(service: nil, services: manyInFramework($0)) }
    }
  }

  // MARK: Model

  /// What loading the setup must give: who owns what, in which order it was registered,
  /// and which frameworks each one imports.
  struct Loaded {
    var candidateOwner: [Int: (framework: Int?, part: Int?)] = [:]
    var consumerOwner: [Int: Int?] = [:]
    /// Candidates in registration order.
    var order: [Int] = []
    /// The frameworks each framework imports, in import order.
    var imports: [Int: [Int]] = [:]
  }

  func load() -> Loaded {
    var loaded = Loaded()
    var loadedFrameworks: Set<Int> = []
    var loadedParts: Set<Int> = []
    var frameworkStack: [Int] = []
    var partStack: [Int] = []
    func run(_ actions: [RMModularAction]) {
      for action in actions {
        switch action {
        case .candidate(let index):
          loaded.candidateOwner[index] = (frameworkStack.last, partStack.last)
          loaded.order.append(index)
        case .consumer(let index):
          loaded.consumerOwner[index] = frameworkStack.last
        case .importFramework(let index):
          if let importer = frameworkStack.last, importer != index,
            !loaded.imports[importer, default: []].contains(index)
          {
            loaded.imports[importer, default: []].append(index)
          }
          appendFramework(index)
        case .appendFramework(let index):
          appendFramework(index)
        case .appendPart(let index):
          guard loadedParts.insert(index).inserted else { continue }
          partStack.append(index)
          run(partActions[index])
          partStack.removeLast()
        }
      }
    }
    func appendFramework(_ index: Int) {
      guard loadedFrameworks.insert(index).inserted else { return }
      frameworkStack.append(index)
      // A part appended inside a framework's load belongs to it, not to an outer part.
      let outerParts = partStack
      partStack = []
      run(frameworkActions[index])
      partStack = outerParts
      frameworkStack.removeLast()
    }
    run(topActions)
    return loaded
  }
}

/// The outcome of a request for one service.
enum RMChoice: Equatable, CustomStringConvertible {
  case chosen(Int)
  case notRegistered
  case ambiguous

  var description: String {
    switch self {
    case .chosen(let index): "candidate \(index)"
    case .notRegistered: "not registered"
    case .ambiguous: "ambiguous"
    }
  }

  /// The error code a plain request gets.
  var code: DIError.Code? {
    switch self {
    case .chosen: nil
    case .notRegistered: .notRegistered
    case .ambiguous: .ambiguous
    }
  }
}

/// SPEC.md "Resolution", candidate choice, for requests without runtime arguments.
struct RMChooser {
  /// Every candidate of the request, in registration order.
  let candidates: [Int]
  let isDefault: (Int) -> Bool
  let isTest: (Int) -> Bool
  /// The framework of candidate `index` (nil: registered outside every framework).
  let owner: (Int) -> Int?
  /// The frameworks `framework` imports, in import order.
  let imports: (Int) -> [Int]

  /// The outcome every reading of the SPEC agrees on; nil when they disagree.
  func choose(requester: Int?) -> RMChoice? {
    var outcomes: Set<String> = []
    var first: RMChoice?
    for testsOnly in [false, true] {
      for importStepEach in [false, true] {
        for outsideIsAStep in [false, true] {
          let outcome = choose(
            requester: requester, testsOnly: testsOnly, importStepEach: importStepEach,
            outsideIsAStep: outsideIsAStep)
          first = first ?? outcome
          outcomes.insert(outcome.description)
        }
      }
    }
    return outcomes.count == 1 ? first : nil
  }

  func choose(requester: Int?, testsOnly: Bool, importStepEach: Bool, outsideIsAStep: Bool)
    -> RMChoice
  {
    // 1. candidates by type (and tag).
    guard !candidates.isEmpty else { return .notRegistered }
    if candidates.count == 1 { return .chosen(candidates[0]) }
    // 2. exactly one `.test()` wins.
    var pool = candidates
    let tests = pool.filter(isTest)
    if tests.count == 1 { return .chosen(tests[0]) }
    if tests.count > 1, testsOnly { pool = tests }
    // 3. modularity: the requester's own, then its imports; `.default()` ones first in
    // each step; the first step that leaves exactly one wins.
    var steps: [[Int]] = []
    if let requester {
      steps.append(pool.filter { owner($0) == requester })
      let imported = imports(requester)
      if importStepEach {
        steps += imported.map { framework in pool.filter { owner($0) == framework } }
      } else {
        steps.append(pool.filter { owner($0).map(imported.contains) ?? false })
      }
    } else if outsideIsAStep {
      steps.append(pool.filter { owner($0) == nil })
    }
    for step in steps {
      let defaults = step.filter(isDefault)
      let left = defaults.isEmpty ? step : defaults
      if left.count == 1 { return .chosen(left[0]) }
    }
    // 5. `.default()` ones if any; exactly one left wins.
    let defaults = pool.filter(isDefault)
    let left = defaults.isEmpty ? pool : defaults
    return left.count == 1 ? .chosen(left[0]) : .ambiguous
  }
}

/// Checks that every candidate's objects follow its lifetime: one object for a cached one
/// until its cache is dropped, then a new one; a new one at every request for a
/// `.prototype` one.
struct RMIdentityLog {
  /// The objects seen of each candidate, with the number of drops of its cache before.
  private var seen: [Int: [(epoch: Int, object: ObjectIdentifier)]] = [:]
  private var epochs: [Int: Int] = [:]
  private var kept: [AnyObject] = []

  mutating func saw(_ service: any RMService) {
    let candidate = service.registration
    seen[candidate, default: []].append((epochs[candidate] ?? 0, ObjectIdentifier(service)))
    kept.append(service)
  }

  /// Candidate `candidate`'s cached instance was dropped.
  mutating func dropped(_ candidate: Int) { epochs[candidate, default: 0] += 1 }

  func problems(cached: (Int) -> Bool) -> [String] {
    seen.sorted { $0.key < $1.key }.compactMap { candidate, seen in
      let distinct = Set(seen.map(\.object)).count
      if cached(candidate) {
        let epochs = Dictionary(grouping: seen, by: \.epoch)
        if epochs.values.contains(where: { Set($0.map(\.object)).count != 1 }) {
          return "cached candidate \(candidate) gave several objects between two cleans"
        }
        if distinct != epochs.count {
          return "cached candidate \(candidate) gave the same object after its cache was dropped"
        }
        return nil
      }
      if distinct != seen.count {
        return "prototype candidate \(candidate) gave one object to several requests"
      }
      return nil
    }
  }
}

// MARK: - Tests

@Suite struct ModularityModelTests {
  /// Seeds of cases to run again (add the seed a failure printed).
  static let replaySeeds: [UInt64] = [0x5EED]

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func randomFrameworksChooseTheCandidateTheModelChooses() async {
    await rmRunCases("modularity", base: 0x30D_01A, cases: TestEnvironment.rounds(250)) {
      Self.check(seed: $0)
    }
  }

  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)), arguments: replaySeeds)
  func replayedCase(seed: UInt64) async {
    let problems = await resultOnThread(20) { Self.check(seed: seed) }
    #expect(problems == [], "\(rmSeed(seed))")
  }

  static func check(seed: UInt64) -> [String] {
    let setup = RMModularSetup(seed: seed)
    let loaded = setup.load()
    let container = DIContainer()
    RMModularPlans.load(setup, into: container)
    let label = "setup \(setup)"
    var problems: [String] = []
    var identities = RMIdentityLog()
    let chooser = RMChooser(
      candidates: loaded.order, isDefault: { setup.candidates[$0].isDefault },
      isTest: { setup.candidates[$0].isTest }, owner: { loaded.candidateOwner[$0]!.framework },
      imports: { loaded.imports[$0] ?? [] })
    let frameworks = setup.frameworkActions.indices

    // Validation finds "ambiguous candidates" and "no candidate" exactly where a component
    // that needs the service (not optionally) would fail.
    let consumerChoices = setup.consumers.indices.map { consumer in
      setup.consumers[consumer] == .plain || setup.consumers[consumer] == .optional
        ? chooser.choose(requester: loaded.consumerOwner[consumer]!) : .chosen(-1)
    }
    if !consumerChoices.contains(nil) {
      let found = container.makeGraph().findProblems().filter { $0.severity == .error }
      for (kind, code) in [
        (DIGraph.Problem.Kind.ambiguous, DIError.Code.ambiguous),
        (.notRegistered, .notRegistered),
      ] {
        let plain = setup.consumers.indices.contains {
          setup.consumers[$0] == .plain && consumerChoices[$0]?.code == code
        }
        let any = setup.consumers.indices.contains { consumerChoices[$0]?.code == code }
        let reported = found.contains { $0.kind == kind }
        if plain, !reported {
          problems.append("\(label): validation does not report \(kind) for a consumer")
        }
        if !any, reported {
          problems.append("\(label): validation reports \(kind), no consumer has it")
        }
      }
    }

    // Who owns what, as the graph shows it.
    let components = container.makeGraph().components
    for (candidate, owner) in loaded.candidateOwner.sorted(by: { $0.key < $1.key }) {
      let type = rmImplType(candidate)
      let found = components.filter { $0.type == type }
      guard found.count == 1 else {
        problems.append("\(label): candidate \(candidate) registered \(found.count) times")
        continue
      }
      let framework = owner.framework.map { String(describing: rmFramework($0)) }
      let part = owner.part.map { String(describing: rmPart($0)) }
      if found[0].framework.map(rmUnqualified) != framework
        || found[0].part.map(rmUnqualified) != part
      {
        problems.append(
          "\(label): candidate \(candidate) belongs to \(found[0].framework ?? "no framework")/"
            + "\(found[0].part ?? "no part"), expected \(framework ?? "no framework")/"
            + "\(part ?? "no part")")
      }
    }

    var random = SeededRandom(seed: seed ^ 0x0F0F)
    var cleaned: [String] = []
    for round in 0..<2 {
      if round == 1 {
        // Drop some frameworks' and parts' instances.
        for _ in 0..<random.int(1...3) {
          if !setup.partActions.isEmpty, random.chance(0.4) {
            let part = random.int(0...(setup.partActions.count - 1))
            container.clean(part: rmPart(part))
            cleaned.append("clean(part: P\(part))")
            for (candidate, owner) in loaded.candidateOwner
            where owner.part == part && setup.candidates[candidate].lifetime == .perPart {
              identities.dropped(candidate)
            }
          } else {
            let framework = random.pick(frameworks)
            container.clean(framework: rmFramework(framework))
            cleaned.append("clean(framework: F\(framework))")
            for (candidate, owner) in loaded.candidateOwner
            where owner.framework == framework
              && setup.candidates[candidate].lifetime == .perFramework
            {
              identities.dropped(candidate)
            }
          }
        }
      }
      problems += requests(
        setup, loaded, chooser, container, "\(label)\(cleaned.isEmpty ? "" : ", after \(cleaned)")",
        &identities)
    }
    problems += identities.problems { setup.candidates[$0].cached }.map {
      "\(label) \(cleaned): \($0)"
    }
    return problems
  }

  /// Every kind of request once; their results against the model.
  static func requests(
    _ setup: RMModularSetup, _ loaded: RMModularSetup.Loaded, _ chooser: RMChooser,
    _ container: DIContainer, _ label: String, _ identities: inout RMIdentityLog
  ) -> [String] {
    var problems: [String] = []
    let frameworks = setup.frameworkActions.indices

    // Single requests: from outside, from each framework, plainly and optionally.
    let requesters: [Int?] = [nil] + frameworks.map { $0 }
    for requester in requesters {
      guard let expected = chooser.choose(requester: requester) else { continue }
      let context = "\(label), request from \(requester.map { "F\($0)" } ?? "outside")"
      for optional in [false, true] {
        let got = Self.resolve(from: requester, optional: optional, in: container)
        problems += Self.compare(got, expected, optional: optional, context, &identities)
      }
    }

    // Components that ask for the service from where they are registered.
    for (consumer, kind) in setup.consumers.enumerated() {
      let owner = loaded.consumerOwner[consumer]!
      let context =
        "\(label), consumer u\(consumer) (\(kind)) in \(owner.map { "F\($0)" } ?? "outside")"
      let got = Self.resolveConsumer(consumer, in: container)
      switch kind {
      case .plain, .optional:
        guard let expected = chooser.choose(requester: owner) else { continue }
        let service = got.map { $0.service }
        problems += Self.compare(
          service, expected, optional: kind == .optional, context, &identities)
      case .many, .manyInFramework:
        let expected =
          kind == .many
          ? loaded.order : loaded.order.filter { loaded.candidateOwner[$0]!.framework == owner }
        switch got {
        case .failure(let error):
          problems.append("\(context): failed: \(rmBrief(error))")
        case .success(let consumer):
          problems += Self.compare(list: consumer.services, expected, context, &identities)
        }
      }
    }

    // `many` from outside and `manyInFramework` from each framework.
    do throws(DIError) {
      let all: DIMany<any RMService> = try container.tryResolve()
      problems += Self.compare(list: all.values, loaded.order, "\(label), many", &identities)
      for framework in frameworks {
        let within: DIManyInFramework<any RMService> = try container.tryResolve(
          from: rmFramework(framework))
        problems += Self.compare(
          list: within.values,
          loaded.order.filter { loaded.candidateOwner[$0]!.framework == framework },
          "\(label), manyInFramework from F\(framework)", &identities)
      }
    } catch {
      problems.append("\(label): many failed: \(rmBrief(error))")
    }
    return problems
  }

  static func resolve(from framework: Int?, optional: Bool, in container: DIContainer)
    -> Result<(any RMService)?, DIError>
  {
    do throws(DIError) {
      if let framework {
        if optional {
          let service: (any RMService)? = try container.tryResolve(from: rmFramework(framework))
          return .success(service)
        }
        let service: any RMService = try container.tryResolve(from: rmFramework(framework))
        return .success(service)
      }
      if optional {
        let service: (any RMService)? = try container.tryResolve()
        return .success(service)
      }
      let service: any RMService = try container.tryResolve()
      return .success(service)
    } catch {
      return .failure(error)
    }
  }

  static func resolveConsumer(_ index: Int, in container: DIContainer)
    -> Result<RMConsumerView, DIError>
  {
    func open<D: RMDigit>(_: D.Type) -> Result<RMConsumerView, DIError> {
      do throws(DIError) {
        let consumer: RMConsumer<D> = try container.tryResolve()
        return .success(RMConsumerView(service: consumer.service, services: consumer.services))
      } catch {
        return .failure(error)
      }
    }
    return open(rmDigit(index))
  }

  /// A single request's result against the model's choice.
  static func compare(
    _ got: Result<(any RMService)?, DIError>, _ expected: RMChoice, optional: Bool,
    _ context: String, _ identities: inout RMIdentityLog
  ) -> [String] {
    let context = context + (optional ? " (optional)" : "")
    switch (got, expected) {
    case (.success(let service?), .chosen(let index)):
      identities.saw(service)
      return service.registration == index
        ? [] : ["\(context): got candidate \(service.registration), expected \(expected)"]
    case (.success(nil), .chosen):
      return ["\(context): nil, expected \(expected)"]
    case (.success(nil), _) where optional:
      return []
    case (.success(let service?), _):
      return ["\(context): got candidate \(service.registration), expected \(expected)"]
    case (.success(nil), _):
      return ["\(context): nil from a plain request"]
    case (.failure(let error), _):
      if !optional, let code = expected.code, error.code == code { return [] }
      return ["\(context): failed (.\(error.code)), expected \(expected): \(rmBrief(error))"]
    }
  }

  /// A `many` result against the candidates expected, in registration order.
  static func compare(
    list: [any RMService], _ expected: [Int], _ context: String,
    _ identities: inout RMIdentityLog
  ) -> [String] {
    for service in list { identities.saw(service) }
    let got = list.map(\.registration)
    return got == expected ? [] : ["\(context): got \(got), expected \(expected)"]
  }
}

/// What a consumer received.
struct RMConsumerView {
  let service: (any RMService)?
  let services: [any RMService]
}

/// The implementation type of candidate `index`.
func rmImplType(_ index: Int) -> Any.Type {
  func open<D: RMDigit>(_: D.Type) -> Any.Type { RMImpl<D>.self }
  return open(rmDigit(index))
}
