import DIContainer
import Testing

protocol SCLogger: AnyObject {}

final class SCCrashlyticsLogger: SCLogger {}
final class SCFileLogger: SCLogger {}
final class SCConsoleLogger: SCLogger {}

final class SCMainLogger: SCLogger {
  let loggers: [SCLogger]
  init(loggers: [SCLogger]) { self.loggers = loggers }
}

final class SCItem {
  let number: Int
  init(_ number: Int) { self.number = number }
}

final class SCItemBag {
  let items: [SCItem?]
  init(items: [SCItem?]) { self.items = items }
}

@Suite struct ManyTests {
  /// The registration seed's example, in its order.
  static func registerSeedLoggers(in container: DIContainer, mainLifetime: DILifetime) {
    container.register(SCCrashlyticsLogger.init).as(SCLogger.self)
    container.register(SCFileLogger.init).as(SCLogger.self)
    container.register(SCConsoleLogger.init).as(SCLogger.self)
    container.register { SCMainLogger(loggers: many($0)) }
      .as(SCLogger.self)
      .default()
      .lifetime(mainLifetime)
  }

  static func kinds(_ loggers: [SCLogger]) -> [String] {
    loggers.map { scUnqualified(String(describing: type(of: $0 as AnyObject))) }
  }

  @Test(arguments: [DILifetime.prototype, .objectGraph, .perContainer(.single)])
  func mainLoggerCollectingManyLoggersGetsExactlyTheThreeOthers(_ lifetime: DILifetime) async throws
  {
    let container = DIContainer()
    Self.registerSeedLoggers(in: container, mainLifetime: lifetime)
    let logger = try #require(await scInstance(SCLogger.self, from: container))
    let main = try #require(logger as? SCMainLogger, "the default logger was not chosen")
    #expect(Self.kinds(main.loggers) == ["SCCrashlyticsLogger", "SCFileLogger", "SCConsoleLogger"])
  }

  @Test func mainLoggerRegisteredFirstStillLeavesItselfOut() async throws {
    let container = DIContainer()
    container.register { SCMainLogger(loggers: many($0)) }.as(SCLogger.self).default()
    container.register(SCCrashlyticsLogger.init).as(SCLogger.self)
    container.register(SCFileLogger.init).as(SCLogger.self)
    container.register(SCConsoleLogger.init).as(SCLogger.self)
    let logger = try #require(await scInstance(SCLogger.self, from: container))
    let main = try #require(logger as? SCMainLogger)
    #expect(Self.kinds(main.loggers) == ["SCCrashlyticsLogger", "SCFileLogger", "SCConsoleLogger"])
  }

  @Test func manyFromOutsideCollectsAllFourLoggers() async throws {
    let container = DIContainer()
    Self.registerSeedLoggers(in: container, mainLifetime: .prototype)
    let all = many(try #require(await scInstance(DIMany<SCLogger>.self, from: container)))
    #expect(
      Self.kinds(all) == ["SCCrashlyticsLogger", "SCFileLogger", "SCConsoleLogger", "SCMainLogger"])
    let main = try #require(all.last as? SCMainLogger)
    #expect(main.loggers.count == 3)
  }

  @Test func manyIntoAnArrayOfOptionalsCollectsEveryCandidate() async throws {
    let container = DIContainer()
    for number in 1...3 {
      container.register { SCItem(number) }
    }
    container.register { SCItemBag(items: many($0)) }
    let bag = try #require(await scInstance(SCItemBag.self, from: container))
    #expect(bag.items.count == 3)
    #expect(bag.items.compactMap { $0?.number } == [1, 2, 3])
  }
}
