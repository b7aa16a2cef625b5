import DIContainer
import Foundation
import Testing

// One failure per `DIError.Code` the library reports today, each checked for its code and
// the field that goes with it.

private enum Codes {
  protocol Gateway: AnyObject {}
  enum Indoor {}
  final class Cat {}
  final class Leaf {
    init(missing: Gateway) {}
  }
  final class Ping {
    init(pong: Pong) {}
  }
  final class Pong {
    init(ping: Ping) {}
  }
  final class Kitten {
    init(name: String) {}
  }
  struct NotHashable {}
  final class Cargo {}
  class Vehicle {}
  final class Truck: Vehicle {
    var cargo: Cargo?
  }
  final class Node: Sendable {
    let child: Node?
    init(child: Node?) { self.child = child }
  }

  /// A storage that answers every key with the first value it was given.
  final class FirstValueStorage: DIStorage, @unchecked Sendable {
    private let lock = NSLock()
    private var first: DIStorageValue?

    func value(for key: DIStorageKey) -> DIStorageValue? { lock.withLock { first } }
    func setValue(_ value: DIStorageValue, for key: DIStorageKey) {
      lock.withLock { if first == nil { first = value } }
    }
    func clean() { lock.withLock { first = nil } }
  }

  /// The first error a recursion met, kept by the factories it passed through.
  final class FirstError: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: DIError?
    var error: DIError? { lock.withLock { stored } }
    func record(_ error: DIError) { lock.withLock { if stored == nil { stored = error } } }
  }
}

/// A failure to provoke, with the code it must report.
struct CodeCase: Sendable, CustomStringConvertible {
  let code: DIError.Code
  let provoke: @Sendable () -> DIError?

  var description: String { "\(code)" }
}

/// Runs `body`, which must throw a `DIError`, and returns it.
private func failure(_ body: () throws -> Void) -> DIError? {
  do {
    try body()
    return nil
  } catch {
    return error as? DIError
  }
}

