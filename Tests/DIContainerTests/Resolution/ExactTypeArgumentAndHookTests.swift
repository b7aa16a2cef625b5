import DIContainer
import Foundation
import Testing

// The exact-type reinterpretation in front of the dynamic casts of runtime
// arguments (`arg`), of `onClean` and `postInit` hooks and of injection targets: a value
// of exactly the expected type is taken as it is, anything else is cast as before (a
// subclass, a conforming type, an `Optional`), and a value of the wrong type is still an
// error. Objects count their deinits, so a wrong reference count on either path fails.

private protocol PRAService: AnyObject {
  var serial: Int { get }
}

private protocol PRAValueService {
  var text: String { get }
}

private class PRABase: PRCounted {
  var dependency: PRAPayload?
}

private final class PRASub: PRABase, PRAService {}

private final class PRAPayload: PRCounted {}

private struct PRAText: PRAValueService, Equatable {
  var text: String
}

/// What a component took as its runtime argument.
private final class PRAHolder<Argument> {
  let argument: Argument
  let ledger: PRLedger
  init(_ argument: Argument, _ ledger: PRLedger) {
    self.argument = argument
    self.ledger = ledger
    _ = ledger.noteMade()
  }
  deinit { ledger.noteFreed() }
}

/// A component's type that its registration's service is not.
private class PRAVehicle {
  var dependency: PRAPayload?
}

private final class PRATruck: PRAVehicle {}

@Suite struct ExactTypeArgumentAndHookTests {
  // MARK: - Runtime arguments

