// Errors a person can act on (SPEC "Errors and logging"): the hint for what is not
// registered, a failure's path and arguments, error codes, delayed values' descriptions,
// the caller's line, the warnings of cleaning scopes and what an error costs to build.
// Every top-level type is prefixed `EI`.

import DIContainer
import DITestSupport
import Foundation
import Synchronization
import Testing

// MARK: - Fixtures

protocol EIAnimal: AnyObject {}
protocol EIPet: AnyObject {}
final class EICat: EIAnimal, EIPet { init() {} }
final class EIDog { init() {} }
enum EIIndoor {}
enum EIOutdoor {}

class EIBase { init() {} }
final class EISub: EIBase {}

/// Never registered anywhere.
final class EIMissing { init() {} }
/// Registered by the tests that need it; needs the unregistered `EIMissing`.
final class EINeedsMissing { init(missing: EIMissing) {} }

final class EIHTTPClient { init() {} }
final class EIPaymentGateway { init(client: EIHTTPClient) {} }
final class EIOrderService { init(gateway: EIPaymentGateway) {} }

final class EIWide { init(name: String, count: Int) {} }
final class EIWideOuter { init(wide: EIWide) {} }

final class EICycleA { init(b: EICycleB) {} }
final class EICycleB { init(a: EICycleA) {} }

struct EINotHashable { var x = 0 }
final class EIMulti { init(key: EINotHashable) {} }

final class EIView { init() {} }
protocol EIScreen: AnyObject {}
final class EIPresenter: EIScreen {
  var view = EIView()
  init() {}
}
final class EIOtherScreen: EIScreen { init() {} }

final class EILazyOwner {
  let lazy: Lazy<EINeedsMissing>
  init(lazy: Lazy<EINeedsMissing>) { self.lazy = lazy }
}
final class EIProviderOwner {
  let provider: Provider<EINeedsMissing>
  init(provider: Provider<EINeedsMissing>) { self.provider = provider }
}

final class EIKeyed { init(key: String) {} }

/// A storage that answers every key with the last value it was given: a broken DIStorage.
final class EIConfusedStorage: DIStorage {
  private let last = LockedValue<DIStorageValue?>(nil)
  func value(for key: DIStorageKey) -> DIStorageValue? { last.withLock { $0 } }
  func setValue(_ value: DIStorageValue, for key: DIStorageKey) { last.withLock { $0 = value } }
  func clean() { last.withLock { $0 = nil } }
}

/// Holds a Lazy so that printing the holder prints its fields (debugDescription).
struct EIHolder<Delayed> { let delayed: Delayed }

/// Distinct types with short names for a deep chain: `EINum<EIB1<EIB0<EIZ>>>` is link 2.
enum EIZ {}
enum EIB0<Rest> {}
enum EIB1<Rest> {}
final class EINum<Index> { init(next: Any?) {} }

protocol EITypeVisitor {
  associatedtype Result
  func visit<T>(_ type: T.Type) -> Result
}

/// Calls `visitor` with the index type of `n` (its bits, nested).
func eiWithIndexType<V: EITypeVisitor>(_ n: Int, _ visitor: V) -> V.Result {
  eiBits(n, EIZ.self, visitor)
}

func eiBits<T, V: EITypeVisitor>(_ n: Int, _ type: T.Type, _ visitor: V) -> V.Result {
  if n == 0 { return visitor.visit(T.self) }
  return n & 1 == 0
    ? eiBits(n >> 1, EIB0<T>.self, visitor) : eiBits(n >> 1, EIB1<T>.self, visitor)
}

struct EIRegisterLink: EITypeVisitor {
  let container: DIContainer
  let next: Int
  func visit<A>(_ type: A.Type) {
    eiWithIndexType(next, EIRegisterLinkTo<A>(container: container))
  }
}

struct EIRegisterLinkTo<A>: EITypeVisitor {
  let container: DIContainer
  func visit<B>(_ type: B.Type) {
    container.register { (next: EINum<B>) in EINum<A>(next: next) }
  }
}

struct EIRegisterEnd: EITypeVisitor {
  let container: DIContainer
  func visit<A>(_ type: A.Type) {
    container.register { EINum<A>(next: nil) }
  }
}

struct EIResolveLink: EITypeVisitor {
  let container: DIContainer
  func visit<A>(_ type: A.Type) -> DIError? {
    do throws(DIError) {
      let _: EINum<A> = try container.tryResolve()
      return nil
    } catch {
      return error
    }
  }
}

/// A chain `EINum<0> → EINum<1> → … → EINum<length>`.
func eiDeepChain(_ container: DIContainer, length: Int) {
  for index in 0..<length {
    eiWithIndexType(index, EIRegisterLink(container: container, next: index + 1))
  }
  eiWithIndexType(length, EIRegisterEnd(container: container))
}

