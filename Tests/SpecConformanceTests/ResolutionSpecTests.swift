import DIContainer
import DIFrameworks
import DITestSupport
import Synchronization
import Testing

/// SPEC.md, "Resolution": every line of the snippet verbatim (each in its own scope, since
/// the snippet declares `cat` several times), the modifiers, and candidate choice 1–4.
@Suite struct ResolutionSpecTests {
  protocol Animal: AnyObject {}
  protocol Pet: AnyObject {}
  enum Indoor {}
  enum Outdoor {}

  final class Bowl {}
  final class Food {}

  final class Cat: Animal, Pet {
    let name: String
    let age: Int
    let bowl: Bowl?
    var food: Food?
    init(name: String = "Tom", age: Int = 0, bowl: Bowl? = nil) {
      self.name = name
      self.age = age
      self.bowl = bowl
    }
  }

  final class Dog: Animal, Pet {}

  /// Receives every kind of modified parameter in an initializer closure.
  final class Shelter {
    let animals: [Animal]
    let indoor: Pet
    let name: String
    let missing: Bowl?
    let lazyCat: Lazy<Cat>
    let catProvider: Provider<Cat>
    init(
      animals: [Animal], indoor: Pet, name: String, missing: Bowl?, lazyCat: Lazy<Cat>,
      catProvider: Provider<Cat>
    ) {
      self.animals = animals
      self.indoor = indoor
      self.name = name
      self.missing = missing
      self.lazyCat = lazyCat
      self.catProvider = catProvider
    }
  }

  /// Receives modified parameters in injection closures.
  final class Keeper {
    var animals: [Animal] = []
    var indoor: Pet?
    var name = ""
    var missing: Bowl? = Bowl()
    var lazyCat: Lazy<Cat>?
  }

  protocol Logger: AnyObject {}
  final class FirstLogger: Logger {}
  final class SecondLogger: Logger {}
  final class ThirdLogger: Logger {}
  final class FourthLogger: Logger {}
  final class FifthLogger: Logger {}

  @Test func everyResolutionFormOfTheSpecWorks() throws {
    do {
      let container = DIContainer()
      container.register { Cat() }.as(Animal.self)
      container.register { Dog() }.as(Animal.self).as(Pet.self, tag: Indoor.self)
      do {
        let cat: Cat = container.resolve()  // traps with a readable message if impossible
        #expect(cat.name == "Tom")
      }
      do {
        let cat: Cat = *container  // the same, as a prefix operator
        #expect(cat.name == "Tom")
      }
      do {
        let cat: Cat? = container.resolve()  // nil when there is no unambiguous candidate
        #expect(cat != nil)
      }
      do {
        let cats: [Animal] = many(container.resolve())
        #expect(cats.count == 2)
        #expect(cats.first is Cat && cats.last is Dog, "in registration order")
      }
      do {
        let indoor: Pet = by(tag: Indoor.self, on: container.resolve())
        #expect(indoor is Dog)
      }
      do {
        let cat: Cat = try container.tryResolve()  // throws DIError (see Errors)
        #expect(cat.name == "Tom")
      }
    }
    do {
      let container = DIContainer()
      container.register { Cat(name: arg($0)) }
      let cat: Cat = container.resolve(arg: "Mimi")  // runtime argument(s), see arg()
      #expect(cat.name == "Mimi")
    }
    do {
      let container = DIContainer()
      container.register { Cat(name: arg($0), age: arg($1)) }
      let cat: Cat = container.resolve(args: "Mimi", 3)  // at least one argument (an empty
      // pack would make resolve() ambiguous)
      #expect(cat.name == "Mimi")
      #expect(cat.age == 3)
    }
    do {
      let container = DIContainer()
      container.register(Food.init)
      container.register(Cat.self).injection(\.food)
      let existingCat = Cat()
      // property injections of a `register(Cat.self)` component
      container.inject(into: existingCat)
      #expect(existingCat.food != nil)
    }
  }

