import DIContainer
import Foundation
import Testing

protocol SCShape {
  var area: Int { get }
}

/// A struct too big for an existential's inline buffer.
struct SCBig: SCShape {
  let a: Int
  let b: Int
  let c: Int
  let d: Int
  let name: String
  var area: Int { a * b }
}

struct SCSmall: SCShape {
  let side: Int
  var area: Int { side * side }
}

final class SCBigObject: SCShape {
  let a: Int
  let b: Int
  let name: String
  init(a: Int, b: Int, name: String) {
    self.a = a
    self.b = b
    self.name = name
  }
  var area: Int { a * b }
}

protocol SCPresenting: AnyObject {}

final class SCView {}

final class SCPresenter: SCPresenting {
  var view: SCView?
}

final class SCOtherPresenter: SCPresenting {
  var view: SCView?
}

/// Its view is not optional, so injecting it needs a registered `SCView`.
final class SCStrictPresenter {
  var view = SCView()
}

@Suite struct ExistentialCastTests {
  // A reinterpretation of one type's bits as another crashes or yields garbage, so the
  // checks that could do so run in a child process.

  @Test func structMadeAsAnExistentialResolvesAsItsConcreteTypeWithItsFields() async {
    await #expect(processExitsWith: .success) {
      scArmWatchdog()
      let container = DIContainer()
      container.register { () -> SCShape in SCBig(a: 3, b: 4, c: 5, d: 6, name: "big") }
        .as(SCBig.self)
      do throws(DIError) {
        let big: SCBig = try container.tryResolve()
        #expect(
          big.a == 3 && big.b == 4 && big.c == 5 && big.d == 6 && big.name == "big",
          "SCBig resolved with wrong fields")
      } catch {
        // A clear DIError is acceptable; garbage or a crash is not.
        #expect(!error.description.isEmpty)
      }
    }
  }

  @Test func classMadeAsAnExistentialResolvesAsItsConcreteType() async {
    await #expect(processExitsWith: .success) {
      scArmWatchdog()
      let container = DIContainer()
      container.register { () -> SCShape in SCBigObject(a: 3, b: 4, name: "object") }
        .as(SCBigObject.self)
      do throws(DIError) {
        let big: SCBigObject = try container.tryResolve()
        #expect(
          big.a == 3 && big.b == 4 && big.name == "object", "SCBigObject resolved wrong")
      } catch {
        #expect(!error.description.isEmpty)
      }
    }
  }

  @Test func existentialOfAnotherTypeIsAnErrorNotAReinterpretation() async {
    await #expect(processExitsWith: .success) {
      scArmWatchdog()
      let container = DIContainer()
      // The factory says SCShape and makes an SCSmall: it cannot be an SCBig.
      container.register { () -> SCShape in SCSmall(side: 7) }.as(SCBig.self)
      do throws(DIError) {
        let big: SCBig = try container.tryResolve()
        Issue.record("an SCSmall was handed out as SCBig: a=\(big.a) name=\(big.name.count)")
      } catch {
        #expect(!error.description.isEmpty)
      }
    }
  }

  @Test func classExistentialOfAnotherTypeIsAnErrorNotAReinterpretation() async {
    await #expect(processExitsWith: .success) {
      scArmWatchdog()
      let container = DIContainer()
      container.register { () -> SCPresenting in SCOtherPresenter() }.as(SCPresenter.self)
      do throws(DIError) {
        let presenter: SCPresenter = try container.tryResolve()
        Issue.record("a \(type(of: presenter as AnyObject)) was handed out as SCPresenter")
      } catch {
        #expect(!error.description.isEmpty)
      }
    }
  }

  @Test func concreteTypeResolvesAsItsProtocol() async throws {
    let container = DIContainer()
    container.register { SCBig(a: 3, b: 4, c: 5, d: 6, name: "big") }.as(SCShape.self)
    let shape = try #require(await scInstance(SCShape.self, from: container))
    let big = try #require(shape as? SCBig)
    #expect(big.name == "big" && big.area == 12)
  }

  @Test func injectingIntoAnUnregisteredTypeThrows() async {
    await #expect(processExitsWith: .success) {
      scArmWatchdog()
      let container = DIContainer()
      do throws(DIError) {
        try container.tryInject(into: SCPresenter())
        Issue.record("tryInject into an unregistered type succeeded")
      } catch {
        #expect(error.code == .notRegistered, "expected .notRegistered, got: \(scBrief(error))")
      }
    }
  }

  @Test func injectingIntoAnObjectOfAnotherTypeThanTheComponentThrows() async {
    await #expect(processExitsWith: .success) {
      scArmWatchdog()
      let container = DIContainer()
      container.register(SCView.init)
      container.register(SCPresenter.self).as(SCPresenting.self).injection(\.view)
      // The component for SCPresenting injects into SCPresenter; this is another class.
      let other: SCPresenting = SCOtherPresenter()
      do throws(DIError) {
        try container.tryInject(into: other)
        Issue.record("tryInject ran SCPresenter's injections on an SCOtherPresenter")
      } catch {
        #expect(!error.description.isEmpty)
      }
    }
  }

  @Test func injectingWithAnUnregisteredDependencyThrows() async {
    await #expect(processExitsWith: .success) {
      scArmWatchdog()
      let container = DIContainer()
      container.register(SCStrictPresenter.self).injection(\.view)
      let presenter = SCStrictPresenter()
      do throws(DIError) {
        try container.tryInject(into: presenter)
        Issue.record("tryInject succeeded though SCView is not registered")
      } catch {
        #expect(error.code == .notRegistered, "expected .notRegistered, got: \(scBrief(error))")
      }
    }
  }

  @Test func injectingThroughTheProtocolIntoTheRightClassSetsItsProperties() async throws {
    let container = DIContainer()
    container.register(SCView.init)
    container.register(SCPresenter.self).as(SCPresenting.self).injection(\.view)
    let presenter = SCPresenter()
    let asService: SCPresenting = presenter
    try container.tryInject(into: asService)
    #expect(presenter.view != nil)
  }
}