func eiError<T>(_ type: T.Type, _ body: () throws(DIError) -> T) -> DIError? {
  do throws(DIError) {
    _ = try body()
    return nil
  } catch {
    return error
  }
}

func eiStderr(_ result: ExitTest.Result?) -> String {
  String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
}

/// `EI-LINE=<n>` written by an exit test's child before it traps. With Swift 6.3 every
/// `#line` (and `#line` default argument) inside an exit test's body is the line of the
/// `#expect(processExitsWith:)` macro, so the mark, written just before the call, names
/// the line the library must report.
func eiMarkedLine(_ text: String) -> Int? {
  guard let range = text.range(of: "EI-LINE=") else { return nil }
  return Int(text[range.upperBound...].prefix { $0.isNumber })
}

func eiMark(_ line: Int) {
  FileHandle.standardError.write(Data("EI-LINE=\(line)\n".utf8))
}

let eiThisFile = "DIContainerTests/ErrorReportingTests.swift"

// MARK: - The ten mistakes (those of the core module)

@Suite struct NotRegisteredHintTests {
  @Test func wrongTagNamesTheTagsTheTypeIsRegisteredUnder() throws {
    let container = DIContainer()
    container.register(EICat.init).as(EIAnimal.self, tag: EIIndoor.self)
    let error = try #require(
      eiError(EIAnimal.self) { () throws(DIError) in try container.tryResolve() })
    #expect(error.code == .notRegistered)
    #expect(
      error.hints.contains { $0.contains("EIIndoor") && $0.contains("by(tag: EIIndoor.self") })
    #expect(error.description.contains("hint:"))
    #expect(error.description.contains("EIIndoor"))
  }

  @Test func requestUnderAnotherTagNamesTheRegisteredTag() throws {
    let container = DIContainer()
    container.register(EICat.init).as(EIAnimal.self, tag: EIIndoor.self)
    let error = try #require(
      eiError(EIAnimal.self) { () throws(DIError) in
        by(tag: EIOutdoor.self, on: try container.tryResolve())
      })
    #expect(error.code == .notRegistered)
    #expect(error.hints.contains { $0.contains("EIIndoor") })
    #expect(error.description.contains("EIOutdoor"))
  }

  @Test func untaggedRegistrationIsNamedForATaggedRequest() throws {
    let container = DIContainer()
    container.register(EICat.init).as(EIAnimal.self)
    let error = try #require(
      eiError(EIAnimal.self) { () throws(DIError) in
        by(tag: EIIndoor.self, on: try container.tryResolve())
      })
    #expect(error.code == .notRegistered)
    #expect(error.hints.contains { $0.contains("without a tag") })
  }

  @Test func protocolWithoutAsAndNoInstanceIsNotGuessed() throws {
    // Swift cannot tell from `EICat.self` whether it conforms to a protocol seen only as a
    // generic parameter: nothing may be guessed.
    let container = DIContainer()
    container.register(EICat.init)
    let error = try #require(
      eiError(EIAnimal.self) { () throws(DIError) in try container.tryResolve() })
    #expect(error.code == .notRegistered)
    #expect(!error.hints.contains { $0.contains("EICat") })
    #expect(!error.description.contains(".as(EIAnimal.self)"))
  }

  @Test func protocolWithoutAsNamesTheComponentWhoseInstanceConforms() throws {
    let container = DIContainer()
    container.register(EICat.init).lifetime(.perContainer(.single))
    let _: EICat = container.resolve()
    let error = try #require(
      eiError(EIAnimal.self) { () throws(DIError) in try container.tryResolve() })
    #expect(error.code == .notRegistered)
    #expect(error.hints.contains { $0.contains("EICat") && $0.contains(".as(EIAnimal.self)") })
    #expect(error.description.contains(".as(EIAnimal.self)"))
  }

  @Test func subclassWithoutAsIsNamedWithoutAnInstance() throws {
    let container = DIContainer()
    container.register(EISub.init)
    let error = try #require(
      eiError(EIBase.self) { () throws(DIError) in try container.tryResolve() })
    #expect(error.code == .notRegistered)
    #expect(error.hints.contains { $0.contains("EISub") && $0.contains(".as(EIBase.self)") })
  }

  @Test func aComponentRegisteredAsTheServiceUnderATagIsNotSaidToMissAs() throws {
    // EISub IS registered `.as(EIBase.self)`, under a tag: the fix is the tag, and a hint
    // saying it "was not registered as one" would be false.
    let container = DIContainer()
    container.register(EISub.init).as(EIBase.self, tag: EIIndoor.self)
    let error = try #require(
      eiError(EIBase.self) { () throws(DIError) in try container.tryResolve() })
    #expect(error.hints.contains { $0.contains("EIIndoor") })
    #expect(!error.hints.contains { $0.contains("not registered as one") })
  }

  @Test func taggedRequestWhoseTypeIsRegisteredUnderAnotherTagDoesNotAdviseUntaggedAs() throws {
    let container = DIContainer()
    container.register(EISub.init).as(EIBase.self, tag: EIIndoor.self)
    let error = try #require(
      eiError(EIBase.self) { () throws(DIError) in
        by(tag: EIOutdoor.self, on: try container.tryResolve())
      })
    #expect(!error.hints.contains { $0.contains("add .as(EIBase.self)") })
  }

  @Test func aPlainTypoGetsNoFalseHint() throws {
    let container = DIContainer()
    container.register(EICat.init).as(EIAnimal.self)
    let error = try #require(
      eiError(EIDog.self) { () throws(DIError) in try container.tryResolve() })
    #expect(error.code == .notRegistered)
    #expect(error.hints.isEmpty)
    #expect(!error.description.contains("hint:"))
  }

  @Test func hintsOfAnErrorOutlivingItsContainerStayTrue() throws {
    var container: DIContainer? = DIContainer()
    container!.register(EICat.init).as(EIAnimal.self, tag: EIIndoor.self)
    let error = try #require(
      eiError(EIAnimal.self) { () throws(DIError) in try container!.tryResolve() })
    #expect(error.hints.contains { $0.contains("EIIndoor") })
    container = nil
    // The error holds the registrations weakly (a kept error keeps no instance alive): once
    // the container is gone it may have no hints, but never a false one.
    #expect(error.hints.allSatisfy { $0.contains("EIIndoor") })
  }
}