  @Test func argumentsOfExactlyTheirParametersTypesAreTakenAsTheyAre() {
    let ledger = PRLedger()
    let container = DIContainer()
    container.register { PRAHolder<String>(arg($0), ledger) }
    container.register { PRAHolder<PRAText>(arg($0), ledger) }
    container.register { PRAHolder<PRAPayload>(arg($0), ledger) }
    container.register { PRAHolder<(Int, String)>(arg($0), ledger) }
    weak var weakPayload: PRAPayload?
    do {
      let payload = PRAPayload(ledger)
      weakPayload = payload
      let string: PRAHolder<String> = container.resolve(arg: "mimi")
      let text: PRAHolder<PRAText> = container.resolve(arg: PRAText(text: "t"))
      let object: PRAHolder<PRAPayload> = container.resolve(arg: payload)
      let tuple: PRAHolder<(Int, String)> = container.resolve(arg: (3, "three"))
      #expect(string.argument == "mimi")
      #expect(text.argument == PRAText(text: "t"))
      #expect(object.argument === payload)
      #expect(tuple.argument.0 == 3)
      #expect(tuple.argument.1 == "three")
      #expect(ledger.made == 5)
      withExtendedLifetime((payload, string, text, object, tuple)) { #expect(ledger.freed == 0) }
    }
    #expect(weakPayload == nil)
    #expect(ledger.freed == 5)
  }

  @Test func argumentsOfOtherTypesAreCastAsBefore() {
    let ledger = PRLedger()
    let container = DIContainer()
    container.register { PRAHolder<PRABase>(arg($0), ledger) }
    container.register { PRAHolder<any PRAService>(arg($0), ledger) }
    container.register { PRAHolder<any PRAValueService>(arg($0), ledger) }
    container.register { PRAHolder<AnyObject>(arg($0), ledger) }
    container.register { PRAHolder<Any>(arg($0), ledger) }
    container.register { PRAHolder<Int?>(arg($0), ledger) }
    container.register { PRAHolder<Int>(arg($0), ledger) }
    do {
      let sub = PRASub(ledger)
      let base: PRAHolder<PRABase> = container.resolve(arg: sub)
      let service: PRAHolder<any PRAService> = container.resolve(arg: sub)
      let value: PRAHolder<any PRAValueService> = container.resolve(arg: PRAText(text: "v"))
      let object: PRAHolder<AnyObject> = container.resolve(arg: sub)
      let any: PRAHolder<Any> = container.resolve(arg: 8)
      let wrapped: PRAHolder<Int?> = container.resolve(arg: 5)
      let none: PRAHolder<Int?> = container.resolve(arg: Int?.none)
      let unwrapped: PRAHolder<Int> = container.resolve(arg: Int?.some(6))
      #expect(base.argument === sub)
      #expect(ObjectIdentifier(service.argument) == ObjectIdentifier(sub))
      #expect(value.argument.text == "v")
      #expect(ObjectIdentifier(object.argument) == ObjectIdentifier(sub))
      #expect(any.argument as? Int == 8)
      #expect(wrapped.argument == 5)
      #expect(none.argument == nil)
      #expect(unwrapped.argument == 6)
      withExtendedLifetime((sub, base, service, value, object, any, wrapped, none, unwrapped)) {
        #expect(ledger.freed == 0)
      }
    }
    #expect(ledger.freed == ledger.made)
    #expect(ledger.made == 9)
  }

  @Test func anArgumentOfTheWrongTypeIsAWrongArgumentAndLeaksNothing() throws {
    let ledger = PRLedger()
    let container = DIContainer()
    container.register { PRAHolder<PRASub>(arg($0), ledger) }
    container.register { (first: DIArg<String>, second: DIArg<PRAPayload>) in
      PRAHolder<(String, PRAPayload)>((arg(first), arg(second)), ledger)
    }
    container.register { PRAHolder<Int>(arg($0), ledger) }
    do {
      let base = PRABase(ledger)
      let notSub = try #require(throws: DIError.self) {
        let _: PRAHolder<PRASub> = try container.tryResolve(arguments: [base])
      }
      #expect(notSub.code == .wrongArgument)
      #expect(notSub.argumentPosition == 1)
      let payload = PRAPayload(ledger)
      let second = try #require(throws: DIError.self) {
        let _: PRAHolder<(String, PRAPayload)> = try container.tryResolve(arguments: [
          "name", base,
        ])
      }
      #expect(second.code == .wrongArgument)
      #expect(second.argumentPosition == 2)
      let nilForInt = try #require(throws: DIError.self) {
        let _: PRAHolder<Int> = try container.tryResolve(arguments: [Int?.none as Any])
      }
      #expect(nilForInt.code == .wrongArgument)
      let stringForInt = try #require(throws: DIError.self) {
        let _: PRAHolder<Int> = try container.tryResolve(arguments: ["7"])
      }
      #expect(stringForInt.code == .wrongArgument)
      // The right ones still work.
      let pair: PRAHolder<(String, PRAPayload)> = container.resolve(args: "name", payload)
      #expect(pair.argument.1 === payload)
      #expect(ledger.made == 3)
    }
    #expect(ledger.freed == 3)
  }

  @Test func aProviderWithArgumentsPassesItsObjectArgument() {
    let ledger = PRLedger()
    let container = DIContainer()
    container.register { PRAHolder<PRAPayload>(arg($0), ledger) }
    container.register { PRAHolder<PRABase>(arg($0), ledger) }
    do {
      let payloads: Provider1<PRAHolder<PRAPayload>, PRAPayload> = container.resolve()
      let bases: Provider1<PRAHolder<PRABase>, PRABase> = container.resolve()
      let payload = PRAPayload(ledger)
      let sub = PRASub(ledger)
      let first = payloads.value(payload)
      let second = payloads.value(payload)
      let base = bases.value(sub)
      #expect(first !== second)
      #expect(first.argument === payload)
      #expect(second.argument === payload)
      #expect(base.argument === sub)
      #expect(ledger.made == 5)
    }
    #expect(ledger.freed == 5)
  }

  // MARK: - onClean and postInit

  @Test func onCleanAndPostInitReceiveASubclassInstanceAsTheirType() {
    let ledger = PRLedger()
    let container = DIContainer()
    container.register { () -> PRABase in PRASub(ledger) }
      .lifetime(.perContainer(.single))
      .postInit { base in ledger.note("postInit \(type(of: base)) \(base.serial)") }
      .onClean { base in ledger.note("onClean \(type(of: base)) \(base.serial)") }
    weak var weakBase: PRABase?
    do {
      let base: PRABase = container.resolve()
      weakBase = base
      #expect(base is PRASub)
      #expect(ledger.entries == ["postInit PRASub 1"])
    }
    container.clean()
    #expect(ledger.entries == ["postInit PRASub 1", "onClean PRASub 1"])
    #expect(weakBase == nil)
    #expect(ledger.freed == 1)
  }

  @Test func hooksOfExactObjectsScopedObjectsAndValuesRunOnceWithTheirInstance() throws {
    let ledger = PRLedger()
    let container = DIContainer()
    container.register { PRAPayload(ledger) }.lifetime(.scoped)
      .postInit { ledger.note("postInit payload \($0.serial)") }
      .onClean { ledger.note("onClean payload \($0.serial)") }
    container.register { () -> PRABase in PRASub(ledger) }.lifetime(.scoped)
      .injection(\.dependency)
      .onClean { ledger.note("onClean base \($0.serial) \($0.dependency?.serial ?? 0)") }
    container.register { PRAText(text: "scoped") }.lifetime(.scoped)
      .postInit { ledger.note("postInit text \($0.text)") }
      .onClean { ledger.note("onClean text \($0.text)") }
    container.register { () -> any PRAService in PRASub(ledger) }.lifetime(.scoped)
      .postInit { ledger.note("postInit service \($0.serial)") }
      .onClean { ledger.note("onClean service \($0.serial)") }
    container.register { () -> Any in 7 }.lifetime(.scoped)
      .postInit { ledger.note("postInit any \($0)") }
      .onClean { ledger.note("onClean any \($0)") }
    do {
      let scope = container.makeScope()
      let payload: PRAPayload = try scope.tryResolve()
      let base: PRABase = try scope.tryResolve()
      let text: PRAText = try scope.tryResolve()
      let service: any PRAService = try scope.tryResolve()
      let any: Any = try scope.tryResolve()
      #expect(base.dependency === payload)
      #expect(text.text == "scoped")
      #expect(any as? Int == 7)
      #expect(
        ledger.entries == [
          "postInit payload 1", "postInit text scoped", "postInit service 3", "postInit any 7",
        ])
      scope.close()
      #expect(
        Array(ledger.entries.dropFirst(4)) == [
          "onClean any 7", "onClean service 3", "onClean text scoped", "onClean base 2 1",
          "onClean payload 1",
        ])
      withExtendedLifetime(service) {}
    }
    #expect(ledger.made == 3)
    #expect(ledger.freed == 3)
  }

  @Test func asyncHooksReceiveASubclassInstanceAsTheirType() async throws {
    let ledger = PRLedger()
    let container = DIContainer()
    container.register { () -> PRABase in PRASub(ledger) }
      .lifetime(.perContainer(.single))
      .postInit { (base: PRABase) async in ledger.note("postInit \(type(of: base))") }
      .onClean { (base: PRABase) async in ledger.note("onClean \(type(of: base))") }
    do {
      let base: PRABase = try await container.resolveAsync()
      #expect(base is PRASub)
    }
    await container.shutdown()
    #expect(ledger.entries == ["postInit PRASub", "onClean PRASub"])
    #expect(ledger.freed == 1)
  }

  // MARK: - Injection targets

  @Test func injectIntoASubclassInstanceRunsTheSuperclassComponentsInjections() throws {
    let ledger = PRLedger()
    let container = DIContainer()
    container.register { PRAPayload(ledger) }
    container.register(PRABase.self).injection(\.dependency)
      .postInit { ledger.note("postInit \(type(of: $0)) \($0.dependency != nil)") }
    do {
      let sub = PRASub(ledger)
      try container.tryInject(into: sub as PRABase)
      let base = PRABase(ledger)
      try container.tryInject(into: base)
      #expect(sub.dependency != nil)
      #expect(base.dependency != nil)
      #expect(ledger.entries == ["postInit PRASub true", "postInit PRABase true"])
    }
    #expect(ledger.freed == ledger.made)
    #expect(ledger.made == 4)
  }

  @Test func anInstanceThatIsNotTheComponentsTypeIsAWrongInjectionTarget() throws {
    let ledger = PRLedger()
    let container = DIContainer()
    container.register { PRAPayload(ledger) }
    container.register(PRATruck.self).as(PRAVehicle.self).injection(\.dependency)
    let vehicle = PRAVehicle()
    let error = try #require(throws: DIError.self) { try container.tryInject(into: vehicle) }
    #expect(error.code == .wrongInjectionTarget)
    #expect(vehicle.dependency == nil)
    let truck = PRATruck()
    try container.tryInject(into: truck as PRAVehicle)
    #expect(truck.dependency != nil)
  }
}
