import DIContainer
import DITestSupport
import Foundation
import Testing

// An async factory's arg parameters take resolveAsync's arguments.

private final class RALog: Sendable {}
private final class RAStore: Sendable {
  let log: RALog
  init(log: RALog) { self.log = log }
}
private final class RASession: Sendable {
  let user: String
  let store: RAStore
  let port: Int
  let log: RALog
  let flag: Bool
  init(user: String, store: RAStore, port: Int, log: RALog, flag: Bool) {
    self.user = user
    self.store = store
    self.port = port
    self.log = log
    self.flag = flag
  }
}
private final class RAKeyed: Sendable {
  let key: Int
  init(key: Int) { self.key = key }
}
private final class RANamed: Sendable {
  let name: String
  init(name: String) { self.name = name }
}
private final class RAHolder: Sendable {
  let named: RANamed
  init(named: RANamed) { self.named = named }
}
private final class RAHolderWithArg: Sendable {
  let named: RANamed
  let label: String
  init(named: RANamed, label: String) {
    self.named = named
    self.label = label
  }
}

private final class RAInjected: @unchecked Sendable {
  let name: String
  private let lock = NSLock()
  private var storedPort: Int?
  init(name: String) { self.name = name }
  var port: Int? {
    get { lock.withLock { storedPort } }
    set { lock.withLock { storedPort = newValue } }
  }
}

private final class RAArgCounter: @unchecked Sendable {
  private let lock = NSLock()
  private var counts: [Int: Int] = [:]
  func increment(_ key: Int) { lock.withLock { counts[key, default: 0] += 1 } }
  func count(_ key: Int) -> Int { lock.withLock { counts[key, default: 0] } }
}

@Suite struct AsyncFactoryArgumentTests {
  /// Three arg parameters between services, one of them an async component itself.
  @Test func argsBetweenServicesWithAnAsyncDependency() async throws {
    let container = DIContainer()
    container.register(RALog.init).lifetime(.perContainer(.single))
    container.register { (log: RALog) async -> RAStore in
      await Task.yield()
      return RAStore(log: log)
    }.lifetime(.perContainer(.single))
    container.register {
      (user: DIArg<String>, store: RAStore, port: DIArg<Int>, log: RALog, flag: DIArg<Bool>)
        async -> RASession in
      RASession(user: user.value, store: store, port: port.value, log: log, flag: flag.value)
    }
    let session: RASession = try await container.resolveAsync(args: "mimi", 8080, true)
    #expect(session.user == "mimi")
    #expect(session.port == 8080)
    #expect(session.flag)
    #expect(session.store.log === session.log)
  }

  /// `.multiton` async components keyed by their arguments, asked concurrently: one
  /// instance per key, made once per key, each with its own argument.
  @Test(.timeLimit(.minutes(TestEnvironment.hangMinutes)))
  func asyncMultitonKeyedByArgumentsUnderConcurrency() async throws {
    let made = RAArgCounter()
    let container = DIContainer()
    container.register { (key: DIArg<Int>) async -> RAKeyed in
      made.increment(key.value)
      try? await Task.sleep(for: .milliseconds(5))
      return RAKeyed(key: key.value)
    }.lifetime(.multiton)
    let results = try await withThrowingTaskGroup(of: (Int, RAKeyed).self) { group in
      for index in 0..<24 {
        let key = index % 3
        group.addTask { (key, try await container.resolveAsync(arg: key)) }
      }
      var all: [(Int, RAKeyed)] = []
      for try await result in group { all.append(result) }
      return all
    }
    for key in 0..<3 {
      let instances = results.filter { $0.0 == key }.map(\.1)
      #expect(instances.allSatisfy { $0.key == key })
      #expect(instances.allSatisfy { $0 === instances.first })
      #expect(made.count(key) == 1, "key \(key) made \(made.count(key)) times")
    }
  }

  /// AsyncLazy1 and AsyncProvider1 of an async component pass their argument to its arg
  /// parameter.
  @Test func asyncLazy1AndAsyncProvider1OfAnAsyncComponent() async throws {
    let container = DIContainer()
    container.register { (name: DIArg<String>) async -> RANamed in
      await Task.yield()
      return RANamed(name: name.value)
    }
    let provider: AsyncProvider1<RANamed, String> = try container.tryResolve()
    #expect(try await provider.value("a").name == "a")
    #expect(try await provider.value("b").name == "b")
    let lazy: AsyncLazy1<RANamed, String> = try container.tryResolve()
    let first = try await lazy.value("c")
    #expect(first.name == "c")
    #expect(try await lazy.value("d") === first)
  }

  /// An argument passed for a component that takes none, whose async dependency takes
  /// one: the dependency does not take it (an error, as for a synchronous dependency).
  @Test func anArgumentIsNotGivenToAnAsyncDependency() async throws {
    let container = DIContainer()
    container.register { (name: DIArg<String>) async -> RANamed in RANamed(name: name.value) }
    container.register { (named: RANamed) in RAHolder(named: named) }
    do {
      let holder: RAHolder = try await container.resolveAsync(arg: "x")
      Issue.record("the dependency took the argument: \(holder.named.name)")
    } catch {
      #expect(error.code == .extraArguments || error.code == .missingArgument)
    }
  }