// MARK: - The path, the argument, inject(into:)

@Suite struct ErrorPathAndArgumentTests {
  @Test func pathNamesEveryRequestAndEveryRegistration() throws {
    let container = DIContainer()
    let line = #line + 1
    container.register(EIOrderService.init)
    container.register(EIPaymentGateway.init)
    let error = try #require(
      eiError(EIOrderService.self) { () throws(DIError) in try container.tryResolve() })
    #expect(error.code == .notRegistered)
    #expect(error.requested == "EIOrderService")
    #expect(error.path.map(\.requested) == ["EIOrderService", "EIPaymentGateway", "EIHTTPClient"])
    #expect(error.path.last?.component == nil)
    #expect(error.description.contains("EIOrderService → EIPaymentGateway → EIHTTPClient"))
    #expect(error.description.contains("\(eiThisFile):\(line)"))
    #expect(error.description.contains("\(eiThisFile):\(line + 1)"))
  }

  @Test func missingArgumentNamesTheComponentPositionAndType() throws {
    let container = DIContainer()
    container.register { EIWide(name: arg($0), count: arg($1)) }
    let error = try #require(
      eiError(EIWide.self) { () throws(DIError) in try container.tryResolve(arguments: ["Mimi"]) })
    #expect(error.code == .missingArgument)
    #expect(error.argumentPosition == 2)
    #expect(error.path.map(\.requested) == ["EIWide"])
    #expect(error.path.last?.requested != "Int")
    #expect(error.description.contains("EIWide needs runtime argument 2 (Int)"))
    #expect(!error.description.contains("for Int"))
  }

  @Test func noArgumentAtAllNamesTheFirst() throws {
    let container = DIContainer()
    container.register { EIWide(name: arg($0), count: arg($1)) }
    let error = try #require(
      eiError(EIWide.self) { () throws(DIError) in try container.tryResolve() })
    #expect(error.code == .missingArgument)
    #expect(error.argumentPosition == 1)
    #expect(error.description.contains("EIWide"))
    #expect(error.description.contains("String"))
  }

  @Test func missingArgumentOfADependencyExplainsArgumentsGoToTheComponentAsked() throws {
    let container = DIContainer()
    container.register { EIWide(name: arg($0), count: arg($1)) }
    // The outer component takes one runtime argument itself; its dependency gets none.
    container.register { (wide: EIWide, _: DIArg<String>) in EIWideOuter(wide: wide) }
    let error = try #require(
      eiError(EIWideOuter.self) { () throws(DIError) in
        try container.tryResolve(arguments: ["a"])
      })
    #expect(error.code == .missingArgument)
    #expect(error.argumentPosition == 1)
    #expect(error.path.map(\.requested) == ["EIWideOuter", "EIWide"])
    #expect(error.description.contains("EIWide needs runtime argument 1 (String)"))
  }

  @Test func missingArgumentOfADependencySuggestsAProviderOfTheRightArity() throws {
    // EIWide takes two runtime arguments (String, Int): the provider that passes them is a
    // Provider2<EIWide, String, Int>; a Provider1<EIWide, String> cannot make one.
    let container = DIContainer()
    container.register { EIWide(name: arg($0), count: arg($1)) }
    container.register(EIWideOuter.init)
    let error = try #require(
      eiError(EIWideOuter.self) { () throws(DIError) in try container.tryResolve() })
    #expect(error.code == .missingArgument)
    #expect(!error.description.contains("Provider1<EIWide, String>"))
  }

  @Test func wrongArgumentNamesBothTypesAndThePosition() throws {
    let container = DIContainer()
    container.register { EIWide(name: arg($0), count: arg($1)) }
    let error = try #require(
      eiError(EIWide.self) { () throws(DIError) in try container.tryResolve(arguments: ["a", "b"]) }
    )
    #expect(error.code == .wrongArgument)
    #expect(error.argumentPosition == 2)
    #expect(error.path.map(\.requested) == ["EIWide"])
    #expect(error.description.contains("Int"))
    #expect(error.description.contains("String"))
  }

  @Test func extraArgumentsAreAnError() throws {
    // SPEC, Resolution step 4: "arguments that the chosen component does not take are a
    // DIError (for an optional request too)"; the code exists as `.extraArguments`.
    let container = DIContainer()
    container.register(EICat.init)
    let error = eiError(EICat.self) { () throws(DIError) in
      try container.tryResolve(arguments: ["x"])
    }
    #expect(error?.code == .extraArguments)
  }

  @Test func injectIntoFailureDoesNotAdviseInjectInto() throws {
    let container = DIContainer()
    container.register(EIPresenter.self).injection(\.view)
    container.register(EIView.self)  // no initializer: the container cannot make one
    let error = try #require(
      eiError(Void.self) { () throws(DIError) in try container.tryInject(into: EIPresenter()) })
    #expect(error.code == .noInitializer)
    #expect(error.path.map(\.requested) == ["EIPresenter", "EIView"])
    #expect(!error.description.contains("inject(into:)"))
    #expect(error.description.contains("initializer"))
  }

  @Test func injectIntoAnUnregisteredType() throws {
    let container = DIContainer()
    let error = try #require(
      eiError(Void.self) { () throws(DIError) in try container.tryInject(into: EIPresenter()) })
    #expect(error.code == .notRegistered)
    #expect(error.requested == "EIPresenter")
  }

  @Test func noInitializerAskedDirectlyAdvisesInjectInto() throws {
    let container = DIContainer()
    container.register(EIPresenter.self)
    let error = try #require(
      eiError(EIPresenter.self) { () throws(DIError) in try container.tryResolve() })
    #expect(error.code == .noInitializer)
    #expect(error.description.contains("inject(into:)"))
  }
}

