// Errors of frameworks and parts (SPEC "Errors and logging"): the hint for a
// forgotten `append(framework:)`/`append(part:)`, the warnings of `clean(framework:)` and
// `clean(part:)` for modules never appended, and `resolve(from:)`'s caller line.
// Every top-level type is prefixed `EI`; each test
// uses framework types of its own, since what frameworks register is known process-wide.

import DIContainer
import DIFrameworks
import DIParts
import DITestSupport
import Foundation
import Testing

final class EIFWHTTPClient { init() {} }
protocol EIFWPaymentGateway: AnyObject {}
final class EIFWStripeGateway: EIFWPaymentGateway { init(client: EIFWHTTPClient) {} }
final class EIFWOrderService { init(gateway: EIFWPaymentGateway) {} }

// Forgotten append, loaded by another container.
final class EIPaymentsFramework: DIFramework {
  static func load(container: DIContainer) {
    container.register(EIFWHTTPClient.init)
    container.register(EIFWStripeGateway.init).as(EIFWPaymentGateway.self)
  }
}
final class EIOrdersFramework: DIFramework {
  static func load(container: DIContainer) {
    container.register(EIFWOrderService.init)
  }
}

// For the hint read after the container changed.
final class EIFWLateService { init() {} }
final class EILateFramework: DIFramework {
  static func load(container: DIContainer) {
    container.register(EIFWLateService.init)
  }
}

// Never appended to any container of the process.
final class EIFWNeverLoadedService { init() {} }
final class EINeverLoadedFramework: DIFramework {
  static func load(container: DIContainer) {
    container.register(EIFWNeverLoadedService.init)
  }
}

// A part registering a service, appended elsewhere.
final class EIFWFileStore { init() {} }
final class EIStoragePart: DIPart {
  static func load(container: DIContainer) {
    container.register(EIFWFileStore.init)
  }
}

// Tagged service in a framework.
enum EIFWInternal {}
protocol EIFWTaggedClient: AnyObject {}
final class EIFWTaggedClientImpl: EIFWTaggedClient { init() {} }
final class EITaggedFramework: DIFramework {
  static func load(container: DIContainer) {
    container.register(EIFWTaggedClientImpl.init).as(EIFWTaggedClient.self, tag: EIFWInternal.self)
  }
}

// For the cleaning warnings.
final class EIBillingFramework: DIFramework {
  static func load(container: DIContainer) {
    container.register(EIFWHTTPClient.init).lifetime(.perFramework(.single))
  }
}
final class EIBilingFramework: DIFramework {  // a near-miss name: the typo
  static func load(container: DIContainer) {}
}
final class EIInventoryPart: DIPart {
  static func load(container: DIContainer) {}
}
final class EIInventroyPart: DIPart {  // a near-miss name: the typo
  static func load(container: DIContainer) {}
}
final class EIUnrelatedFramework: DIFramework {
  static func load(container: DIContainer) {}
}

final class EIFWMissing { init() {} }
final class EIFWNeedsMissing { init(missing: EIFWMissing) {} }
final class EIFWFromFramework: DIFramework {
  static func load(container: DIContainer) {
    container.register(EIFWNeedsMissing.init)
  }
}

func eiFWError<T>(_ type: T.Type, _ body: () throws(DIError) -> T) -> DIError? {
  do throws(DIError) {
    _ = try body()
    return nil
  } catch {
    return error
  }
}

