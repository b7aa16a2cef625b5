import DIContainer
import DITestSupport
import Testing

// SPEC.md, "Overrides, defaults and inspection": `DIContainer(defaultLifetime:)` sets the
// lifetime of registrations that set none; `DIContainer(parent:defaultLifetime:)` too, and a
// child without one inherits its parent's.

final class SODefaultPart: Sendable {}
final class SODefaultWhole: Sendable {
  let left: SODefaultPart
  let right: SODefaultPart
  init(left: SODefaultPart, right: SODefaultPart) {
    self.left = left
    self.right = right
  }
}

@Suite struct SODefaultLifetimeSpecTests {
  @Test func registrationsWithoutALifetimeTakeTheContainersDefault() throws {
    let container = DIContainer(defaultLifetime: .perContainer(.single))
    let cleaned = Counter()
    container.register(SODefaultPart.init).onClean { _ in cleaned.next() }
    let first: SODefaultPart = try container.tryResolve()
    #expect(try container.tryResolve() as SODefaultPart === first)
    container.clean()
    #expect(cleaned.value == 1, "cached as .perContainer(.single): clean() drops it")
    #expect(try container.tryResolve() as SODefaultPart !== first)
  }

  @Test func anExplicitLifetimeBeatsTheDefault() throws {
    let container = DIContainer(defaultLifetime: .perContainer(.single))
    container.register(SODefaultPart.init).lifetime(.prototype)
    #expect(try container.tryResolve() as SODefaultPart !== container.tryResolve() as SODefaultPart)
  }

  @Test func anObjectGraphDefaultSharesOneInstanceWithinAResolve() throws {
    let container = DIContainer(defaultLifetime: .objectGraph)
    container.register(SODefaultPart.init)
    container.register(SODefaultWhole.init)
    let whole: SODefaultWhole = try container.tryResolve()
    #expect(whole.left === whole.right)
    let next: SODefaultWhole = try container.tryResolve()
    #expect(next.left !== whole.left)
  }

  @Test func thePlainInitializerDefaultsToPrototype() throws {
    let container = DIContainer()
    container.register(SODefaultPart.init)
    container.register(SODefaultWhole.init)
    let whole: SODefaultWhole = try container.tryResolve()
    #expect(whole.left !== whole.right)
  }

  @Test func childrenAndGrandchildrenInheritUnlessTheySetTheirOwn() throws {
    let parent = DIContainer(defaultLifetime: .perContainer(.single))
    let child = DIContainer(parent: parent)
    let grandchild = DIContainer(parent: child)
    let own = DIContainer(parent: parent, defaultLifetime: .objectGraph)
    let ownChild = DIContainer(parent: own)
    #expect("\(child.defaultLifetime)" == "\(parent.defaultLifetime)")
    grandchild.register(SODefaultPart.init)
    #expect(
      try grandchild.tryResolve() as SODefaultPart === grandchild.tryResolve() as SODefaultPart,
      "a grandchild inherits through its parent")
    ownChild.register(SODefaultPart.init)
    ownChild.register(SODefaultWhole.init)
    let whole: SODefaultWhole = try ownChild.tryResolve()
    #expect(whole.left === whole.right, "objectGraph inherited from the nearer parent")
    #expect(try ownChild.tryResolve() as SODefaultPart !== ownChild.tryResolve() as SODefaultPart)
  }

  @Test func theParentsRegistrationsKeepTheParentsDefault() throws {
    let parent = DIContainer()
    parent.register(SODefaultPart.init)
    let child = DIContainer(parent: parent, defaultLifetime: .perContainer(.single))
    #expect(
      try child.tryResolve() as SODefaultPart !== child.tryResolve() as SODefaultPart,
      "the parent's registration stays .prototype")
  }

  @Test func aScopedDefaultCachesPerRequestScope() async throws {
    let container = DIContainer(defaultLifetime: .scoped)
    container.register(SODefaultPart.init)
    let error = await #expect(throws: DIError.self) {
      let _: SODefaultPart = try await container.resolveAsync()
    }
    #expect(error?.code == .outsideScope)
    let first = container.makeScope()
    let second = container.makeScope()
    let a: SODefaultPart = try await first.resolveAsync()
    #expect(try await first.resolveAsync() as SODefaultPart === a)
    #expect(try await second.resolveAsync() as SODefaultPart !== a)
    first.close()
    second.close()
  }
}