// MARK: - Codes

@Suite struct ErrorCodeContractTests {
  @Test func codesAreDistinctHashableAndNamed() {
    let codes: [DIError.Code] = [
      .notRegistered, .ambiguous, .cycle, .tooDeep, .noInitializer, .missingArgument,
      .wrongArgument, .extraArguments, .argumentNotHashable, .factoryFailed, .asyncFactory,
      .notAService, .wrongInjectionTarget, .outsideScope, .scopeClosed, .containerReleased,
      .containerShutDown, .storageMismatch,
    ]
    #expect(Set(codes).count == codes.count)
    #expect(DIError.Code.notRegistered.description == "notRegistered")
    #expect(Set(codes.map(\.description)).count == codes.count)
  }

  @Test func ambiguousListsEveryCandidateWithItsLine() throws {
    let container = DIContainer()
    let line = #line + 1
    container.register(EICat.init).as(EIAnimal.self)
    container.register(EICat.init).as(EIAnimal.self)
    let error = try #require(
      eiError(EIAnimal.self) { () throws(DIError) in try container.tryResolve() })
    #expect(error.code == .ambiguous)
    #expect(error.candidates.count == 2)
    #expect(error.candidates.contains { $0.contains("\(eiThisFile):\(line)") })
    #expect(error.candidates.contains { $0.contains("\(eiThisFile):\(line + 1)") })
    #expect(error.cycle.isEmpty)
    #expect(error.argumentPosition == nil)
    #expect(error.underlyingError == nil)
  }

  @Test func cycleNamesTheLoopOnce() throws {
    let container = DIContainer()
    container.register(EICycleA.init)
    container.register(EICycleB.init)
    let error = try #require(
      eiError(EICycleA.self) { () throws(DIError) in try container.tryResolve() })
    #expect(error.code == .cycle)
    #expect(error.cycle.map(\.requested) == ["EICycleA", "EICycleB", "EICycleA"])
    #expect(error.description.contains("EICycleA → EICycleB → EICycleA"))
    #expect(error.candidates.isEmpty)
  }

  @Test func noInitializer() throws {
    let container = DIContainer()
    container.register(EIPresenter.self)
    let error = try #require(
      eiError(EIPresenter.self) { () throws(DIError) in try container.tryResolve() })
    #expect(error.code == .noInitializer)
  }

  @Test func notAService() throws {
    let container = DIContainer()
    container.register(EICat.init).as(EIDog.self)
    let error = try #require(
      eiError(EIDog.self) { () throws(DIError) in try container.tryResolve() })
    #expect(error.code == .notAService)
    #expect(error.description.contains("EIDog"))
  }

  @Test func wrongInjectionTarget() throws {
    let container = DIContainer()
    container.register(EIView.init)
    container.register(EIPresenter.self).as(EIScreen.self).injection(\.view)
    let screen: EIScreen = EIOtherScreen()
    let error = try #require(
      eiError(Void.self) { () throws(DIError) in
        try container.tryInject(into: screen as any EIScreen)
      })
    #expect(error.code == .wrongInjectionTarget)
    #expect(error.description.contains("EIOtherScreen"))
    #expect(error.description.contains("EIPresenter"))
  }

  @Test func argumentNotHashable() throws {
    let container = DIContainer()
    container.register { EIMulti(key: arg($0)) }.lifetime(.multiton)
    let error = try #require(
      eiError(EIMulti.self) { () throws(DIError) in
        try container.tryResolve(arguments: [EINotHashable()])
      })
    #expect(error.code == .argumentNotHashable)
    #expect(error.argumentPosition == 1)
    #expect(error.description.contains("EINotHashable"))
  }

  @Test func outsideScope() throws {
    let container = DIContainer()
    container.register(EICat.init).lifetime(.scoped)
    let error = try #require(
      eiError(EICat.self) { () throws(DIError) in try container.tryResolve() })
    #expect(error.code == .outsideScope)
    #expect(error.description.contains("makeScope()"))
  }

  @Test func scopeClosed() throws {
    let container = DIContainer()
    container.register(EICat.init).lifetime(.scoped)
    let scope = container.makeScope()
    let _: EICat = scope.resolve()
    scope.close()
    let error = try #require(eiError(EICat.self) { () throws(DIError) in try scope.tryResolve() })
    #expect(error.code == .scopeClosed)
  }

  @Test func scopeClosedNamesWhatWasAsked() throws {
    let container = DIContainer()
    container.register(EICat.init).lifetime(.scoped)
    let scope = container.makeScope()
    scope.close()
    let error = try #require(eiError(EICat.self) { () throws(DIError) in try scope.tryResolve() })
    #expect(error.code == .scopeClosed)
    #expect(error.requested == "EICat")
    #expect(!error.description.contains("Cannot resolve ?"))
  }

  @Test func lazyMadeInAClosedScope() throws {
    let container = DIContainer()
    container.register(EICat.init).lifetime(.scoped)
    let scope = container.makeScope()
    let lazy: Lazy<EICat> = scope.resolve()
    scope.close()
    let error = try #require(eiError(EICat.self) { () throws(DIError) in try lazy.tryValue() })
    #expect(error.code == .scopeClosed)
    #expect(error.description.contains("Lazy<EICat>"))
  }

  @Test func containerReleased() throws {
    var container: DIContainer? = DIContainer()
    container!.register(EICat.init)
    let lazy: Lazy<EICat> = container!.resolve()
    container = nil
    let error = try #require(eiError(EICat.self) { () throws(DIError) in try lazy.tryValue() })
    #expect(error.code == .containerReleased)
    #expect(error.description.contains("Lazy<EICat>"))
  }

  @Test func storageMismatch() throws {
    let container = DIContainer()
    let scope = DIScope(name: "EIConfused", storage: EIConfusedStorage(), policy: .single)
    container.register(EICat.init).lifetime(.custom(scope))
    container.register(EIDog.init).lifetime(.custom(scope))
    let _: EICat = container.resolve()
    let error = try #require(
      eiError(EIDog.self) { () throws(DIError) in try container.tryResolve() })
    #expect(error.code == .storageMismatch)
    #expect(error.description.contains("EIConfused"))
  }

  @Test func tooDeepOnASmallStack() async {
    // In a child process: a crash here (SPEC: "never a crash") must not take the suite down.
    let result = await #expect(processExitsWith: .success, observing: [\.standardErrorContent]) {
      let container = DIContainer()
      eiDeepChain(container, length: 5000)
      let error = resultOnThreadBlocking(stackSize: 512 << 10) {
        eiWithIndexType(0, EIResolveLink(container: container))
      }
      guard let error, error.code == .tooDeep, error.cycle.isEmpty else {
        fatalError("EI-UNEXPECTED: \(error.map { "\($0.code)" } ?? "no error")")
      }
    }
    #expect(!eiStderr(result).contains("EI-UNEXPECTED"))
  }
}

