import DIContainer
import DITestSupport
import Testing

// ServiceList (a component's services) and Snapshot's
// `taggedCollections` + table (for `many`), against a model of the logic they replaced
// (c8540b6: `ComponentDraft.provide(_:)` and `Snapshot.collections`).

private protocol SLRP: AnyObject {}
private protocol SLRQ: AnyObject {}
private class SLRBase: SLRP, SLRQ {
  let id: Int
  init(id: Int) { self.id = id }
}
private final class SLRX0: SLRBase {}
private final class SLRX1: SLRBase {}
private final class SLRX2: SLRBase {}
private enum SLRT0 {}
private enum SLRT1 {}
private enum SLRT2 {}

private final class SLRConsumer {
  let p: any SLRP
  init(p: any SLRP) { self.p = p }
}

/// A service key of the model, as the old code compared them.
private struct MKey: Hashable, CustomStringConvertible {
  let type: ObjectIdentifier
  let tag: ObjectIdentifier?
  let text: String
  init(_ type: Any.Type, tag: Any.Type? = nil) {
    self.type = ObjectIdentifier(type)
    self.tag = tag.map(ObjectIdentifier.init)
    text = "\(type)" + (tag.map { "@\($0)" } ?? "")
  }
  static func == (l: MKey, r: MKey) -> Bool { l.type == r.type && l.tag == r.tag }
  func hash(into h: inout Hasher) {
    h.combine(type)
    h.combine(tag)
  }
  var description: String { text }
}

/// The old `ComponentDraft.provide(_:)`, verbatim but for the types.
private struct OldServices {
  let implementation: Any.Type
  var services: [MKey]
  var isImplementationAsked = false
  init(_ implementation: Any.Type) {
    self.implementation = implementation
    services = [MKey(implementation)]
  }
  mutating func provide(_ service: MKey) {
    let plain = MKey(implementation)
    if service.type == plain.type {
      if service.tag == nil {
        isImplementationAsked = true
      } else if !isImplementationAsked {
        services.removeAll { $0 == plain }
      }
    }
    if service == plain, !services.contains(plain) {
      services.insert(service, at: 0)
    } else if !services.contains(service) {
      services.append(service)
    }
  }
}

/// One `.as` call: service 0 = the implementation type, 1 = SLRP, 2 = SLRQ, 3 = SLRBase;
/// tag nil or 0...2.
private struct Op: CustomStringConvertible {
  let service: Int
  let tag: Int?
  var description: String {
    let s = ["Impl", "P", "Q", "Base"][service]
    return tag.map { ".as(\(s), tag: T\($0))" } ?? ".as(\(s))"
  }
}

private let tagTypes: [Any.Type] = [SLRT0.self, SLRT1.self, SLRT2.self]
private let implTypes: [Any.Type] = [SLRX0.self, SLRX1.self, SLRX2.self]

private func serviceType(_ op: Op, impl: Any.Type) -> Any.Type {
  [impl, SLRP.self, SLRQ.self, SLRBase.self][op.service]
}

private func applyTag<Impl, S>(_ b: DIComponentBuilder<Impl>, _ s: S.Type, _ tag: Int?)
  -> DIComponentBuilder<Impl>
{
  switch tag {
  case nil: return b.as(S.self)
  case 0: return b.as(S.self, tag: SLRT0.self)
  case 1: return b.as(S.self, tag: SLRT1.self)
  default: return b.as(S.self, tag: SLRT2.self)
  }
}

private func apply<Impl>(_ b: DIComponentBuilder<Impl>, _ op: Op) -> DIComponentBuilder<Impl> {
  switch op.service {
  case 0: return applyTag(b, Impl.self, op.tag)
  case 1: return applyTag(b, (any SLRP).self, op.tag)
  case 2: return applyTag(b, (any SLRQ).self, op.tag)
  default: return applyTag(b, SLRBase.self, op.tag)
  }
}

/// A registration of the model.
private struct Reg: CustomStringConvertible {
  let id: Int
  let impl: Int
  let ops: [Op]
  let singleton: Bool
  let isDefault: Bool
  var services: [MKey] {
    var model = OldServices(implTypes[impl])
    for op in ops {
      model.provide(MKey(serviceType(op, impl: implTypes[impl]), tag: op.tag.map { tagTypes[$0] }))
    }
    return model.services
  }
  var description: String {
    "#\(id) X\(impl)\(ops.map(\.description).joined())\(singleton ? ".single" : "")\(isDefault ? ".default()" : "")"
  }
}

