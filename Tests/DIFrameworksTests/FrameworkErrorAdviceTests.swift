import DIContainer
import DIFrameworks
import DIParts
import Testing

// A forgotten `append(framework:)`, and cleaning modules never appended.

private protocol PaymentGateway: AnyObject {}
private final class StripeGateway: PaymentGateway {}
private final class Checkout {
  init(gateway: PaymentGateway) {}
}
private final class Mailer {}
private final class Courier {}

private enum PaymentsFramework: DIFramework {
  static func load(container: DIContainer) {
    container.register(StripeGateway.init).as(PaymentGateway.self).lifetime(.perFramework(.single))
  }
}

private enum ShopFramework: DIFramework {
  static func load(container: DIContainer) {
    container.register(Checkout.init)
  }
}

private enum MailingPart: DIPart {
  static func load(container: DIContainer) {
    container.register(Mailer.init).lifetime(.perPart(.single))
  }
}

/// A name one letter off `PaymentsFramework`, as a mistaken import would give.
private enum PaymentFramework: DIFramework {
  static func load(container: DIContainer) {}
}

/// Never appended anywhere: the library cannot know what it registers.
private enum CourierFramework: DIFramework {
  static func load(container: DIContainer) {
    container.register(Courier.init)
  }
}

@Suite struct FrameworkErrorAdviceTests {
  @Test func aFrameworkAppendedElsewhereButNotHereIsNamedWithTheFix() {
    _ = DIContainer().append(framework: PaymentsFramework.self)  // known to the process now
    let container = DIContainer().append(framework: ShopFramework.self)
    let error = #expect(throws: DIError.self) {
      let _: Checkout = try container.tryResolve()
    }
    #expect(error?.code == .notRegistered)
    #expect(
      error?.hints == [
        "PaymentsFramework registers PaymentGateway (loaded by another container of this"
          + " process) but is not appended to this container:"
          + " container.append(framework: PaymentsFramework.self)."
      ])
  }

  @Test func aFrameworkNoContainerLoadedIsNotGuessedButTheAppendedOnesAreListed() {
    let container = DIContainer().append(framework: ShopFramework.self)
      .append(part: MailingPart.self)
    let error = #expect(throws: DIError.self) {
      let _: Courier = try container.tryResolve()
    }
    #expect(
      error?.hints == [
        "none of the frameworks and parts appended to this container (MailingPart,"
          + " ShopFramework) registers Courier; if another one does, append it (the container"
          + " knows only the frameworks and parts some container of this process loaded)."
      ])
    #expect(error?.description.contains("CourierFramework") == false)
  }

  @Test func cleaningAFrameworkNeverAppendedWarnsWithTheClosestName() {
    let container = DIContainer().append(framework: PaymentsFramework.self)
      .append(framework: ShopFramework.self)
    let lines = DISetting.Log.capturing { container.clean(framework: CourierFramework.self) }
    #expect(
      lines == [
        "warning: clean(framework: CourierFramework.self): CourierFramework was never appended"
          + " to this container (known: PaymentsFramework, ShopFramework); nothing was cleaned."
      ])
    let typo = DISetting.Log.capturing { container.clean(framework: PaymentFramework.self) }
    #expect(
      typo == [
        "warning: clean(framework: PaymentFramework.self): PaymentFramework was never appended"
          + " to this container; did you mean PaymentsFramework? (known: PaymentsFramework,"
          + " ShopFramework); nothing was cleaned."
      ])
  }

  @Test func cleaningAPartNeverAppendedWarnsWithTheClosestName() {
    let container = DIContainer().append(framework: ShopFramework.self)
    let lines = DISetting.Log.capturing { container.clean(part: MailingPart.self) }
    #expect(
      lines == [
        "warning: clean(part: MailingPart.self): MailingPart was never appended to this"
          + " container (it knows none); nothing was cleaned."
      ])
  }

  @Test func cleaningAnAppendedFrameworkWarnsAboutNothing() {
    let container = DIContainer().append(framework: PaymentsFramework.self)
    let first: PaymentGateway = container.resolve()
    let lines = DISetting.Log.capturing { container.clean(framework: PaymentsFramework.self) }
    #expect(lines.filter { $0.hasPrefix("warning") }.isEmpty)
    let second: PaymentGateway = container.resolve()
    #expect(first !== second, "the clean dropped the instance")
  }
}