// MARK: - Delayed values: descriptions never resolve, print still prints the value

@Suite struct DelayedDescriptionTests {
  @Test func lazyDescriptionNeverResolves() {
    let container = DIContainer()
    let counter = Counter()
    container.register { counter.next() }
    let lazy: Lazy<Int> = container.resolve()
    _ = lazy.description
    _ = lazy.debugDescription
    _ = String(reflecting: lazy)
    _ = String(describing: EIHolder(delayed: lazy))
    _ = "\(EIHolder(delayed: lazy))"
    #expect(counter.value == 0)
    #expect(!lazy.wasMade)
    #expect(lazy.description.contains("Lazy<Int>"))
  }

  @Test func printOfALazyPrintsTheValue() {
    let container = DIContainer()
    let counter = Counter()
    container.register { counter.next() }
    let lazy: Lazy<Int> = container.resolve()
    var printed = ""
    print(lazy, to: &printed)
    #expect(printed == "1\n")
    #expect(lazy.description.contains("1"))
    #expect(counter.value == 1)
  }

  @Test func providerDescriptionNeverResolves() {
    let container = DIContainer()
    let counter = Counter()
    container.register { counter.next() }
    let provider: Provider<Int> = container.resolve()
    _ = provider.description
    _ = provider.debugDescription
    _ = String(reflecting: provider)
    _ = String(describing: EIHolder(delayed: provider))
    #expect(counter.value == 0)
    #expect(provider.description.contains("Provider<Int>"))
    var printed = ""
    print(provider, to: &printed)
    print(provider, to: &printed)
    #expect(printed == "1\n2\n")
  }

