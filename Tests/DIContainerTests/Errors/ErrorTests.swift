import DIContainer
import DITestSupport
import Testing

@Suite struct ErrorTests {
  @Test func errorTextNamesThePathTheReasonAndTheRegistrations() throws {
    let container = DIContainer()
    let serviceLine = #line + 1
    container.register(OrderService.init)
    let gatewayLine = #line + 1
    container.register(StripeGateway.init).as(PaymentGateway.self)
    let error = try #require(throws: DIError.self) {
      let _: OrderService = try container.tryResolve()
    }
    #expect(error.reason == .notRegistered)
    #expect(error.requested == "OrderService")
    #expect(error.path.map(\.requested) == ["OrderService", "PaymentGateway", "HTTPClient"])
    let text = error.description
    #expect(text.contains("Cannot resolve OrderService: HTTPClient is not registered."))
    #expect(text.contains("path: OrderService → PaymentGateway → HTTPClient"))
    #expect(text.contains("OrderService (DIContainerTests/ErrorTests.swift:\(serviceLine))"))
    #expect(text.contains("StripeGateway (DIContainerTests/ErrorTests.swift:\(gatewayLine))"))
  }

  @Test func ambiguityListsEveryCandidateWithItsLocation() throws {
    let container = DIContainer()
    container.register(OrderService.init)
    container.register(StripeGateway.init).as(PaymentGateway.self)
    container.register(PaypalGateway.init).as(PaymentGateway.self)
    container.register(HTTPClient.init)
    let error = try #require(throws: DIError.self) {
      let _: OrderService = try container.tryResolve()
    }
    let text = error.description
    #expect(text.contains("PaymentGateway is ambiguous for OrderService"))
    #expect(text.contains("StripeGateway (DIContainerTests/ErrorTests.swift:"))
    #expect(text.contains("PaypalGateway (DIContainerTests/ErrorTests.swift:"))
  }

  @Test func errorsAreSendableValues() async throws {
    let container = DIContainer()
    let error = try #require(throws: DIError.self) {
      let _: HTTPClient = try container.tryResolve()
    }
    let copied = await Task.detached { error }.value
    #expect(copied == error)
  }

  @Test func trappingResolvePrintsTheSameTextBeforeItStops() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      synchronously {
        let container = DIContainer()
        container.register(OrderService.init)
        let _: OrderService = container.resolve()
      }
    }
    let output = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(output.contains("Cannot resolve OrderService: PaymentGateway is not registered."))
    #expect(output.contains("path: OrderService → PaymentGateway"))
  }
}

/// `DISetting.Log` is process-wide, so its tests run one at a time.
@Suite(.serialized) struct LogTests {
  @Test func logLinesReachTheConfiguredFunctionAtTheConfiguredLevel() {
    let lines = EventLog<String>()
    let savedFn = DISetting.Log.fn
    let savedLevel = DISetting.Log.level
    defer {
      DISetting.Log.fn = savedFn
      DISetting.Log.level = savedLevel
    }
    DISetting.Log.fn = { level, message in lines.append("\(level): \(message)") }
    DISetting.Log.level = .verbose
    let container = DIContainer()
    container.register(LogProbe.init)
    #expect(lines.all.contains { $0.hasPrefix("verbose: registered LogProbe at ") })

    DISetting.Log.level = .none
    container.register(LogProbe.init)
    // Other suites run in parallel and may log too; count this suite's lines only.
    #expect(lines.all.filter { $0.contains("LogProbe") }.count == 1)
  }

  @Test func singletonsThatCannotBeMadeAreLoggedAsErrors() {
    let lines = EventLog<String>()
    let savedFn = DISetting.Log.fn
    defer { DISetting.Log.fn = savedFn }
    DISetting.Log.fn = { level, message in lines.append("\(level): \(message)") }
    let container = DIContainer()
    container.register(OrderService.init).lifetime(.single)
    container.initializeSingletonObjects()
    #expect(
      lines.all.contains { $0.hasPrefix("error: initializeSingletonObjects: Cannot resolve") })
  }
}

final class HTTPClient {}
protocol PaymentGateway {}
final class StripeGateway: PaymentGateway {
  init(client: HTTPClient) {}
}
final class PaypalGateway: PaymentGateway {
  init(client: HTTPClient) {}
}
final class OrderService {
  init(gateway: PaymentGateway) {}
}

final class LogProbe {}