@discardableResult
private func register(_ reg: Reg, in container: DIContainer) -> Any {
  func go<Impl: SLRBase>(_: Impl.Type, _ make: @escaping @Sendable () -> Impl) {
    var b = container.register(make)
    for op in reg.ops { b = apply(b, op) }
    if reg.singleton { b = b.lifetime(.perContainer(.single)) }
    if reg.isDefault { b = b.default() }
  }
  let id = reg.id
  switch reg.impl {
  case 0: go(SLRX0.self) { SLRX0(id: id) }
  case 1: go(SLRX1.self) { SLRX1(id: id) }
  default: go(SLRX2.self) { SLRX2(id: id) }
  }
  return ()
}

private func randomReg(id: Int, _ rng: inout SeededRandom) -> Reg {
  let count = Int.random(in: 0...6, using: &rng)
  var ops: [Op] = []
  for _ in 0..<count {
    let service = Int.random(in: 0..<10, using: &rng) < 5 ? 0 : Int.random(in: 1...3, using: &rng)
    let tag: Int? =
      Int.random(in: 0..<10, using: &rng) < 4 ? nil : Int.random(in: 0..<3, using: &rng)
    ops.append(Op(service: service, tag: tag))
  }
  return Reg(
    id: id, impl: Int.random(in: 0..<3, using: &rng), ops: ops,
    singleton: Bool.random(using: &rng), isDefault: Int.random(in: 0..<8, using: &rng) == 0)
}

/// What a request shows.
private struct Observed: Equatable, CustomStringConvertible {
  var many: [Int]
  var optional: Int?
  /// "ok:<id>", or the error code.
  var outcome: String
  var description: String {
    "many \(many), optional \(optional.map(String.init) ?? "nil"), \(outcome)"
  }
}

private func idOf<S>(_ value: S) -> Int { (value as! SLRBase).id }

private func outcome<S>(_ body: () throws(DIError) -> S) -> String {
  do throws(DIError) {
    return "ok:\(idOf(try body()))"
  } catch {
    return "\(error.code)"
  }
}

/// Also checks a trapping `resolve()` (the inlinable path) when the request is unique:
/// the same id twice, the same object when `singleton`.
private func checkTrapping<S>(
  _ expected: String, singleton: (Int) -> Bool, _ what: String, _ make: () -> S
) {
  guard expected.hasPrefix("ok:"), let id = Int(expected.dropFirst(3)) else { return }
  let a = make()
  let b = make()
  #expect(idOf(a) == id && idOf(b) == id, "\(what): trapping resolve")
  #expect(
    (ObjectIdentifier(a as AnyObject) == ObjectIdentifier(b as AnyObject)) == singleton(id),
    "\(what): singleton identity")
}

private func observe<S>(_ c: DIContainer, _: S.Type, singleton: (Int) -> Bool) -> Observed {
  let m: [S] = many(c.resolve())
  let o: S? = c.resolve()
  let r = outcome { () throws(DIError) -> S in try c.tryResolve() }
  checkTrapping(r, singleton: singleton, "\(S.self)") { () -> S in c.resolve() }
  return Observed(many: m.map(idOf), optional: o.map(idOf), outcome: r)
}

private func observe<S, T>(_ c: DIContainer, _: S.Type, _: T.Type, singleton: (Int) -> Bool)
  -> Observed
{
  let m: [S] = many(by(tag: T.self, on: c.resolve()))
  let o: S? = by(tag: T.self, on: c.resolve())
  let r = outcome { () throws(DIError) -> S in
    let v: DIByTag<T, S> = try c.tryResolve()
    return by(tag: T.self, on: v)
  }
  checkTrapping(r, singleton: singleton, "\(S.self)@\(T.self)") { () -> S in
    by(tag: T.self, on: c.resolve())
  }
  return Observed(many: m.map(idOf), optional: o.map(idOf), outcome: r)
}

private func observe<S, T, U>(
  _ c: DIContainer, _: S.Type, _: T.Type, _: U.Type, singleton: (Int) -> Bool
) -> Observed {
  let m: [S] = many(by(tags: T.self, U.self, on: c.resolve()))
  let o: S? = by(tags: T.self, U.self, on: c.resolve())
  let nested: S? = by(tag: U.self, on: by(tag: T.self, on: c.resolve()))
  #expect(nested.map(idOf) == o.map(idOf), "nested tags \(S.self)@\(T.self)&\(U.self)")
  let r = outcome { () throws(DIError) -> S in
    let v: DIByTags<S, T, U> = try c.tryResolve()
    return by(tags: T.self, U.self, on: v)
  }
  checkTrapping(r, singleton: singleton, "\(S.self)@\(T.self)&\(U.self)") { () -> S in
    by(tags: T.self, U.self, on: c.resolve())
  }
  return Observed(many: m.map(idOf), optional: o.map(idOf), outcome: r)
}

