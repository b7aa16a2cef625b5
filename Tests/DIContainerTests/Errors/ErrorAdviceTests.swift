import DIContainer
import DITestSupport
import Testing

// Mistakes a new user makes on purpose, and what the error says about each.

private enum Advice {
  protocol Pet: AnyObject {}
  protocol Gateway: AnyObject {}
  enum Indoor {}
  enum Outdoor {}
  final class Cat: Pet {}
  final class Stripe: Gateway {}
  class Vehicle {}
  final class Truck: Vehicle {}
  final class Store {
    init(gateway: Gateway) {}
  }
  final class Report {
    let store: Lazy<Store>
    init(store: Lazy<Store>) { self.store = store }
  }
  final class Wide {
    init(width: Int) {}
  }
  final class Wrapper {
    init(wide: Wide, label: String) {}
  }
  final class View {}
  final class Presenter {
    var view = View()
  }
}

@Suite struct ErrorAdviceTests {
  // MARK: - A wrong tag

  @Test func aTypeRegisteredOnlyUnderATagSaysWhichTagAndHowToAsk() {
    let container = DIContainer()
    container.register(Advice.Cat.init).as(Advice.Pet.self, tag: Advice.Indoor.self)
    let error = #expect(throws: DIError.self) {
      let _: Advice.Pet = try container.tryResolve()
    }
    #expect(error?.code == .notRegistered)
    #expect(
      error?.hints == [
        "Pet is registered only under the tag Indoor; ask for it with by(tag: Indoor.self,"
          + " on: …), or register it .as(Pet.self) without a tag."
      ])
    #expect(error?.description.contains("\n  hint: Pet is registered only under the tag") == true)
  }

  @Test func aRequestUnderTheWrongTagNamesTheTagsThatExist() {
    let container = DIContainer()
    container.register(Advice.Cat.init).as(Advice.Pet.self, tag: Advice.Indoor.self)
      .as(Advice.Pet.self)
    let error = #expect(throws: DIError.self) {
      let _: Advice.Pet = by(tag: Advice.Outdoor.self, on: try container.tryResolve())
    }
    #expect(error?.code == .notRegistered)
    #expect(
      error?.hints.first
        == "Pet is registered without a tag and under the tag Indoor, not under the tag Outdoor.")
  }

  // MARK: - A protocol or superclass without `.as`

  @Test func aMadeInstanceThatConformsNamesItsRegistrationAndShowsAs() {
    let container = DIContainer()
    container.register(Advice.Stripe.init).lifetime(.perContainer(.single))
    let _: Advice.Stripe = container.resolve()
    let error = #expect(throws: DIError.self) {
      let _: Advice.Gateway = try container.tryResolve()
    }
    let hint = error?.hints.first ?? ""
    #expect(hint.hasPrefix("Stripe (DIContainerTests/ErrorAdviceTests.swift:"))
    #expect(
      hint.hasSuffix(
        "makes Gateway instances but was not registered as Gateway; add .as(Gateway.self) to"
          + " its registration."))
  }

  @Test func aSubclassNamesItsRegistrationWithoutAnInstance() {
    let container = DIContainer()
    container.register(Advice.Truck.init)
    let error = #expect(throws: DIError.self) {
      let _: Advice.Vehicle = try container.tryResolve()
    }
    #expect(
      error?.hints.first?.contains("makes Vehicle instances but was not registered as Vehicle")
        == true)
  }

  @Test func aConformanceTheLibraryCannotSeeIsNotGuessed() {
    let container = DIContainer()
    container.register(Advice.Stripe.init)  // a prototype: no instance to look at
    let error = #expect(throws: DIError.self) {
      let _: Advice.Gateway = try container.tryResolve()
    }
    #expect(error?.code == .notRegistered)
    #expect(error?.hints == [])
    #expect(error?.description.contains("hint") == false)
  }

  @Test func aTaggedRegistrationIsNotSaidToMissAs() {
    let container = DIContainer()
    container.register(Advice.Truck.init).as(Advice.Vehicle.self, tag: Advice.Indoor.self)
    let error = #expect(throws: DIError.self) {
      let _: Advice.Vehicle = try container.tryResolve()
    }
    #expect(error?.hints.count == 1)
    #expect(
      error?.hints.first?.hasPrefix("Vehicle is registered only under the tag Indoor") == true)
  }

  @Test func aKeptErrorKeepsNoInstanceAlive() {
    weak var weakCat: Advice.Cat?
    var error: DIError?
    do {
      let container = DIContainer()
      container.register(Advice.Cat.init).lifetime(.perContainer(.single))
      weakCat = container.resolve() as Advice.Cat
      error = #expect(throws: DIError.self) { let _: Advice.Store = try container.tryResolve() }
    }
    #expect(weakCat == nil)
    #expect(error?.code == .notRegistered)
    #expect(error?.hints == [], "its container is gone: nothing left to hint at")
  }

  @Test func hintsAreWorkedOutOnlyWhenRead() {
    // An optional request that finds nothing builds no error text at all; this checks the
    // other half: a caught error's hints come from the container as it is when read.
    let container = DIContainer()
    let error = #expect(throws: DIError.self) {
      let _: Advice.Pet = try container.tryResolve()
    }
    #expect(error?.hints == [])
    container.register(Advice.Cat.init).as(Advice.Pet.self, tag: Advice.Indoor.self)
    let again = #expect(throws: DIError.self) {
      let _: Advice.Pet = try container.tryResolve()
    }
    #expect(again?.hints.count == 1)
  }

  // MARK: - Runtime arguments

  @Test func aMissingArgumentNamesTheComponentItsPositionAndType() {
    let container = DIContainer()
    container.register { Advice.Wide(width: arg($0)) }
    let error = #expect(throws: DIError.self) {
      let _: Advice.Wide = try container.tryResolve()
    }
    #expect(error?.code == .missingArgument)
    #expect(error?.argumentPosition == 1)
    #expect(error?.path.map(\.requested) == ["Wide"])
    #expect(
      error?.description.hasPrefix(
        "Cannot resolve Wide: Wide needs runtime argument 1 (Int), which was not passed; pass it"
          + " with resolve(arg:) or resolve(args:).") == true)
  }

  @Test func anArgumentADependencyNeedsSaysArgumentsGoToTheComponentAskedFor() {
    let container = DIContainer()
    container.register { Advice.Wide(width: arg($0)) }
    container.register { Advice.Wrapper(wide: $0, label: arg($1)) }
    let error = #expect(throws: DIError.self) {
      let _: Advice.Wrapper = try container.tryResolve(arguments: ["label"])
    }
    #expect(error?.code == .missingArgument)
    #expect(error?.path.map(\.requested) == ["Wrapper", "Wide"])
    #expect(
      error?.description.contains("runtime arguments go only to the component asked for")
        == true)
    #expect(error?.description.contains("inject a provider of Wide with its arguments") == true)
  }

  @Test func aWrongArgumentNamesItsPositionAndBothTypes() {
    let container = DIContainer()
    container.register { Advice.Wide(width: arg($0)) }
    let error = #expect(throws: DIError.self) {
      let _: Advice.Wide = try container.tryResolve(arguments: ["wide"])
    }
    #expect(error?.code == .wrongArgument)
    #expect(error?.argumentPosition == 1)
    #expect(
      error?.description.contains(
        "runtime argument 1 for Wide is of type String; its arg parameter 1 takes Int.") == true)
  }

  // MARK: - inject(into:)

  @Test func aFailureInsideInjectIntoAdvisesAnInitializerNotInjectInto() {
    let container = DIContainer()
    container.register(Advice.View.self)
    container.register(Advice.Presenter.self).injection(\.view)
    let error = #expect(throws: DIError.self) {
      try container.tryInject(into: Advice.Presenter())
    }
    #expect(error?.code == .noInitializer)
    let text = error?.description ?? ""
    #expect(text.contains("so the container cannot make one for Presenter"))
    #expect(text.contains("container.register(View.init)"))
    #expect(!text.contains("inject(into:)"))
  }

  @Test func askingForAComponentWithoutAnInitializerPointsAtInjectInto() {
    let container = DIContainer()
    container.register(Advice.View.self)
    let error = #expect(throws: DIError.self) {
      let _: Advice.View = try container.tryResolve()
    }
    #expect(error?.code == .noInitializer)
    #expect(error?.description.contains("call container.inject(into:)") == true)
  }

  // MARK: - file:line of the trapping forms

  @Test func lazyValueNamesTheRegistrationItWasInjectedInto() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      synchronously {
        let container = DIContainer()
        container.register(Advice.Store.init)
        container.register(Advice.Report.init)
        let report: Advice.Report = container.resolve()
        _ = report.store.value
      }
    }
    let printed = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(printed.contains("Cannot resolve Lazy<Store>: Gateway is not registered."))
    #expect(
      printed.contains(
        "requested at: Lazy<Store>.value; the Lazy<Store> was made for Report"
          + " (DIContainerTests/ErrorAdviceTests.swift:"))
    #expect(!printed.contains("requested at: DIContainer/"))
  }

  @Test func providerValueNamesWhereItWasResolved() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      synchronously {
        let container = DIContainer()
        container.register(Advice.Store.init)
        let provider: Provider<Advice.Store> = container.resolve()
        _ = provider.value
      }
    }
    let printed = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(
      printed.contains(
        "requested at: Provider<Store>.value; the Provider<Store> was resolved at"
          + " DIContainerTests/ErrorAdviceTests.swift:"))
  }

  @Test func theStarOperatorSaysItCannotKnowTheLine() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      synchronously {
        let container = DIContainer()
        let _: Advice.Store = *container
      }
    }
    let printed = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(printed.contains("Cannot resolve Store: Store is not registered."))
    #expect(
      printed.contains(
        "requested at: an unknown line: the * operator cannot receive its caller's #fileID and"
          + " #line; container.resolve() shows them"))
    #expect(!printed.contains("DIContainer+Resolve.swift"))
  }

  // MARK: - Descriptions never resolve

  @Test func describingLazyAndProviderMakesNothing() {
    let container = DIContainer()
    let counter = Counter()
    container.register { () -> Int in counter.next() }
    let lazy: Lazy<Int> = container.resolve()
    let provider: Provider<Int> = container.resolve()
    #expect(lazy.description == "Lazy<Int> (not made yet)")
    #expect(provider.description == "Provider<Int>")
    #expect(String(reflecting: lazy) == "Lazy<Int> (not made yet)")
    #expect(counter.value == 0)
    _ = lazy.value
    #expect(lazy.description == "Lazy<Int>: 1")
    #expect(counter.value == 1)
  }

  @Test func describingProvidersWithArgumentsMakesNothing() {
    let container = DIContainer()
    let counter = Counter()
    container.register { (width: DIArg<Int>) -> Advice.Wide in
      _ = counter.next()
      return Advice.Wide(width: width.value)
    }
    let provider: Provider1<Advice.Wide, Int> = container.resolve()
    let lazy: Lazy1<Advice.Wide, Int> = container.resolve()
    #expect(provider.description == "Provider1<Wide, Int>")
    #expect(lazy.description == "Lazy1<Wide, Int> (not made yet)")
    #expect(counter.value == 0)
  }

  @Test func describingAFailingProviderNeitherResolvesNorStops() {
    let container = DIContainer()
    container.register(Advice.Store.init)
    let provider: Provider<Advice.Store> = container.resolve()
    #expect(provider.description == "Provider<Store>")
    // `print(provider)` writes the value, as the seed's examples do; a failure writes the
    // error's text instead of stopping the program.
    var printed = ""
    print(provider, terminator: "", to: &printed)
    #expect(printed.hasPrefix("Provider<Store> could not make its value: Cannot resolve"))
  }

  // MARK: - Cleaning an unknown scope

  @Test func cleaningAnUnknownScopeWarnsWithTheClosestName() {
    let container = DIContainer()
    container.register(Advice.Cat.init).lifetime(.custom(name: "Session"))
    let lines = DISetting.Log.capturing { container.clean(scope: "Sesion") }
    #expect(
      lines == [
        "warning: clean(scope: \"Sesion\"): this container has no scope named \"Sesion\"; did"
          + " you mean \"Session\"? (known: Session); nothing was cleaned."
      ])
  }

  @Test func cleaningAKnownScopeWarnsAboutNothing() {
    let container = DIContainer()
    container.register(Advice.Cat.init).lifetime(.custom(name: "Session"))
    let lines = DISetting.Log.capturing { container.clean(scope: "Session") }
    #expect(lines.filter { $0.hasPrefix("warning") }.isEmpty)
  }
}
