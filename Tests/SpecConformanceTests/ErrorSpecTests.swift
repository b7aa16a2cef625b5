import DIContainer
import DITestSupport
import Synchronization
import Testing

/// SPEC.md, "Errors and logging": what a `DIError` says, and that the trapping `resolve()`
/// prints the same text.
@Suite struct ErrorSpecTests {
  final class HTTPClient {}
  protocol PaymentGateway: AnyObject {}
  final class StripeGateway: PaymentGateway {
    init(client: HTTPClient) {}
  }
  final class OrderService {
    init(gateway: PaymentGateway) {}
  }

  @Test func aDIErrorNamesWhatWasAskedThePathTheReasonAndEveryRegistration() throws {
    let container = DIContainer()
    let gatewayLine = #line + 1
    container.register(StripeGateway.init).as(PaymentGateway.self)
    let orderLine = #line + 1
    container.register(OrderService.init)
    let error = try #require(
      #expect(throws: DIError.self) {
        let _: OrderService = try container.tryResolve()
      })
    #expect(error.requested == "OrderService")
    #expect(error.reason == .notRegistered)
    let text = error.description
    #expect(text.contains("OrderService"))
    #expect(text.contains("OrderService → PaymentGateway → HTTPClient"))
    #expect(text.contains("HTTPClient is not registered"))
    #expect(text.contains("ErrorSpecTests.swift:\(orderLine)"))
    #expect(text.contains("ErrorSpecTests.swift:\(gatewayLine)"))
    let asError: any Error = error
    #expect("\(asError)" == text, "DIError is a public Error whose description is this text")
  }

  protocol Logger: AnyObject {}
  final class FileLogger: Logger {}
  final class ConsoleLogger: Logger {}
  final class Service {
    init(logger: Logger) {}
  }

  @Test func anAmbiguousErrorListsEveryCandidateWithItsRegistration() throws {
    let container = DIContainer()
    let fileLine = #line + 1
    container.register(FileLogger.init).as(Logger.self)
    let consoleLine = #line + 1
    container.register(ConsoleLogger.init).as(Logger.self)
    container.register(Service.init)
    let error = try #require(
      #expect(throws: DIError.self) {
        let _: Service = try container.tryResolve()
      })
    let text = error.description
    #expect(text.contains("Service → Logger"))
    #expect(text.contains("ambiguous"))
    #expect(text.contains("FileLogger") && text.contains("ConsoleLogger"))
    #expect(text.contains("ErrorSpecTests.swift:\(fileLine)"))
    #expect(text.contains("ErrorSpecTests.swift:\(consoleLine)"))
  }

  final class Chicken {
    init(egg: Egg) {}
  }
  final class Egg {
    init(chicken: Chicken) {}
  }

  @Test func aCycleErrorShowsTheLoopAndItsRegistrations() throws {
    let container = DIContainer()
    let chickenLine = #line + 1
    container.register(Chicken.init)
    let eggLine = #line + 1
    container.register(Egg.init)
    let error = try #require(
      #expect(throws: DIError.self) {
        let _: Egg = try container.tryResolve()
      })
    #expect(error.reason == .cycle)
    #expect(error.description.contains("Egg → Chicken → Egg"))
    #expect(error.description.contains("ErrorSpecTests.swift:\(chickenLine)"))
    #expect(error.description.contains("ErrorSpecTests.swift:\(eggLine)"))
  }

  @Test func theTrappingResolvePrintsTheSameText() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let container = DIContainer()
      container.register(ErrorSpecTests.StripeGateway.init).as(ErrorSpecTests.PaymentGateway.self)
      container.register(ErrorSpecTests.OrderService.init)
      synchronously { let _: ErrorSpecTests.OrderService = container.resolve() }
    }
    let printed = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(printed.contains("Cannot resolve OrderService: HTTPClient is not registered."))
    #expect(printed.contains("path: OrderService → PaymentGateway → HTTPClient"))
    #expect(printed.contains("registrations involved:"))
  }
}

/// Every test that touches process-wide state (`DISetting.Log`, `.perApplication`,
/// `.single`) is nested in this suite, so they run one at a time.
@Suite(.serialized) struct SpecGlobalStateTests {
  /// Log lines a test collects.
  final class LogLines: Sendable {
    private let state = Mutex<[String]>([])
    func append(_ line: String) { state.withLock { $0.append(line) } }
    var lines: [String] { state.withLock { $0 } }
  }

  /// Runs `body` with `DISetting.Log` sending every line to `log`, then restores it.
  static func capturingLog<Result>(into log: LogLines, _ body: () throws -> Result) rethrows
    -> Result
  {
    let savedFn = DISetting.Log.fn
    let savedLevel = DISetting.Log.level
    defer {
      DISetting.Log.fn = savedFn
      DISetting.Log.level = savedLevel
    }
    DISetting.Log.fn = { level, message in log.append("\(level): \(message)") }
    DISetting.Log.level = .verbose
    return try body()
  }

  final class Unique {}

  @Test func logFnAndLevelReceiveTheLibrarysLogLines() {
    let log = LogLines()
    SpecGlobalStateTests.capturingLog(into: log) {
      let container = DIContainer()
      container.register(Unique.init)
      DISetting.Log.level = .none
      container.register(Unique.init)
    }
    let registered = log.lines.filter { $0.contains("Unique") }
    #expect(registered.count == 1, "one line at .verbose, none at .none: \(registered)")
    #expect(registered.first?.hasPrefix("verbose: ") == true)
  }
}
