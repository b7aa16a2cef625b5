import DIContainer
import DITestSupport
import Synchronization
import Testing

// Runtime arguments addressed to a component of the request by its type (`DIArgument`):
// `resolve(arguments: .for(T.self, …), …)`, `tryResolve` and `resolveAsync`.

private final class AAPixels {
  let size: Int
  init(size: Int) { self.size = size }
}
private final class AAAvatar {
  let size: Int
  let pixels: AAPixels
  init(size: Int, pixels: AAPixels) {
    self.size = size
    self.pixels = pixels
  }
}
private protocol AAImage: AnyObject { var size: Int { get } }
private final class AAIcon: AAImage {
  let size: Int
  init(size: Int) { self.size = size }
}
private final class AAProfile {
  let name: String
  let avatar: AAAvatar
  init(name: String, avatar: AAAvatar) {
    self.name = name
    self.avatar = avatar
  }
}
private final class AAUser {
  let profile: AAProfile
  init(profile: AAProfile) { self.profile = profile }
}
private final class AAFrame {
  let width: Int
  let height: Int
  var title = ""
  init(width: Int, height: Int) {
    self.width = width
    self.height = height
  }
}
private final class AAPicture {
  let frame: AAFrame
  init(frame: AAFrame) { self.frame = frame }
}
private final class AAPair {
  let first: AAIcon
  let second: AAIcon
  init(first: AAIcon, second: AAIcon) {
    self.first = first
    self.second = second
  }
}
private final class AAGallery {
  let image: AAImage
  init(image: AAImage) { self.image = image }
}
private final class AAOptionalHolder {
  let icon: AAIcon?
  init(icon: AAIcon?) { self.icon = icon }
}
private final class AAPool: Sendable {
  let url: String
  init(url: String) { self.url = url }
}
private final class AARepository: Sendable {
  let pool: AAPool
  init(pool: AAPool) { self.pool = pool }
}
private final class AAService: Sendable {
  let repository: AARepository
  let name: String
  init(repository: AARepository, name: String) {
    self.repository = repository
    self.name = name
  }
}

@Suite struct AddressedArgumentsTests {
  /// Profile → Avatar → Pixels: each level takes its own addressed arguments, the deepest
  /// two levels below the component asked for.
  @Test func argumentsReachAComponentTwoLevelsDeep() throws {
    let container = DIContainer()
    container.register { AAPixels(size: arg($0)) }
    container.register { AAAvatar(size: arg($0), pixels: $1) }
    container.register { AAProfile(name: "ann", avatar: $0) }
    container.register(AAUser.init)
    let user: AAUser = try container.tryResolve(
      arguments: .for(AAPixels.self, 4), .for(AAAvatar.self, 128))
    #expect(user.profile.avatar.pixels.size == 4)
    #expect(user.profile.avatar.size == 128)
  }

  /// The component asked for and a dependency take theirs in one request, whichever order
  /// they are passed in; the trapping form behaves as the throwing one.
  @Test func argumentsReachTheRequestedComponentAndADependencyAtOnce() {
    let container = DIContainer()
    container.register { AAPixels(size: 1) }
    container.register { AAAvatar(size: arg($0), pixels: $1) }
    container.register { AAProfile(name: arg($0), avatar: $1) }
    let profile: AAProfile = container.resolve(
      arguments: .for(AAProfile.self, "ann"), .for(AAAvatar.self, 64))
    #expect(profile.name == "ann")
    #expect(profile.avatar.size == 64)
  }

  /// Several values for one component go to its `arg` parameters in order, the
  /// initializer's first, then the injections'.
  @Test func severalArgumentsForOneComponentGoInOrder() throws {
    let container = DIContainer()
    container.register { AAFrame(width: arg($0), height: arg($1)) }
      .injection { (frame: AAFrame, title: DIArg<String>) in frame.title = title.value }
    container.register(AAPicture.init)
    let picture: AAPicture = try container.tryResolve(
      arguments: .for(AAFrame.self, 640, 480, "sunset"))
    #expect(picture.frame.width == 640)
    #expect(picture.frame.height == 480)
    #expect(picture.frame.title == "sunset")
  }

