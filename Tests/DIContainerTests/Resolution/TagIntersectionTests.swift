import DIContainer
import DITestSupport
import Testing

private enum Small {}
private enum Big {}
private enum Loud {}

// `Pet`, `Cat`, `Dog` and `Indoor` are the shared fixtures.
private final class Puppy: Pet {}
private final class Hamster: Pet {}

private final class Kennel {
  let pet: any Pet
  init(pet: any Pet) { self.pet = pet }
}

/// Nested `by(tag:on:)` and `by(tags:on:)` ask for every tag written; a type registered
/// under a tag only answers no plain request of it.
@Suite struct TagIntersectionTests {
  /// Cat is indoor and small, Puppy only indoor, Hamster only small.
  private func pets() -> DIContainer {
    let container = DIContainer()
    container.register(Puppy.init).as(Pet.self, tag: Indoor.self)
    container.register(Cat.init).as(Pet.self, tag: Indoor.self).as(Pet.self, tag: Small.self)
    container.register(Hamster.init).as(Pet.self, tag: Small.self)
    return container
  }

  @Test func nestedTagsFindTheComponentUnderBothInEitherOrder() {
    let container = pets()
    let indoorSmall: Pet = by(tag: Indoor.self, on: by(tag: Small.self, on: container.resolve()))
    let smallIndoor: Pet = by(tag: Small.self, on: by(tag: Indoor.self, on: container.resolve()))
    #expect(indoorSmall is Cat)
    #expect(smallIndoor is Cat)
  }

  @Test func byTagsSaysTheSameInResolveAndInInitializers() {
    let container = pets()
    container.register { Kennel(pet: by(tags: Small.self, Indoor.self, on: $0)) }
    let pet: Pet = by(tags: Indoor.self, Small.self, on: container.resolve())
    let kennel: Kennel = container.resolve()
    #expect(pet is Cat)
    #expect(kennel.pet is Cat)
  }

  @Test func oneTagAloneStillFindsEveryComponentUnderIt() throws {
    let container = pets()
    let small: [Pet] = many(by(tag: Small.self, on: container.resolve()))
    #expect(small.map { "\(type(of: $0))" } == ["Cat", "Hamster"])
    // Two indoor pets and no default: ambiguous, not narrowed by the other tag.
    let indoor: Pet? = by(tag: Indoor.self, on: container.resolve())
    #expect(indoor == nil)
  }

  @Test func manyUnderSeveralTagsCollectsOnlyComponentsWithAllOfThem() {
    let container = pets()
    container.register(Cat.init).as(Pet.self, tag: Small.self).as(Pet.self, tag: Indoor.self)
      .as(Pet.self, tag: Loud.self)
    let both: [Pet] = many(by(tags: Indoor.self, Small.self, on: container.resolve()))
    let all3: [Pet] = many(by(tags: Loud.self, Indoor.self, Small.self, on: container.resolve()))
    let nested: [Pet] = many(
      by(tag: Loud.self, on: by(tag: Small.self, on: by(tag: Indoor.self, on: container.resolve())))
    )
    #expect(both.count == 2)
    #expect(all3.count == 1)
    #expect(nested.count == 1)
    #expect(both.allSatisfy { $0 is Cat })
  }

  @Test func aTagWrittenTwiceCountsOnce() {
    let container = pets()
    let pet: Pet = by(tags: Small.self, Small.self, Indoor.self, on: container.resolve())
    #expect(pet is Cat)
  }

  @Test func noComponentUnderAllTheTagsIsNotRegisteredAndSaysWhy() throws {
    let container = DIContainer()
    container.register(Puppy.init).as(Pet.self, tag: Indoor.self)
    container.register(Hamster.init).as(Pet.self, tag: Small.self)
    let optional: Pet? = by(tags: Indoor.self, Small.self, on: container.resolve())
    #expect(optional == nil)
    let error = #expect(throws: DIError.self) {
      let _: DIByTags<Pet, Indoor, Small> = try container.tryResolve()
    }
    #expect(error?.code == .notRegistered)
    let text = error?.description ?? ""
    #expect(text.contains("Pet tagged Indoor and Small is not registered"))
    #expect(text.contains("no component has all of Indoor and Small"))
  }

  @Test func delayedAndOptionalValuesTakeTheTagsToo() {
    let container = pets()
    let lazy: Lazy<Pet> = by(tags: Indoor.self, Small.self, on: container.resolve())
    let optional: Pet? = by(tag: Small.self, on: by(tag: Indoor.self, on: container.resolve()))
    #expect(lazy.value is Cat)
    #expect(optional is Cat)
  }

  @Test func graphValidationFollowsTheIntersection() throws {
    let container = pets()
    container.register { Kennel(pet: by(tags: Indoor.self, Small.self, on: $0)) }.root()
    try container.makeGraph().validate()

    let missing = DIContainer()
    missing.register(Puppy.init).as(Pet.self, tag: Indoor.self)
    missing.register { Kennel(pet: by(tags: Indoor.self, Small.self, on: $0)) }.root()
    #expect(throws: DIGraphValidationError.self) { try missing.makeGraph().validate() }
  }

  // MARK: - Untagged requests

  @Test func aTypeRegisteredOnlyUnderATagAnswersNoPlainRequest() {
    let container = DIContainer()
    container.register(Dog.init).as(Dog.self, tag: Big.self)
    let plain: Dog? = container.resolve()
    let big: Dog? = by(tag: Big.self, on: container.resolve())
    #expect(plain == nil)
    #expect(big != nil)
  }

  @Test func aPlainRequestSaysWhichTagTheTypeIsUnder() {
    let container = DIContainer()
    container.register(Dog.init).as(Dog.self, tag: Big.self)
    let error = #expect(throws: DIError.self) { let _: Dog = try container.tryResolve() }
    #expect(error?.code == .notRegistered)
    #expect(error?.hints.contains { $0.contains("registered only under the tag Big") } == true)
  }

  @Test func asTheTypeWithoutATagKeepsThePlainRequestInEitherOrder() {
    let container = DIContainer()
    container.register(Dog.init).as(Dog.self, tag: Big.self).as(Dog.self)
    let after: Dog? = container.resolve()
    #expect(after != nil)

    let other = DIContainer()
    other.register(Dog.init).as(Dog.self).as(Dog.self, tag: Big.self)
    let before: Dog? = other.resolve()
    #expect(before != nil)
  }

  @Test func aTaggedVariantDoesNotMakeThePlainRequestAmbiguous() {
    let container = DIContainer()
    let counter = Counter()
    container.register { () -> Dog in
      counter.next()
      return Dog()
    }
    container.register(Dog.init).as(Dog.self, tag: Big.self)
    let dog: Dog? = container.resolve()
    #expect(dog != nil)
    #expect(counter.value == 1, "the plain Dog was made, not the Big one")
  }

  @Test func tagsOnAnotherServiceLeaveTheImplementationTypePlain() {
    let container = DIContainer()
    container.register(Cat.init).as(Pet.self, tag: Indoor.self)
    let cat: Cat? = container.resolve()
    let pet: Pet? = container.resolve()
    #expect(cat != nil)
    #expect(pet == nil, "Pet is only under Indoor")
  }

  @Test func manyOfThePlainTypeStillCollectsTaggedComponents() {
    let container = DIContainer()
    container.register(Dog.init)
    container.register(Dog.init).as(Dog.self, tag: Big.self)
    let dogs: [Dog] = many(container.resolve())
    #expect(dogs.count == 2)
  }
}