private func observe<S, T, U, V>(
  _ c: DIContainer, _: S.Type, _: T.Type, _: U.Type, _: V.Type, singleton: (Int) -> Bool
) -> Observed {
  let m: [S] = many(by(tags: T.self, U.self, V.self, on: c.resolve()))
  let o: S? = by(tags: T.self, U.self, V.self, on: c.resolve())
  let r = outcome { () throws(DIError) -> S in
    let v: DIByTags<S, T, U, V> = try c.tryResolve()
    return by(tags: T.self, U.self, V.self, on: v)
  }
  return Observed(many: m.map(idOf), optional: o.map(idOf), outcome: r)
}

/// Every query of one service type: untagged, each tag, each pair, all three.
private func observeAll<S>(_ c: DIContainer, _ s: S.Type, singleton: (Int) -> Bool)
  -> [[Int]: Observed]
{
  var out: [[Int]: Observed] = [:]
  out[[]] = observe(c, s, singleton: singleton)
  out[[0]] = observe(c, s, SLRT0.self, singleton: singleton)
  out[[1]] = observe(c, s, SLRT1.self, singleton: singleton)
  out[[2]] = observe(c, s, SLRT2.self, singleton: singleton)
  out[[0, 1]] = observe(c, s, SLRT0.self, SLRT1.self, singleton: singleton)
  out[[0, 2]] = observe(c, s, SLRT0.self, SLRT2.self, singleton: singleton)
  out[[1, 2]] = observe(c, s, SLRT1.self, SLRT2.self, singleton: singleton)
  out[[0, 1, 2]] = observe(c, s, SLRT0.self, SLRT1.self, SLRT2.self, singleton: singleton)
  return out
}

private let queryTypes: [Any.Type] = [
  (any SLRP).self, (any SLRQ).self, SLRBase.self, SLRX0.self, SLRX1.self, SLRX2.self,
]

private func observeEverything(_ c: DIContainer, singleton: (Int) -> Bool) -> [String: Observed] {
  var out: [String: Observed] = [:]
  func add(_ type: Any.Type, _ results: [[Int]: Observed]) {
    for (tags, o) in results { out["\(type)\(tags)"] = o }
  }
  add(queryTypes[0], observeAll(c, (any SLRP).self, singleton: singleton))
  add(queryTypes[1], observeAll(c, (any SLRQ).self, singleton: singleton))
  add(queryTypes[2], observeAll(c, SLRBase.self, singleton: singleton))
  add(queryTypes[3], observeAll(c, SLRX0.self, singleton: singleton))
  add(queryTypes[4], observeAll(c, SLRX1.self, singleton: singleton))
  add(queryTypes[5], observeAll(c, SLRX2.self, singleton: singleton))
  return out
}

/// What the old code would show: `levels` is the container's registrations first, then
/// each parent's.
private func expectEverything(_ levels: [[Reg]]) -> [String: Observed] {
  var out: [String: Observed] = [:]
  let tagCombos: [[Int]] = [[], [0], [1], [2], [0, 1], [0, 2], [1, 2], [0, 1, 2]]
  for type in queryTypes {
    let plain = MKey(type)
    for tags in tagCombos {
      func provides(_ reg: Reg) -> Bool {
        let services = reg.services
        if tags.isEmpty { return services.contains(plain) }
        return tags.allSatisfy { services.contains(MKey(type, tag: tagTypes[$0])) }
      }
      // many: the old `collections` (a plain key also collects tagged components).
      var manyIDs: [Int] = []
      for level in levels {
        for reg in level {
          let services = reg.services
          let collected =
            tags.isEmpty ? services.contains { $0.type == plain.type } : provides(reg)
          if collected { manyIDs.append(reg.id) }
        }
      }
      // One request: the first level with candidates decides.
      var optional: Int?
      var result = "notRegistered"
      for level in levels {
        let candidates = level.filter(provides)
        if candidates.isEmpty { continue }
        let defaults = candidates.filter(\.isDefault)
        let chosen =
          candidates.count == 1 ? candidates[0] : (defaults.count == 1 ? defaults[0] : nil)
        optional = chosen?.id
        result = chosen.map { "ok:\($0.id)" } ?? "ambiguous"
        break
      }
      out["\(type)\(tags)"] = Observed(many: manyIDs, optional: optional, outcome: result)
    }
  }
  return out
}