private let cases: [CodeCase] = [
  CodeCase(code: .notRegistered) {
    failure { let _: Codes.Cat = try DIContainer().tryResolve() }
  },
  CodeCase(code: .ambiguous) {
    let container = DIContainer()
    container.register(Codes.Cat.init)
    container.register(Codes.Cat.init)
    return failure { let _: Codes.Cat = try container.tryResolve() }
  },
  CodeCase(code: .cycle) {
    let container = DIContainer()
    container.register(Codes.Ping.init)
    container.register(Codes.Pong.init)
    return failure { let _: Codes.Ping = try container.tryResolve() }
  },
  CodeCase(code: .tooDeep) {
    // A recursion through runtime arguments is never taken for a loop; it runs until the
    // thread's stack is short.
    let container = DIContainer()
    let first = Codes.FirstError()
    container.register { (depth: DIArg<Int>, next: Provider1<Codes.Node, Int>) in
      let depth = arg(depth)
      guard depth > 0 else { return Codes.Node(child: nil) }
      do throws(DIError) {
        return Codes.Node(child: try next.tryValue(depth - 1))
      } catch {
        first.record(error)
        return Codes.Node(child: nil)
      }
    }
    let _: Codes.Node? = try? container.tryResolve(arguments: [10_000_000])
    return first.error
  },
  CodeCase(code: .noInitializer) {
    let container = DIContainer()
    container.register(Codes.Cat.self)
    return failure { let _: Codes.Cat = try container.tryResolve() }
  },
  CodeCase(code: .missingArgument) {
    let container = DIContainer()
    container.register { Codes.Kitten(name: arg($0)) }
    return failure { let _: Codes.Kitten = try container.tryResolve() }
  },
  CodeCase(code: .wrongArgument) {
    let container = DIContainer()
    container.register { Codes.Kitten(name: arg($0)) }
    return failure { let _: Codes.Kitten = try container.tryResolve(arguments: [1]) }
  },
  CodeCase(code: .argumentNotHashable) {
    let container = DIContainer()
    container.register { (_: DIArg<Codes.NotHashable>) in Codes.Cat() }.lifetime(.multiton)
    return failure {
      let _: Codes.Cat = try container.tryResolve(arguments: [Codes.NotHashable()])
    }
  },
  CodeCase(code: .notAService) {
    let container = DIContainer()
    container.register(Codes.Cat.init).as(Codes.Gateway.self)
    return failure { let _: Codes.Gateway = try container.tryResolve() }
  },
  CodeCase(code: .wrongInjectionTarget) {
    let container = DIContainer()
    container.register(Codes.Cargo.init)
    container.register(Codes.Truck.self).as(Codes.Vehicle.self).injection(\.cargo)
    return failure { try container.tryInject(into: Codes.Vehicle()) }
  },
  CodeCase(code: .outsideScope) {
    let container = DIContainer()
    container.register(Codes.Cat.init).lifetime(.scoped)
    return failure { let _: Codes.Cat = try container.tryResolve() }
  },
  CodeCase(code: .scopeClosed) {
    let container = DIContainer()
    container.register(Codes.Cat.init).lifetime(.scoped)
    let scope = container.makeScope()
    scope.close()
    return failure { let _: Codes.Cat = try scope.tryResolve() }
  },
  CodeCase(code: .containerReleased) {
    var container: DIContainer? = DIContainer()
    container?.register(Codes.Cat.init)
    let lazy: Lazy<Codes.Cat>? = container?.resolve()
    container = nil
    return failure { _ = try lazy?.tryValue() }
  },
  CodeCase(code: .storageMismatch) {
    let container = DIContainer()
    let scope = DIScope(name: "Codes", storage: Codes.FirstValueStorage())
    container.register(Codes.Cat.init).lifetime(.custom(scope))
    container.register(Codes.Kitten.init).lifetime(.custom(scope))
    container.register { "Mimi" }
    let _: Codes.Cat = container.resolve()
    return failure { let _: Codes.Kitten = try container.tryResolve() }
  },
]

@Suite struct ErrorCodeTests {
  @Test(arguments: cases) func eachFailureReportsItsCode(_ failure: CodeCase) {
    let error = failure.provoke()
    #expect(error?.code == failure.code, "\(error.map(String.init(describing:)) ?? "no error")")
  }

  @Test func everyCodeIsDistinctAndNamed() {
    let codes: [DIError.Code] = [
      .notRegistered, .ambiguous, .cycle, .tooDeep, .noInitializer, .missingArgument,
      .wrongArgument, .extraArguments, .argumentNotHashable, .factoryFailed, .asyncFactory,
      .notAService, .wrongInjectionTarget, .outsideScope, .scopeClosed, .containerReleased,
      .containerShutDown, .storageMismatch,
    ]
    #expect(Set(codes).count == codes.count)
    #expect(Set(codes.map(\.description)).count == codes.count)
    #expect("\(DIError.Code.containerShutDown)" == "containerShutDown")
  }

  @Test func fieldsGoWithTheirCodes() {
    let container = DIContainer()
    container.register(Codes.Cat.init)
    container.register(Codes.Cat.init)
    container.register(Codes.Ping.init)
    container.register(Codes.Pong.init)
    let ambiguous = failure { let _: Codes.Cat = try container.tryResolve() }
    #expect(ambiguous?.candidates.count == 2)
    #expect(ambiguous?.candidates.allSatisfy { $0.hasPrefix("Cat (DIContainerTests/") } == true)
    #expect(ambiguous?.cycle == [])
    #expect(ambiguous?.argumentPosition == nil)
    #expect(ambiguous?.underlyingError == nil)
    let cycle = failure { let _: Codes.Ping = try container.tryResolve() }
    #expect(cycle?.cycle.map(\.requested) == ["Ping", "Pong", "Ping"])
    #expect(cycle?.candidates == [])
  }
}