@Suite struct FrameworkHintTests {
  @Test func forgottenAppendNamesTheFrameworkKnownToTheProcess() throws {
    let other = DIContainer()
    other.append(framework: EIPaymentsFramework.self)
    let _: EIFWPaymentGateway = other.resolve()

    let container = DIContainer()
    container.append(framework: EIOrdersFramework.self)
    let error = try #require(
      eiFWError(EIFWOrderService.self) { () throws(DIError) in try container.tryResolve() })
    #expect(error.code == .notRegistered)
    #expect(error.path.map(\.requested) == ["EIFWOrderService", "EIFWPaymentGateway"])
    #expect(
      error.hints.contains {
        $0.contains("EIPaymentsFramework")
          && $0.contains("append(framework: EIPaymentsFramework.self)")
      })
    #expect(error.description.contains("EIPaymentsFramework"))
  }

  @Test func aFrameworkNoContainerLoadedIsNotNamed() throws {
    // The library cannot know what a framework registers before its load ran: it says
    // what it knows instead, and names no framework it has not seen.
    let container = DIContainer()
    container.append(framework: EIUnrelatedFramework.self)
    let error = try #require(
      eiFWError(EIFWNeverLoadedService.self) { () throws(DIError) in try container.tryResolve() })
    #expect(error.code == .notRegistered)
    #expect(!error.description.contains("EINeverLoadedFramework"))
    #expect(error.hints.contains { $0.contains("EIUnrelatedFramework") })
  }

  @Test func forgottenAppendOfAPartNamesThePart() throws {
    let other = DIContainer()
    other.append(part: EIStoragePart.self)
    let _: EIFWFileStore = other.resolve()

    let container = DIContainer()
    let error = try #require(
      eiFWError(EIFWFileStore.self) { () throws(DIError) in try container.tryResolve() })
    #expect(error.hints.contains { $0.contains("append(part: EIStoragePart.self)") })
  }

  @Test func frameworkAppendedButTypeOnlyUnderATag() throws {
    let container = DIContainer()
    container.append(framework: EITaggedFramework.self)
    let error = try #require(
      eiFWError(EIFWTaggedClient.self) { () throws(DIError) in try container.tryResolve() })
    #expect(error.hints.contains { $0.contains("EIFWInternal") })
    // It is appended: it must not be advised again.
    #expect(!error.description.contains("append(framework: EITaggedFramework.self)"))
  }

  @Test func aHintReadLaterDoesNotContradictTheFailure() throws {
    let other = DIContainer()
    other.append(framework: EILateFramework.self)
    let container = DIContainer()
    let error = try #require(
      eiFWError(EIFWLateService.self) { () throws(DIError) in try container.tryResolve() })
    // The error is kept (logged later, say) while the program goes on and appends it.
    container.append(framework: EILateFramework.self)
    let hints = error.hints
    #expect(
      !hints.contains { $0.contains("none of the frameworks") && $0.contains("EILateFramework") })
  }

  @Test func resolveFromNamesTheCallersLine() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      synchronously {
        let container = DIContainer()
        container.append(framework: EIFWFromFramework.self)
        FileHandle.standardError.write(Data("EI-LINE=\(#line)\n".utf8))
        let _: EIFWNeedsMissing = container.resolve(from: EIFWFromFramework.self)
      }
    }
    let text = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    let marker =
      text.range(of: "EI-LINE=").map { Int(text[$0.upperBound...].prefix { $0.isNumber }) ?? -1 }
      ?? -1
    #expect(
      text.contains(
        "requested at: DIFrameworksTests/FrameworkHintTests.swift:\(marker)"))
    #expect(text.contains("EIFWMissing is not registered"))
    #expect(!text.contains("DIFrameworks/DIContainer+ResolveFrom.swift"))
  }
}

@Suite struct CleanModuleWarningTests {
  @Test func cleanFrameworkNeverAppendedWarnsWithTheClosestName() {
    let container = DIContainer()
    container.append(framework: EIBillingFramework.self)
    let lines = DISetting.Log.capturing {
      container.clean(framework: EIBilingFramework.self)
    }
    let warnings = lines.filter { $0.hasPrefix("warning") }
    #expect(warnings.count == 1)
    #expect(warnings.first?.contains("EIBilingFramework") == true)
    #expect(warnings.first?.contains("did you mean EIBillingFramework") == true)
  }

  @Test func cleanFrameworkAppendedDoesNotWarn() {
    let container = DIContainer()
    container.append(framework: EIBillingFramework.self)
    let _: EIFWHTTPClient = container.resolve()
    let lines = DISetting.Log.capturing {
      container.clean(framework: EIBillingFramework.self)
    }
    #expect(!lines.contains { $0.hasPrefix("warning") })
  }

  @Test func cleanPartNeverAppendedWarnsWithTheClosestName() {
    let container = DIContainer()
    container.append(part: EIInventoryPart.self)
    let lines = DISetting.Log.capturing {
      container.clean(part: EIInventroyPart.self)
    }
    let warnings = lines.filter { $0.hasPrefix("warning") }
    #expect(warnings.count == 1)
    #expect(warnings.first?.contains("EIInventroyPart") == true)
    #expect(warnings.first?.contains("did you mean EIInventoryPart") == true)
  }

  @Test func cleanPartAppendedInsideAFrameworkDoesNotWarn() {
    final class EIInnerPart: DIPart {
      static func load(container: DIContainer) {}
    }
    final class EIOuterFramework: DIFramework {
      static func load(container: DIContainer) { container.append(part: EIInnerPart.self) }
    }
    let container = DIContainer()
    container.append(framework: EIOuterFramework.self)
    let lines = DISetting.Log.capturing {
      container.clean(part: EIInnerPart.self)
    }
    #expect(!lines.contains { $0.hasPrefix("warning") })
  }

  @Test func cleanFrameworkInAnEmptyContainerWarns() {
    let container = DIContainer()
    let lines = DISetting.Log.capturing {
      container.clean(framework: EIUnrelatedFramework.self)
    }
    let warnings = lines.filter { $0.hasPrefix("warning") }
    #expect(warnings.count == 1)
    #expect(warnings.first?.contains("EIUnrelatedFramework") == true)
  }
}