private func compare(
  _ observed: [String: Observed], _ expected: [String: Observed], _ context: String
) -> Int {
  var failures = 0
  for key in expected.keys.sorted() where observed[key] != expected[key] {
    failures += 1
    Issue.record(
      "\(context)\n  \(key): observed \(observed[key].map(\.description) ?? "-"), expected \(expected[key]!)"
    )
  }
  return failures
}

private func graphServices(_ c: DIContainer) -> [[MKey]] {
  c.makeGraph().components.map { component in
    component.services.map { MKey($0.type, tag: $0.tag) }
  }
}

@Suite struct ServiceListTests {
  /// Every sequence of up to four `.as` calls over an alphabet that stresses the
  /// implementation's own key: the services, in order, are the old `provide`'s.
  @Test func everyShortSequenceProvidesWhatTheOldLogicProvided() {
    let alphabet: [Op] = [
      Op(service: 0, tag: nil), Op(service: 0, tag: 0), Op(service: 0, tag: 1),
      Op(service: 1, tag: nil), Op(service: 1, tag: 0), Op(service: 3, tag: 2),
    ]
    var sequences: [[Op]] = [[]]
    var frontier: [[Op]] = [[]]
    for _ in 0..<4 {
      frontier = frontier.flatMap { s in alphabet.map { s + [$0] } }
      sequences += frontier
    }
    var failures = 0
    // Several registrations per container, so the graph's order is checked too.
    for chunk in stride(from: 0, to: sequences.count, by: 16) {
      let container = DIContainer()
      let regs = sequences[chunk..<min(chunk + 16, sequences.count)].enumerated().map {
        Reg(id: $0.offset, impl: $0.offset % 3, ops: $0.element, singleton: false, isDefault: false)
      }
      for reg in regs { register(reg, in: container) }
      let observed = graphServices(container)
      #expect(observed.count == regs.count)
      for (reg, services) in zip(regs, observed) where services != reg.services {
        failures += 1
        if failures < 20 {
          Issue.record("\(reg): graph services \(services), old provide \(reg.services)")
        }
      }
    }
    #expect(failures == 0)
  }

