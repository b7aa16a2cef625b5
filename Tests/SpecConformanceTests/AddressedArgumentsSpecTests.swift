import DIContainer
import DITestSupport
import Testing

// SPEC.md, "Overrides, defaults and inspection": `resolve(arguments:)` /
// `tryResolve(arguments:)` / `resolveAsync(arguments:)` address runtime arguments to any
// component of the request by its type; arguments for a type the request never builds are
// `.extraArguments`.

protocol SOPicture: Sendable { var size: Int { get } }
final class SOAvatar: SOPicture, Sendable {
  let size: Int
  init(size: Int) { self.size = size }
}
final class SOUser: Sendable {
  let name: String
  let avatar: SOAvatar
  init(name: String, avatar: SOAvatar) {
    self.name = name
    self.avatar = avatar
  }
}
final class SOProfile: Sendable {
  let user: SOUser
  let title: String
  init(user: SOUser, title: String) {
    self.user = user
    self.title = title
  }
}
final class SOFrame: Sendable {
  let picture: any SOPicture
  init(picture: any SOPicture) { self.picture = picture }
}
final class SOUnrelated: Sendable {}
final class SOAvatarPair: Sendable {
  let left: SOAvatar
  let right: SOAvatar
  init(left: SOAvatar, right: SOAvatar) {
    self.left = left
    self.right = right
  }
}
@Suite struct SOAddressedArgumentsSpecTests {
  private func makeContainer() -> DIContainer {
    let container = DIContainer()
    container.register { SOAvatar(size: arg($0)) }.as(SOPicture.self)
    container.register { SOUser(name: arg($0), avatar: $1) }
    container.register { SOProfile(user: $0, title: arg($1)) }
    container.register { SOFrame(picture: $0) }
    container.register(SOUnrelated.init)
    return container
  }

  @Test func theSnippetAddressesArgumentsToTheRequestAndItsDependency() {
    let container = makeContainer()
    let user: SOUser = container.resolve(
      arguments: .for(SOAvatar.self, 128), .for(SOUser.self, "ann"))
    #expect(user.name == "ann")
    #expect(user.avatar.size == 128)
  }

  @Test func argumentsReachComponentsSeveralLevelsDownInAnyOrder() throws {
    let container = makeContainer()
    let profile: SOProfile = try container.tryResolve(
      arguments: .for(SOProfile.self, "Dr"), .for(SOAvatar.self, 64), .for(SOUser.self, "bob"))
    #expect(profile.title == "Dr")
    #expect(profile.user.name == "bob")
    #expect(profile.user.avatar.size == 64)
  }

  @Test func argumentsCanBeAddressedToAServiceTheComponentAnswers() throws {
    let container = makeContainer()
    let frame: SOFrame = try container.tryResolve(arguments: .for(SOPicture.self, 32))
    #expect(frame.picture.size == 32)
  }