  @Test func theTrappingResolveWithArgumentsNamesTheCallersLine() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let container = DIContainer()
      synchronously { let _: ResolutionSpecTests.Cat = container.resolve(args: "Mimi", 3) }
    }
    let printed = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(printed.contains("Cannot resolve Cat: Cat is not registered."))
    #expect(printed.contains("requested at: SpecConformanceTests/ResolutionSpecTests.swift:"))
  }

  @Test func optionalResolutionIsNilWithoutAnUnambiguousCandidate() {
    let container = DIContainer()
    let none: Cat? = container.resolve()
    #expect(none == nil)
    container.register { Cat() }
    container.register { Cat() }
    let ambiguous: Cat? = container.resolve()
    #expect(ambiguous == nil)
  }

  @Test func tryResolveThrowsDIErrorWhenImpossible() {
    let container = DIContainer()
    let error = #expect(throws: DIError.self) {
      let _: Cat = try container.tryResolve()
    }
    #expect(error?.reason == .notRegistered)
  }

  @Test func modifiersApplyToInitializerClosureParameters() {
    let container = DIContainer()
    container.register { Cat() }.as(Animal.self)
    container.register { Dog() }.as(Animal.self).as(Pet.self, tag: Indoor.self)
    container.register {
      Shelter(
        animals: many($0), indoor: by(tag: Indoor.self, on: $1), name: arg($2), missing: $3,
        lazyCat: $4, catProvider: $5)
    }
    let shelter: Shelter = container.resolve(arg: "Home")
    #expect(shelter.animals.count == 2)
    #expect(shelter.indoor is Dog)
    #expect(shelter.name == "Home")
    #expect(shelter.missing == nil, "`Bowl?` gets nil when unresolvable")
    #expect(!shelter.lazyCat.wasMade)
    #expect(shelter.lazyCat.value === shelter.lazyCat.value)
    #expect(shelter.catProvider.value !== shelter.catProvider.value)
  }

  @Test func modifiersApplyToInjectionClosureParameters() {
    let container = DIContainer()
    container.register { Cat() }.as(Animal.self)
    container.register { Dog() }.as(Animal.self).as(Pet.self, tag: Indoor.self)
    container.register(Keeper.init)
      .injection(\.animals) { many($0) }
      .injection(\.indoor) { by(tag: Indoor.self, on: $0) }
      .injection { keeper, name in keeper.name = arg(name) }
      .injection(\.missing)
      .injection(\.lazyCat)
    let keeper: Keeper = container.resolve(arg: "Zoo")
    #expect(keeper.animals.count == 2)
    #expect(keeper.indoor is Dog)
    #expect(keeper.name == "Zoo")
    #expect(keeper.missing == nil)
    #expect(keeper.lazyCat?.value.name == "Tom")
  }

  @Test func argTakesTheParameterFromResolveArg() {
    let container = DIContainer()
    container.register(Bowl.init)
    container.register { Cat(name: arg($0), bowl: $1) }
    let cat: Cat = container.resolve(arg: "Mimi")
    #expect(cat.name == "Mimi")
    #expect(cat.bowl != nil)
  }

  // MARK: - Candidate choice

  @Test func step1CandidatesAreChosenByTypeAndByTag() {
    let container = DIContainer()
    container.register { Cat() }.as(Pet.self)
    container.register { Dog() }.as(Pet.self, tag: Indoor.self)
    container.register { Cat(name: "Outside") }.as(Pet.self, tag: Outdoor.self)
    let plain: Pet = container.resolve()
    let indoor: Pet = by(tag: Indoor.self, on: container.resolve())
    let outdoor: Pet = by(tag: Outdoor.self, on: container.resolve())
    #expect((plain as? Cat)?.name == "Tom")
    #expect(indoor is Dog)
    #expect((outdoor as? Cat)?.name == "Outside")
  }

  @Test func step2ExactlyOneTestCandidateBeatsADefaultOne() {
    let container = DIContainer()
    container.register(FirstLogger.init).as(Logger.self).default()
    container.register(SecondLogger.init).as(Logger.self).test()
    container.register(ThirdLogger.init).as(Logger.self)
    let logger: Logger = container.resolve()
    #expect(logger is SecondLogger)
  }

  enum OwnFramework: DIFramework {
    static func load(container: DIContainer) {
      container.register(FirstLogger.init).as(Logger.self)
      container.register(SecondLogger.init).as(Logger.self).default()
    }
  }

  enum ImportedFramework: DIFramework {
    static func load(container: DIContainer) {
      container.register(ThirdLogger.init).as(Logger.self)
    }
  }

  enum OtherFramework: DIFramework {
    static func load(container: DIContainer) {
      container.register(FourthLogger.init).as(Logger.self).default()
    }
  }

  enum ImportingFramework: DIFramework {
    static func load(container: DIContainer) {
      container.import(ImportedFramework.self)
    }
  }

  @Test func step2TheTestCandidateBeatsModularity() {
    let container = DIContainer()
    container.append(framework: OwnFramework.self)
    container.register(FifthLogger.init).as(Logger.self).test()
    let logger: Logger = container.resolve(from: OwnFramework.self)
    #expect(logger is FifthLogger)
  }

  @Test func step3TheRequestingFrameworksOwnCandidatesWinDefaultOnesFirst() {
    let container = DIContainer()
    container.append(framework: OwnFramework.self)
    container.append(framework: OtherFramework.self)
    let own: Logger = container.resolve(from: OwnFramework.self)
    #expect(own is SecondLogger, "its own .default() one, though another framework has one too")
    let outside: Logger? = container.resolve()
    #expect(outside == nil, "from outside, two .default() candidates are ambiguous")
  }

  @Test func step3ThenTheCandidatesOfTheFrameworksItImports() {
    let container = DIContainer()
    container.append(framework: ImportingFramework.self)
    container.register(FifthLogger.init).as(Logger.self)
    let logger: Logger = container.resolve(from: ImportingFramework.self)
    #expect(logger is ThirdLogger)
  }

  @Test func step4ExactlyOneDefaultCandidateWins() {
    let container = DIContainer()
    container.register(FirstLogger.init).as(Logger.self)
    container.register(SecondLogger.init).as(Logger.self).default()
    let logger: Logger = container.resolve()
    #expect(logger is SecondLogger)
  }

  @Test func step4NoCandidateIsNotFound() {
    let container = DIContainer()
    let error = #expect(throws: DIError.self) {
      let _: Logger = try container.tryResolve()
    }
    #expect(error?.reason == .notRegistered)
  }

  @Test func step4SeveralCandidatesWithoutOneDefaultAreAmbiguous() {
    let container = DIContainer()
    container.register(FirstLogger.init).as(Logger.self)
    container.register(SecondLogger.init).as(Logger.self)
    let error = #expect(throws: DIError.self) {
      let _: Logger = try container.tryResolve()
    }
    guard case .ambiguous(let candidates) = error?.reason else {
      Issue.record("expected .ambiguous, got \(String(describing: error?.reason))")
      return
    }
    #expect(candidates.count == 2)

    container.register(ThirdLogger.init).as(Logger.self).default()
    container.register(FourthLogger.init).as(Logger.self).default()
    let twoDefaults = #expect(throws: DIError.self) {
      let _: Logger = try container.tryResolve()
    }
    if case .ambiguous = twoDefaults?.reason {
    } else {
      Issue.record("two .default() candidates: expected .ambiguous")
    }
  }

  // MARK: - Thread safety

  final class Created: Sendable {
    let count = Atomic(0)
  }

  final class Counted {
    init(_ created: Created) { created.count.add(1, ordering: .relaxed) }
  }

  @Test func threadsMayResolveRegisterAndCleanAtOnce() async throws {
    let container = DIContainer()
    let created = Created()
    container.register { Counted(created) }.lifetime(.perContainer(.single))
    container.register { Cat() }.as(Animal.self)
    let firsts = try await withThrowingTaskGroup(of: ObjectIdentifier.self) { group in
      for _ in 0..<4 {
        group.addTask {
          let counted: Counted = try container.tryResolve()
          return ObjectIdentifier(counted)
        }
      }
      return try await group.reduce(into: Set<ObjectIdentifier>()) { $0.insert($1) }
    }
    #expect(firsts.count == 1, "one instance of a .perContainer(.single) under contention")
    #expect(created.count.load(ordering: .relaxed) == 1)

    try await withThrowingTaskGroup(of: Void.self) { group in
      for task in 0..<4 {
        group.addTask {
          for iteration in 0..<200 {
            switch (task + iteration) % 3 {
            case 0: container.register { Dog() }.as(Animal.self)
            case 1: container.clean()
            default:
              let animals: [Animal] = try many(container.tryResolve())
              #expect(!animals.isEmpty)
            }
          }
        }
      }
      try await group.waitForAll()
    }
    let registered = (0..<4).map { task in (0..<200).filter { (task + $0) % 3 == 0 }.count }
    let animals: [Animal] = try many(container.tryResolve())
    #expect(animals.count == 1 + registered.reduce(0, +))
  }

  final class Avatar {
    let size: Int
    init(size: Int) { self.size = size }
  }

  final class User {
    let name: String
    let avatar: Avatar
    init(name: String, avatar: Avatar) {
      self.name = name
      self.avatar = avatar
    }
  }

  /// SPEC, "Overrides, defaults and inspection": the snippet's `resolve(arguments:)` line
  /// verbatim; arguments addressed by type reach the component asked for and its
  /// dependency, and arguments for a type the request never builds are `.extraArguments`.
  @Test func runtimeArgumentsAddressedByType() {
    let container = DIContainer()
    container.register { Avatar(size: arg($0)) }
    container.register { User(name: arg($0), avatar: $1) }
    let user: User = container.resolve(arguments: .for(Avatar.self, 128), .for(User.self, "ann"))
    #expect(user.name == "ann")
    #expect(user.avatar.size == 128)
    #expect {
      let _: User = try container.tryResolve(
        arguments: .for(Avatar.self, 128), .for(User.self, "ann"), .for(Cat.self, "Tom"))
    } throws: { error in
      let error = error as? DIError
      return error?.code == .extraArguments && error?.description.contains("Cat") == true
    }
  }
}