  /// Random registrations (several components, tags, defaults, singletons): the graph's
  /// services, `many`, tagged and intersection requests, optional requests, ambiguity
  /// and not-registered errors, trapping `resolve()`, as the old logic says.
  @Test(arguments: 0..<60)
  func randomRegistrationsBehaveAsTheOldLogic(seed: UInt64) {
    var rng = SeededRandom(seed: 0x5E41_1CE0 &+ seed)
    let count = Int.random(in: 1...7, using: &rng)
    let regs = (0..<count).map { randomReg(id: $0, &rng) }
    let container = DIContainer()
    for reg in regs { register(reg, in: container) }
    let context = "seed \(seed): " + regs.map(\.description).joined(separator: "; ")
    let singletons = Set(regs.filter(\.singleton).map(\.id))

    let services = graphServices(container)
    #expect(services == regs.map(\.services), "\(context)")

    var failures = compare(
      observeEverything(container) { singletons.contains($0) }, expectEverything([regs]),
      context)
    // Twice: the second time reads the published singletons.
    failures += compare(
      observeEverything(container) { singletons.contains($0) }, expectEverything([regs]),
      context + " (again)")
    #expect(failures == 0)

    // Graph validation of a root that needs one `SLRP`, plain or under `SLRT0`.
    let plainIDs = regs.filter { $0.services.contains(MKey((any SLRP).self)) }
    let taggedIDs = regs.filter { $0.services.contains(MKey((any SLRP).self, tag: SLRT0.self)) }
    func unique(_ c: [Reg]) -> Bool {
      c.count == 1 || c.filter(\.isDefault).count == 1
    }
    let validated = DIContainer()
    for reg in regs { register(reg, in: validated) }
    let tagged = seed % 2 == 0
    if tagged {
      validated.register { SLRConsumer(p: by(tag: SLRT0.self, on: $0)) }.root()
    } else {
      validated.register(SLRConsumer.init).root()
    }
    let valid = validated.makeGraph().checkIsValid()
    #expect(
      valid == unique(tagged ? taggedIDs : plainIDs), "\(context): validation, tagged \(tagged)")
  }

  /// A child container with registrations of its own: its collection then the parent's,
  /// its candidates hiding the parent's.
  @Test(arguments: 0..<40)
  func childContainersBehaveAsTheOldLogic(seed: UInt64) {
    var rng = SeededRandom(seed: 0xC41D &+ seed)
    let parentRegs = (0..<Int.random(in: 0...5, using: &rng)).map { randomReg(id: $0, &rng) }
    let childRegs = (0..<Int.random(in: 0...4, using: &rng)).map {
      randomReg(id: 100 + $0, &rng)
    }
    let parent = DIContainer()
    for reg in parentRegs { register(reg, in: parent) }
    let child = DIContainer(parent: parent)
    for reg in childRegs { register(reg, in: child) }
    let context =
      "seed \(seed): parent " + parentRegs.map(\.description).joined(separator: "; ")
      + " | child " + childRegs.map(\.description).joined(separator: "; ")
    let singletons = Set((parentRegs + childRegs).filter(\.singleton).map(\.id))
    var failures = compare(
      observeEverything(child) { singletons.contains($0) },
      expectEverything([childRegs, parentRegs]),
      context + " (child)")
    failures += compare(
      observeEverything(parent) { singletons.contains($0) }, expectEverything([parentRegs]),
      context + " (parent)")
    failures += compare(
      observeEverything(child) { singletons.contains($0) },
      expectEverything([childRegs, parentRegs]),
      context + " (child again)")
    #expect(failures == 0)
  }

  /// The not-registered hint names the tags a type is registered under (read from the
  /// collection of its plain key).
  @Test(arguments: 0..<30)
  func notRegisteredHintsNameTheTags(seed: UInt64) {
    var rng = SeededRandom(seed: 0x417 &+ seed)
    let regs = (0..<Int.random(in: 1...5, using: &rng)).map { randomReg(id: $0, &rng) }
    let container = DIContainer()
    for reg in regs { register(reg, in: container) }
    let context = "seed \(seed): " + regs.map(\.description).joined(separator: "; ")
    func check<S>(_: S.Type) {
      let plain = MKey(S.self)
      let all = regs.flatMap(\.services)
      guard !all.contains(plain) else { return }
      let tags = Set(all.filter { $0.type == plain.type }.compactMap(\.tag))
      let expected = tagTypes.filter { tags.contains(ObjectIdentifier($0)) }.map { "\($0)" }
      do throws(DIError) {
        let _: S = try container.tryResolve()
        Issue.record("\(context): \(S.self) resolved")
      } catch {
        #expect(error.code == .notRegistered, "\(context)")
        let text = error.description
        #expect(text.contains("registered only under") == !expected.isEmpty, "\(context): \(text)")
        for tag in expected { #expect(text.contains(tag), "\(context): \(text) lacks \(tag)") }
      }
    }
    check((any SLRP).self)
    check((any SLRQ).self)
    check(SLRBase.self)
    check(SLRX0.self)
    check(SLRX1.self)
    check(SLRX2.self)
  }

  /// A handful of named shapes, spelled out.
  @Test func namedShapes() {
    let x = MKey(SLRX0.self)
    let x0 = MKey(SLRX0.self, tag: SLRT0.self)
    let x1 = MKey(SLRX0.self, tag: SLRT1.self)
    let p = MKey((any SLRP).self)
    let shapes: [([Op], [MKey])] = [
      ([], [x]),
      ([Op(service: 0, tag: 0)], [x0]),
      ([Op(service: 0, tag: 0), Op(service: 0, tag: nil)], [x, x0]),
      ([Op(service: 0, tag: nil), Op(service: 0, tag: 0)], [x, x0]),
      ([Op(service: 1, tag: nil), Op(service: 0, tag: 0), Op(service: 0, tag: nil)], [x, p, x0]),
      ([Op(service: 0, tag: 0), Op(service: 0, tag: 1), Op(service: 0, tag: 0)], [x0, x1]),
      ([Op(service: 1, tag: nil), Op(service: 1, tag: nil), Op(service: 0, tag: nil)], [x, p]),
    ]
    for (ops, expected) in shapes {
      let reg = Reg(id: 0, impl: 0, ops: ops, singleton: false, isDefault: false)
      #expect(reg.services == expected, "model \(reg)")
      let container = DIContainer()
      register(reg, in: container)
      #expect(graphServices(container) == [expected], "\(reg)")
    }
  }
}
