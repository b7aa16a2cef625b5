import DIContainer
import Testing

private final class Parsed {
  let text: String
  init?(text: String) {
    guard !text.isEmpty else { return nil }
    self.text = text
  }
}

private final class Pillow {
  let size: Int?
  let color: String
  init(color: String, size: Int?) {
    self.color = color
    self.size = size
  }
}

/// A factory returning `T?` provides `T`; an optional `arg` is nil when no argument is
/// passed; the registration log names the lifetime.
@Suite struct FactoryOptionalTests {
  // MARK: - Factories returning an Optional

  @Test func aFactoryReturningAnOptionalProvidesTheWrappedType() {
    let container = DIContainer()
    container.register { () -> Cat? in Cat() }.as(Animal.self).lifetime(.perContainer(.single))
    let cat: Cat = container.resolve()
    let animal: Animal = container.resolve()
    #expect(animal === cat)
  }

  @Test func aFailableInitializerReferenceProvidesTheType() {
    let container = DIContainer()
    container.register { "hello" }
    container.register(Parsed.init(text:))
    let parsed: Parsed = container.resolve()
    #expect(parsed.text == "hello")
  }

  @Test func nilFromTheFactoryIsAnErrorNamingTheRegistration() {
    let container = DIContainer()
    container.register { () -> Cat? in nil }
    let error = #expect(throws: DIError.self) { let _: Cat = try container.tryResolve() }
    #expect(error?.code == .factoryReturnedNil)
    let text = error?.description ?? ""
    #expect(text.hasPrefix("Cannot resolve Cat: the factory of Cat returned nil"))
    #expect(text.contains("Cat: Cat (DIContainerTests/FactoryOptionalTests.swift:"))
  }

  @Test func nilFromTheFactoryIsAnErrorForOptionalRequestsAndDependentsToo() {
    let container = DIContainer()
    container.register { "" }
    container.register(Parsed.init(text:))
    container.register { (parsed: Parsed) in Pillow(color: parsed.text, size: nil) }
    let optional = #expect(throws: DIError.self) { let _: Parsed? = try container.tryResolve() }
    let dependent = #expect(throws: DIError.self) { let _: Pillow = try container.tryResolve() }
    #expect(optional?.code == .factoryReturnedNil)
    #expect(dependent?.code == .factoryReturnedNil)
    #expect(dependent?.path.map(\.requested) == ["Pillow", "Parsed"])
  }

  @Test func aFactoryReturningAValueStillRegistersItsType() {
    let container = DIContainer()
    container.register { Cat() }
    let graph = container.makeGraph()
    #expect(graph.components.map { "\($0.type)" } == ["Cat"])
  }

  // MARK: - Optional arguments

  @Test func anOptionalArgIsNilWhenNoArgumentIsPassed() {
    let container = DIContainer()
    container.register { Pillow(color: arg($0), size: arg($1)) }
    let sized: Pillow = container.resolve(args: "red", 2)
    let unsized: Pillow = container.resolve(arg: "blue")
    #expect(sized.size == 2)
    #expect(unsized.size == nil)
    #expect(unsized.color == "blue")
  }

  @Test func anOptionalArgTakesANilArgument() {
    let container = DIContainer()
    container.register { Pillow(color: arg($0), size: arg($1)) }
    let pillow: Pillow = container.resolve(args: "red", Int?.none)
    #expect(pillow.size == nil)
  }

  @Test func aComponentWhoseOnlyArgIsOptionalResolvesWithoutArguments() {
    let container = DIContainer()
    container.register { (size: DIArg<Int?>) in Pillow(color: "white", size: size.value) }
    let pillow: Pillow = container.resolve()
    #expect(pillow.size == nil)
    let optional: Pillow? = container.resolve()
    #expect(optional != nil, "an optional request too: the arg can do without an argument")
  }

  @Test func aMissingNonOptionalArgIsStillAnError() {
    let container = DIContainer()
    container.register { Pillow(color: arg($0), size: arg($1)) }
    let error = #expect(throws: DIError.self) { let _: Pillow = try container.tryResolve() }
    #expect(error?.code == .missingArgument)
  }

  @Test func aWronglyTypedArgumentForAnOptionalArgIsStillAnError() {
    let container = DIContainer()
    container.register { Pillow(color: arg($0), size: arg($1)) }
    let error = #expect(throws: DIError.self) {
      let _: Pillow = try container.tryResolve(arguments: ["red", "large"])
    }
    #expect(error?.code == .wrongArgument)
  }

  // MARK: - The registration's log line

  @Test func theRegistrationLogNamesTheLifetime() {
    let lines = DISetting.Log.capturing {
      let container = DIContainer()
      container.register(Cat.init)
      container.register(Dog.init).lifetime(.perContainer(.weak))
    }
    let cat = lines.first { $0.contains("registered Cat at ") }
    let dog = lines.first { $0.contains("lifetime of Dog at ") }
    #expect(
      cat?.hasPrefix("verbose: registered Cat at DIContainerTests/FactoryOptionalTests.swift:")
        == true)
    #expect(cat?.hasSuffix(", lifetime prototype") == true)
    #expect(dog?.hasSuffix(": perContainer(.weak)") == true)
  }
}