  /// A `.prototype` two parameters of the request need is built twice, and takes the same
  /// arguments both times.
  @Test func aPrototypeBuiltTwiceTakesTheSameArgumentsEachTime() throws {
    let container = DIContainer()
    let builds = Atomic(0)
    container.register { (size: DIArg<Int>) -> AAIcon in
      builds.add(1, ordering: .relaxed)
      return AAIcon(size: size.value)
    }
    container.register(AAPair.init)
    let pair: AAPair = try container.tryResolve(arguments: .for(AAIcon.self, 32))
    #expect(builds.load(ordering: .relaxed) == 2)
    #expect(pair.first !== pair.second)
    #expect(pair.first.size == 32)
    #expect(pair.second.size == 32)
  }

  /// A type matches a component through a service it answers, not only its implementation
  /// type; when both are addressed, the implementation type's values win and the service's
  /// are left over (`.extraArguments`, naming the service).
  @Test func aServiceTypeAddressesTheComponentThatAnswersIt() throws {
    let container = DIContainer()
    container.register { AAIcon(size: arg($0)) }.as(AAImage.self)
    container.register(AAGallery.init)
    let gallery: AAGallery = try container.tryResolve(arguments: .for(AAImage.self, 16))
    #expect(gallery.image.size == 16)
    let byImplementation: AAGallery = try container.tryResolve(arguments: .for(AAIcon.self, 48))
    #expect(byImplementation.image.size == 48)
    #expect {
      let _: AAGallery = try container.tryResolve(
        arguments: .for(AAImage.self, 16), .for(AAIcon.self, 48))
    } throws: { error in
      let error = error as? DIError
      return error?.code == .extraArguments && error?.description.contains("AAImage") == true
    }
  }

  /// Arguments addressed to a type the request never builds are `.extraArguments`, and the
  /// error names that type.
  @Test func argumentsForATypeNotBuiltAreExtraArguments() {
    let container = DIContainer()
    container.register { AAPixels(size: 1) }
    container.register { AAAvatar(size: arg($0), pixels: $1) }
    #expect {
      let _: AAAvatar = try container.tryResolve(
        arguments: .for(AAAvatar.self, 8), .for(AAProfile.self, "ann"))
    } throws: { error in
      let error = error as? DIError
      return error?.code == .extraArguments && error?.description.contains("AAProfile") == true
    }
  }

  /// More values than the component has `arg` parameters are `.extraArguments` too.
  @Test func moreValuesThanTheComponentTakesAreExtraArguments() {
    let container = DIContainer()
    container.register { AAIcon(size: arg($0)) }
    #expect {
      let _: AAIcon = try container.tryResolve(arguments: .for(AAIcon.self, 8, 9))
    } throws: { error in
      (error as? DIError)?.code == .extraArguments
    }
  }

  /// A dependency whose `arg` parameter gets nothing addressed to it still fails with
  /// `.missingArgument` at its first argument, naming it and how to address it.
  @Test func aComponentWithoutAddressedArgumentsStillMissesThem() {
    let container = DIContainer()
    container.register { AAPixels(size: arg($0)) }
    container.register { AAAvatar(size: arg($0), pixels: $1) }
    let error = #expect(throws: DIError.self) {
      let _: AAAvatar = try container.tryResolve(arguments: .for(AAAvatar.self, 8))
    }
    #expect(error?.code == .missingArgument)
    #expect(error?.argumentPosition == 1)
    #expect(error?.path.map(\.requested) == ["AAAvatar", "AAPixels"])
    #expect(error?.description.contains("resolve(arguments: .for(AAPixels.self, …))") == true)
  }

  /// An optional parameter of a component that needs arguments gets one built with its
  /// addressed arguments, and nil without them.
  @Test func anOptionalDependencyIsBuiltWithItsAddressedArguments() throws {
    let container = DIContainer()
    container.register { AAIcon(size: arg($0)) }
    container.register(AAOptionalHolder.init)
    let holder: AAOptionalHolder = try container.tryResolve(arguments: .for(AAIcon.self, 5))
    #expect(holder.icon?.size == 5)
    let without: AAOptionalHolder = try container.tryResolve()
    #expect(without.icon == nil)
  }

  /// A `.multiton` dependency is keyed by the arguments addressed to it: equal arguments
  /// give the kept instance, others a new one.
  @Test func aMultitonDependencyIsKeyedByItsAddressedArguments() throws {
    let container = DIContainer()
    container.register { AAIcon(size: arg($0)) }.lifetime(.multiton)
    container.register(AAPair.init)
    let first: AAPair = try container.tryResolve(arguments: .for(AAIcon.self, 8))
    let second: AAPair = try container.tryResolve(arguments: .for(AAIcon.self, 8))
    let other: AAPair = try container.tryResolve(arguments: .for(AAIcon.self, 9))
    #expect(first.first === first.second)
    #expect(first.first === second.first)
    #expect(other.first !== first.first)
    #expect(other.first.size == 9)
  }

  /// A component of the parent container, asked for through a child, takes its addressed
  /// arguments; a component already kept by its lifetime is not built, so arguments
  /// addressed to it are left over.
  @Test func aParentsComponentTakesItsArgumentsAndAKeptOneTakesNone() throws {
    let parent = DIContainer()
    parent.register { AAAvatar(size: arg($0), pixels: $1) }.lifetime(.perContainer(.single))
    parent.register { AAPixels(size: 2) }
    let child = DIContainer(parent: parent)
    child.register { AAProfile(name: "ann", avatar: $0) }
    let profile: AAProfile = try child.tryResolve(arguments: .for(AAAvatar.self, 96))
    #expect(profile.avatar.size == 96)
    let error = #expect(throws: DIError.self) {
      let _: AAProfile = try child.tryResolve(arguments: .for(AAAvatar.self, 96))
    }
    #expect(error?.code == .extraArguments)
    #expect(error?.description.contains("addressed to AAAvatar") == true)
  }

  /// A request scope's forms address arguments as the container's do.
  @Test func aRequestScopeTakesAddressedArguments() async throws {
    let container = DIContainer()
    container.register { AAIcon(size: arg($0)) }.as(AAImage.self)
    container.register(AAGallery.init)
    let scope = container.makeScope()
    let gallery: AAGallery = try scope.tryResolve(arguments: .for(AAImage.self, 7))
    #expect(gallery.image.size == 7)
    let later: AAGallery = try await scope.resolveAsync(arguments: .for(AAImage.self, 9))
    #expect(later.image.size == 9)
  }

  /// The positional forms keep their meaning beside the addressed ones.
  @Test func positionalFormsAreUnchanged() async throws {
    let container = DIContainer()
    container.register { AAIcon(size: arg($0)) }
    let icon: AAIcon = try container.tryResolve(arguments: [3])
    #expect(icon.size == 3)
    let later: AAIcon = try await container.resolveAsync(arguments: [4])
    #expect(later.size == 4)
  }

  /// An async factory two levels below the component asked for takes its addressed
  /// argument, and so does the component asked for, in one asynchronous request.
  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func anAsyncFactoryTwoLevelsDeepTakesItsArguments() async throws {
    let container = DIContainer()
    container.register { (url: DIArg<String>) async -> AAPool in
      await Task.yield()
      return AAPool(url: url.value)
    }
    container.register(AARepository.init)
    container.register { AAService(repository: $0, name: arg($1)) }
    let service: AAService = try await container.resolveAsync(
      arguments: .for(AAPool.self, "postgres://db"), .for(AAService.self, "orders"))
    #expect(service.repository.pool.url == "postgres://db")
    #expect(service.name == "orders")
  }

  /// The async form reports arguments for a type not built as the synchronous one does.
  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func theAsyncFormReportsArgumentsForATypeNotBuilt() async {
    let container = DIContainer()
    container.register { (url: DIArg<String>) async -> AAPool in AAPool(url: url.value) }
    container.register(AARepository.init)
    await #expect {
      let _: AARepository = try await container.resolveAsync(
        arguments: .for(AAPool.self, "db"), .for(AAService.self, "orders"))
    } throws: { error in
      let error = error as? DIError
      return error?.code == .extraArguments && error?.description.contains("AAService") == true
    }
  }
}