  @Test func lazy1AndProvider1DescriptionsNeverResolve() {
    let container = DIContainer()
    let counter = Counter()
    container.register { (key: DIArg<String>) -> EIKeyed in
      _ = counter.next()
      return EIKeyed(key: arg(key))
    }
    let lazy: Lazy1<EIKeyed, String> = container.resolve()
    let provider: Provider1<EIKeyed, String> = container.resolve()
    for text in [
      lazy.description, provider.description, String(describing: lazy),
      String(describing: provider), String(reflecting: lazy), String(reflecting: provider),
      "\(EIHolder(delayed: lazy))", "\(EIHolder(delayed: provider))",
    ] {
      #expect(!text.isEmpty)
    }
    #expect(counter.value == 0)
    #expect(lazy.description.contains("Lazy1<EIKeyed, String>"))
    #expect(provider.description.contains("Provider1<EIKeyed, String>"))
    _ = provider.value("a")
    #expect(counter.value == 1)
  }

  @Test func printOfAFailingProviderWritesTheErrorInsteadOfTrapping() {
    let container = DIContainer()
    container.register(EINeedsMissing.init)
    let provider: Provider<EINeedsMissing> = container.resolve()
    var printed = ""
    print(provider, to: &printed)
    #expect(printed.contains("EIMissing"))
    #expect(printed.contains("not registered"))
  }
}

// MARK: - file:line is the user's