  @Test func argumentsForATypeTheRequestNeverBuildsAreExtraArguments() {
    let container = makeContainer()
    let error = #expect(throws: DIError.self) {
      let _: SOUser = try container.tryResolve(
        arguments: .for(SOAvatar.self, 128), .for(SOUser.self, "ann"), .for(SOUnrelated.self, 1))
    }
    #expect(error?.code == .extraArguments)
    #expect(error?.description.contains("SOUnrelated") == true, "names the type")
  }

  @Test func argumentsForARegisteredTypeOutsideTheGraphAreExtraArgumentsForResolveAsync() async {
    let container = makeContainer()
    let error = await #expect(throws: DIError.self) {
      let _: SOAvatar = try await container.resolveAsync(
        arguments: .for(SOAvatar.self, 1), .for(SOProfile.self, "never built"))
    }
    #expect(error?.code == .extraArguments)
  }

  @Test func moreValuesThanTheComponentTakesAreExtraArguments() {
    let container = makeContainer()
    let error = #expect(throws: DIError.self) {
      let _: SOAvatar = try container.tryResolve(arguments: .for(SOAvatar.self, 1, 2))
    }
    #expect(error?.code == .extraArguments)
  }

  @Test func aMissingAddressedArgumentIsAnError() {
    let container = makeContainer()
    let error = #expect(throws: DIError.self) {
      let _: SOUser = try container.tryResolve(arguments: .for(SOUser.self, "ann"))
    }
    #expect(error?.code != nil)
    #expect(error?.description.contains("SOAvatar") == true, "\(String(describing: error))")
  }

  @Test func resolveAsyncAddressesArgumentsToAsyncComponentsAtAnyDepth() async throws {
    let container = DIContainer()
    container.register { (size: DIArg<Int>) async -> SOAvatar in
      SOAvatar(size: size.value)
    }
    container.register { (name: DIArg<String>, avatar: SOAvatar) async -> SOUser in
      SOUser(name: name.value, avatar: avatar)
    }
    let user: SOUser = try await container.resolveAsync(
      arguments: .for(SOAvatar.self, 256), .for(SOUser.self, "cy"))
    #expect(user.name == "cy")
    #expect(user.avatar.size == 256)
  }

  @Test func aSynchronousRequestForAnAsyncComponentWithArgumentsIsAnAsyncFactoryError() {
    let container = DIContainer()
    container.register { (size: DIArg<Int>) async -> SOAvatar in
      SOAvatar(size: size.value)
    }
    let error = #expect(throws: DIError.self) {
      let _: SOAvatar = try container.tryResolve(arguments: .for(SOAvatar.self, 1))
    }
    #expect(error?.code == .asyncFactory)
  }

  @Test func argumentsForAnInstanceALifetimeAlreadyKeepsAreExtraArguments() throws {
    let container = DIContainer()
    container.register { SOAvatar(size: arg($0)) }.lifetime(.perContainer(.single))
    let first: SOAvatar = try container.tryResolve(arguments: .for(SOAvatar.self, 10))
    #expect(first.size == 10)
    let error = #expect(throws: DIError.self) {
      let _: SOAvatar = try container.tryResolve(arguments: .for(SOAvatar.self, 20))
    }
    #expect(error?.code == .extraArguments, "the kept instance is not built, so takes none")
    #expect(try container.tryResolve() as SOAvatar === first)
  }

  @Test func aPrototypeBuiltTwiceInOneRequestTakesTheSameValuesEachTime() throws {
    let container = DIContainer()
    container.register { SOAvatar(size: arg($0)) }
    container.register(SOAvatarPair.init)
    let pair: SOAvatarPair = try container.tryResolve(arguments: .for(SOAvatar.self, 5))
    #expect(pair.left !== pair.right)
    #expect(pair.left.size == 5 && pair.right.size == 5)
  }

  @Test func aMultitonIsKeyedByItsAddressedArguments() throws {
    let container = DIContainer()
    container.register { SOAvatar(size: arg($0)) }.lifetime(.multiton)
    container.register { SOUser(name: arg($0), avatar: $1) }
    let one: SOUser = try container.tryResolve(
      arguments: .for(SOUser.self, "a"), .for(SOAvatar.self, 1))
    let again: SOUser = try container.tryResolve(
      arguments: .for(SOUser.self, "b"), .for(SOAvatar.self, 1))
    let two: SOUser = try container.tryResolve(
      arguments: .for(SOUser.self, "c"), .for(SOAvatar.self, 2))
    #expect(one.avatar === again.avatar)
    #expect(one.avatar !== two.avatar)
    #expect(two.avatar.size == 2)
  }

  @Test func aWrongTypedAddressedArgumentIsAnErrorNotATrap() {
    let container = makeContainer()
    let error = #expect(throws: DIError.self) {
      let _: SOAvatar = try container.tryResolve(arguments: .for(SOAvatar.self, "not an Int"))
    }
    #expect(error != nil)
  }

  @Test func addressedArgumentsWorkInARequestScope() async throws {
    let container = makeContainer()
    let scope = container.makeScope()
    defer { scope.close() }
    let user: SOUser = try await scope.resolveAsync(
      arguments: .for(SOAvatar.self, 3), .for(SOUser.self, "dee"))
    #expect(user.name == "dee" && user.avatar.size == 3)
  }
}