  /// The same with an async holder: its service parameter is resolved without arguments.
  @Test func anAsyncHoldersDependencyDoesNotTakeItsArgument() async throws {
    let container = DIContainer()
    container.register { (name: DIArg<String>) async -> RANamed in RANamed(name: name.value) }
    container.register { (named: RANamed, label: DIArg<String>) async -> RAHolderWithArg in
      RAHolderWithArg(named: named, label: label.value)
    }
    do {
      let holder: RAHolderWithArg = try await container.resolveAsync(arg: "x")
      Issue.record("the dependency took the argument: \(holder.named.name)")
    } catch {
      #expect(error.code == .missingArgument)
    }
  }

  /// A synchronous initializer made async by an async `postInit` runs in a request of its
  /// own: its dependencies must still not take the arguments meant for it.
  @Test func aDependencyOfAComponentWithAsyncPostInitDoesNotTakeItsArguments() async throws {
    let container = DIContainer()
    container.register { RANamed(name: arg($0)) }
    container.register { RAHolderWithArg(named: $0, label: arg($1)) }
      .postInit { (_: RAHolderWithArg) async in await Task.yield() }
    // Synchronously (no async step) the dependency cannot take the argument.
    let syncContainer = DIContainer()
    syncContainer.register { RANamed(name: arg($0)) }
    syncContainer.register { RAHolderWithArg(named: $0, label: arg($1)) }
    #expect(throws: DIError.self) {
      let _: RAHolderWithArg = try syncContainer.tryResolve(arguments: ["label"])
    }
    do {
      let holder: RAHolderWithArg = try await container.resolveAsync(args: "dep", "label")
      Issue.record(
        "the dependency silently took an argument: named \(holder.named.name), label \(holder.label)"
      )
    } catch {
      #expect(error.code == .extraArguments || error.code == .missingArgument)
    }
  }

  /// The same with an async dependency: the AsyncNeed of the dependency carries the
  /// arguments.
  @Test func anAsyncDependencyOfAComponentWithAsyncPostInitDoesNotTakeItsArguments() async throws {
    let container = DIContainer()
    container.register { (name: DIArg<String>) async -> RANamed in RANamed(name: name.value) }
    container.register { RAHolderWithArg(named: $0, label: arg($1)) }
      .postInit { (_: RAHolderWithArg) async in await Task.yield() }
    do {
      let holder: RAHolderWithArg = try await container.resolveAsync(arg: "label")
      Issue.record(
        "the async dependency silently took the argument: named \(holder.named.name), label \(holder.label)"
      )
    } catch {
      #expect(error.code == .missingArgument)
    }
  }

  /// More arguments than the async component's arg parameters: `.extraArguments`.
  @Test func extraArgumentsToAnAsyncComponent() async throws {
    let container = DIContainer()
    container.register { (name: DIArg<String>) async -> RANamed in RANamed(name: name.value) }
    do {
      let named: RANamed = try await container.resolveAsync(args: "a", 2)
      Issue.record("resolved with an extra argument: \(named.name)")
    } catch {
      #expect(error.code == .extraArguments)
    }
  }

  /// An optional request is nil when the component needs arguments that were not passed
  /// (SPEC: Resolution), for an async component as for a synchronous one.
  @Test func anOptionalRequestWithoutTheArgumentsIsNil() async throws {
    let syncContainer = DIContainer()
    syncContainer.register { RANamed(name: arg($0)) }
    let syncNamed: RANamed? = try await syncContainer.resolveAsync()
    #expect(syncNamed == nil)
    let container = DIContainer()
    container.register { (name: DIArg<String>) async -> RANamed in RANamed(name: name.value) }
    let named: RANamed?
    do {
      named = try await container.resolveAsync()
    } catch {
      Issue.record("an optional request threw: \(error.code)")
      return
    }
    #expect(named == nil)
  }

  /// The synchronous form, for reference: the initializer takes argument 1, the injection
  /// argument 2.
  @Test func syncInitializerAndInjectionShareTheArguments() throws {
    let container = DIContainer()
    container.register { RAInjected(name: arg($0)) }
      .injection { (target: RAInjected, port: DIArg<Int>) in target.port = port.value }
    let made: RAInjected = try container.tryResolve(arguments: ["a", 5])
    #expect(made.name == "a")
    #expect(made.port == 5)
  }

  /// An async factory takes argument 1; its synchronous injection's arg parameter must take
  /// argument 2, as after a synchronous initializer (the count of arguments taken is
  /// the component's: `argumentTypes` counts the injections' too).
  @Test func anAsyncFactorysInjectionTakesTheNextArgument() async throws {
    let container = DIContainer()
    container.register { (name: DIArg<String>) async -> RAInjected in RAInjected(name: name.value) }
      .injection { (target: RAInjected, port: DIArg<Int>) in target.port = port.value }
    do {
      let made: RAInjected = try await container.resolveAsync(args: "a", 5)
      #expect(made.name == "a")
      #expect(made.port == 5)
    } catch {
      Issue.record("the injection did not get argument 2: \(error.code) \(error)")
    }
  }

  /// An async injection's arg parameter takes the request's next argument too.
  @Test func anAsyncInjectionTakesTheNextArgument() async throws {
    let container = DIContainer()
    container.register { RAInjected(name: arg($0)) }
      .injection { (target: RAInjected, port: DIArg<Int>) async in target.port = port.value }
    do {
      let made: RAInjected = try await container.resolveAsync(args: "a", 5)
      #expect(made.name == "a")
      #expect(made.port == 5)
    } catch {
      Issue.record("the async injection did not get argument 2: \(error.code) \(error)")
    }
  }
}