@Suite struct CallerLineTests {
  @Test func trappingResolvePrintsTheSameTextAndTheCallersLine() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      synchronously {
        let container = DIContainer()
        container.register(EINeedsMissing.init)
        eiMark(#line)
        let _: EINeedsMissing = container.resolve()
      }
    }
    let text = eiStderr(result)
    let line = eiMarkedLine(text)
    #expect(line != nil)
    #expect(text.contains("requested at: \(eiThisFile):\(line ?? -1)"))
    #expect(text.contains("Cannot resolve EINeedsMissing: EIMissing is not registered."))
    #expect(text.contains("EINeedsMissing → EIMissing"))
  }

  @Test func lazyResolvedByTheUserNamesTheResolveLine() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      synchronously {
        let container = DIContainer()
        container.register(EINeedsMissing.init)
        eiMark(#line)
        let lazy: Lazy<EINeedsMissing> = container.resolve()
        _ = lazy.value
      }
    }
    let text = eiStderr(result)
    let line = eiMarkedLine(text) ?? -1
    #expect(text.contains("\(eiThisFile):\(line)"))
    #expect(text.contains("Lazy<EINeedsMissing>"))
    #expect(!text.contains("DIContainer/Lazy.swift"))
    #expect(!text.contains("DIContainer/DIResolver.swift"))
    #expect(!text.contains("DelayedRequest.swift"))
  }

  @Test func lazyResolvedWithAnArgumentNamesTheResolveLine() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      synchronously {
        let container = DIContainer()
        container.register(EINeedsMissing.init)
        container.register { EIWide(name: arg($0), count: 1) }
        // A Lazy made during a resolve(arg:) request, from the top: resolve(arg:) goes through
        // the protocol's trapping form.
        eiMark(#line)
        let lazy: Lazy<EINeedsMissing> = container.resolve(arg: "unused")
        _ = lazy.value
      }
    }
    let text = eiStderr(result)
    let line = eiMarkedLine(text) ?? -1
    #expect(text.contains("\(eiThisFile):\(line)"))
    #expect(!text.contains("DIContainer/Lazy.swift"))
    #expect(!text.contains("DIContainer/DIResolver.swift"))
  }

  @Test func lazyInjectedIntoAComponentNamesTheComponent() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      synchronously {
        let container = DIContainer()
        container.register(EINeedsMissing.init)
        eiMark(#line)
        container.register(EILazyOwner.init)
        let owner: EILazyOwner = container.resolve()
        _ = owner.lazy.value
      }
    }
    let text = eiStderr(result)
    let line = eiMarkedLine(text) ?? -1
    #expect(text.contains("EILazyOwner"))
    #expect(text.contains("\(eiThisFile):\(line)"))
    #expect(!text.contains("DIContainer/Lazy.swift"))
  }

  @Test func providerResolvedByTheUserNamesTheResolveLine() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      synchronously {
        let container = DIContainer()
        container.register(EINeedsMissing.init)
        eiMark(#line)
        let provider: Provider<EINeedsMissing> = container.resolve()
        _ = provider.value
      }
    }
    let text = eiStderr(result)
    let line = eiMarkedLine(text) ?? -1
    #expect(text.contains("\(eiThisFile):\(line)"))
    #expect(text.contains("Provider<EINeedsMissing>"))
    #expect(!text.contains("DIContainer/Provider.swift"))
    #expect(!text.contains("DIContainer/DIResolver.swift"))
  }

  @Test func providerInjectedIntoAComponentNamesTheComponent() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      synchronously {
        let container = DIContainer()
        container.register(EINeedsMissing.init)
        eiMark(#line)
        container.register(EIProviderOwner.init)
        let owner: EIProviderOwner = container.resolve()
        _ = owner.provider.value
      }
    }
    let text = eiStderr(result)
    let line = eiMarkedLine(text) ?? -1
    #expect(text.contains("EIProviderOwner"))
    #expect(text.contains("\(eiThisFile):\(line)"))
    #expect(!text.contains("DIContainer/Provider.swift"))
  }

  @Test func provider1ValueNamesItsCallersLine() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      synchronously {
        let container = DIContainer()
        container.register { (key: DIArg<String>, missing: EIMissing) in EIKeyed(key: arg(key)) }
        let provider: Provider1<EIKeyed, String> = container.resolve()
        eiMark(#line)
        _ = provider.value("k")
      }
    }
    let text = eiStderr(result)
    let line = eiMarkedLine(text) ?? -1
    #expect(text.contains("\(eiThisFile):\(line)"))
    #expect(!text.contains("DIContainer/ProviderWithArguments.swift"))
  }

  @Test func starOperatorSaysTheLineIsUnknown() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      synchronously {
        let container = DIContainer()
        let _: EIMissing = *container
      }
    }
    let text = eiStderr(result)
    #expect(text.contains("EIMissing is not registered"))
    #expect(text.contains("* operator"))
    #expect(text.contains("unknown"))
    #expect(text.contains("resolve()"))
    #expect(!text.contains("DIContainer/DIContainer+Resolve.swift"))
    #expect(!text.contains("DIContainer/DIResolver.swift"))
  }

  @Test func lazyMadeByTheStarOperatorDoesNotBlameTryResolve() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      synchronously {
        let container = DIContainer()
        container.register(EINeedsMissing.init)
        let lazy: Lazy<EINeedsMissing> = *container
        _ = lazy.value
      }
    }
    let text = eiStderr(result)
    #expect(text.contains("Lazy<EINeedsMissing>"))
    #expect(!text.contains("DIContainer/Lazy.swift"))
    #expect(!text.contains("tryResolve()"))
  }

  @Test func injectIntoTrapNamesTheCallersLine() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      synchronously {
        let container = DIContainer()
        container.register(EIPresenter.self).injection(\.view)
        eiMark(#line)
        container.inject(into: EIPresenter())
      }
    }
    let text = eiStderr(result)
    let line = eiMarkedLine(text) ?? -1
    #expect(text.contains("requested at: \(eiThisFile):\(line)"))
    #expect(text.contains("EIView is not registered"))
    #expect(!text.contains("use inject(into:)"))
  }

  @Test func requestScopeResolveNamesTheCallersLine() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      synchronously {
        let container = DIContainer()
        let scope = container.makeScope()
        eiMark(#line)
        let _: EIMissing = scope.resolve()
      }
    }
    let text = eiStderr(result)
    let line = eiMarkedLine(text) ?? -1
    #expect(text.contains("requested at: \(eiThisFile):\(line)"))
  }
}

// MARK: - Warnings for cleaning something unknown

@Suite struct CleanScopeWarningTests {
  @Test func cleanScopeWithATypoWarnsWithTheClosestName() {
    let container = DIContainer()
    container.register(EICat.init).lifetime(.custom(name: "EISession"))
    container.register(EIDog.init).lifetime(.custom(name: "EIRequest"))
    let lines = DISetting.Log.capturing {
      container.clean(scope: "EISesion")
    }
    let warnings = lines.filter { $0.hasPrefix("warning") }
    #expect(warnings.count == 1)
    #expect(warnings.first?.contains("EISesion") == true)
    #expect(warnings.first?.contains("did you mean \"EISession\"") == true)
  }

  @Test func cleanScopeOfAKnownScopeDoesNotWarn() {
    let container = DIContainer()
    container.register(EICat.init).lifetime(.custom(name: "EISession2"))
    let lines = DISetting.Log.capturing {
      container.clean(scope: "EISession2")
    }
    #expect(!lines.contains { $0.hasPrefix("warning") })
  }

  @Test func cleanScopeWithNothingCloseStillWarns() {
    let container = DIContainer()
    container.register(EICat.init).lifetime(.custom(name: "EISession3"))
    let lines = DISetting.Log.capturing {
      container.clean(scope: "Completely-Different-Name")
    }
    let warnings = lines.filter { $0.hasPrefix("warning") }
    #expect(warnings.count == 1)
    #expect(warnings.first?.contains("did you mean") == false)
    #expect(warnings.first?.contains("EISession3") == true)
  }
}

// MARK: - Costs and memory

@Suite struct ErrorCostTests {
  @Test func optionalMissIsCheapWithManyComponents() {
    let container = DIContainer()
    for _ in 0..<10_000 { container.register { EICat() } }
    let _: EIDog? = container.resolve()  // the first one builds the snapshot
    let clock = ContinuousClock()
    let elapsed = clock.measure {
      for _ in 0..<10_000 {
        let dog: EIDog? = container.resolve()
        precondition(dog == nil)
      }
    }
    // Loose: a miss that walked 10,000 components or built hint text would take far longer.
    #expect(elapsed < .seconds(TestEnvironment.limit(3)))
  }

  @Test func failedTryResolveDoesNotWorkOutHintsUntilRead() {
    let container = DIContainer()
    for _ in 0..<10_000 { container.register { EICat() } }
    let _: EIDog? = container.resolve()
    let clock = ContinuousClock()
    let elapsed = clock.measure {
      for _ in 0..<2_000 {
        _ = eiError(EIDog.self) { () throws(DIError) in try container.tryResolve() }
      }
    }
    #expect(elapsed < .seconds(TestEnvironment.limit(3)))
  }

  @Test func aLazyKeptByACachedInstanceDoesNotKeepItAliveAfterTheContainer() {
    weak var weakOwner: EILazyOwner?
    do {
      let container = DIContainer()
      container.register(EINeedsMissing.init)
      container.register(EILazyOwner.init).lifetime(.perContainer(.single))
      let owner: EILazyOwner = container.resolve()
      weakOwner = owner
    }
    #expect(weakOwner == nil)
  }

  @Test func aCachedInstanceWithoutDelayedValuesGoesWithItsContainer() {
    // The control for the test above.
    weak var weakCat: EICat?
    do {
      let container = DIContainer()
      container.register(EICat.init).lifetime(.perContainer(.single))
      let cat: EICat = container.resolve()
      weakCat = cat
    }
    #expect(weakCat == nil)
  }

  @Test func aKeptErrorDoesNotKeepTheContainersInstancesAlive() {
    weak var weakCat: EICat?
    var kept: DIError?
    do {
      let container = DIContainer()
      container.register(EICat.init).lifetime(.perContainer(.single))
      let cat: EICat = container.resolve()
      weakCat = cat
      kept = eiError(EIDog.self) { () throws(DIError) in try container.tryResolve() }
    }
    #expect(kept?.code == .notRegistered)
    #expect(weakCat == nil)
    _ = kept
  }
}
